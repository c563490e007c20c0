import ArchiveGateCore
import ArchiveGateStore
import Foundation

/// One `config/tenants/*.json` file, parsed strictly.
struct TenantFile {
    private static let fields: Set<String> = ["id", "description", "keys", "policy", "maxBodyBytes", "maxArchiveBytes", "rateLimit", "fetchAllowedHosts", "maxStoredBytes", "maxStoredResults"]
    private let path: String
    private let object: [String: Any]

    init(path: String) throws(TenantFileError) {
        self.path = path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TenantFileError(path: path, "cannot read: \(error.localizedDescription)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TenantFileError(path: path, "a tenant file is a JSON object")
        }
        for key in object.keys.sorted() where !Self.fields.contains(key) {
            throw TenantFileError(path: path, "unknown field '\(key)'; expected one of \(Self.fields.sorted().joined(separator: ", "))")
        }
        self.object = object
    }

    func tenant(defaults: TenantDefaults) throws(TenantFileError) -> Tenant {
        guard let id = object["id"] as? String, !id.isEmpty,
              id.utf8.count <= 64, id.utf8.allSatisfy(Self.isIdentifierByte)
        else {
            throw TenantFileError(path: path, "id is 1–64 letters, digits, '-' and '_'")
        }
        guard let keyList = object["keys"] as? [Any], !keyList.isEmpty else {
            throw TenantFileError(path: path, "keys is a non-empty array of SHA-256 hex digests (archivegate hash-key)")
        }
        var hashes: [APIKeyHash] = []
        for entry in keyList {
            guard let text = entry as? String, let hash = APIKeyHash(hex: text) else {
                throw TenantFileError(path: path, "keys holds 64-digit SHA-256 hex digests, never keys themselves")
            }
            hashes.append(hash)
        }
        var requestsPerSecond = defaults.requestsPerSecond
        var burst = defaults.burst
        if let rate = object["rateLimit"] {
            guard let rate = rate as? [String: Any], Set(rate.keys).isSubset(of: ["requestsPerSecond", "burst"]) else {
                throw TenantFileError(path: path, "rateLimit is {\"requestsPerSecond\": number, \"burst\": integer}")
            }
            if let value = rate["requestsPerSecond"] {
                guard let number = value as? NSNumber, number.doubleValue > 0 else {
                    throw TenantFileError(path: path, "rateLimit.requestsPerSecond is a positive number")
                }
                requestsPerSecond = number.doubleValue
            }
            if rate["burst"] != nil { burst = try positiveInteger(rate["burst"], "rateLimit.burst", burst) }
        }
        return Tenant(id: id, keyHashes: hashes, policy: try policy(id: id),
                      maxBodyBytes: try positiveInteger(object["maxBodyBytes"], "maxBodyBytes", defaults.maxBodyBytes),
                      maxArchiveBytes: try positiveInteger(object["maxArchiveBytes"], "maxArchiveBytes", defaults.maxArchiveBytes),
                      requestsPerSecond: requestsPerSecond, burst: burst, fetchAllowedHosts: try fetchAllowedHosts(),
                      storageQuota: StorageQuota(
                        maxBytes: Int64(try positiveInteger(object["maxStoredBytes"], "maxStoredBytes", defaults.maxStoredBytes)),
                        maxResults: try positiveInteger(object["maxStoredResults"], "maxStoredResults", defaults.maxStoredResults)))
    }

    /// Optional list of host names (`*.example.com` for subdomains) the tenant may fetch from.
    private func fetchAllowedHosts() throws(TenantFileError) -> [String]? {
        guard let value = object["fetchAllowedHosts"] else { return nil }
        guard let list = value as? [Any] else {
            throw TenantFileError(path: path, "fetchAllowedHosts is an array of host names")
        }
        var hosts: [String] = []
        for entry in list {
            guard let host = entry as? String, !host.isEmpty, !host.contains("/"), !host.contains(" ") else {
                throw TenantFileError(path: path, "fetchAllowedHosts holds host names such as 'archives.example.com' or '*.example.com'")
            }
            hosts.append(host)
        }
        return hosts
    }

    /// A path (relative to this file's folder) to a policy document, or the document inline.
    private func policy(id: String) throws(TenantFileError) -> Policy {
        let bytes: [UInt8]
        switch object["policy"] {
        case let relative as String:
            let base = (path as NSString).deletingLastPathComponent
            let policyPath = relative.hasPrefix("/") ? relative : (base as NSString).appendingPathComponent(relative)
            guard let data = FileManager.default.contents(atPath: policyPath) else {
                throw TenantFileError(path: path, "cannot read policy file \(policyPath)")
            }
            bytes = Array(data)
        case let inline as [String: Any]:
            guard let data = try? JSONSerialization.data(withJSONObject: inline) else {
                throw TenantFileError(path: path, "policy is not serializable")
            }
            bytes = Array(data)
        case nil:
            throw TenantFileError(path: path, "policy is required: a path to a policy file or an inline policy object")
        default:
            throw TenantFileError(path: path, "policy is a path string or a policy object")
        }
        do {
            return try Policy.load(json: bytes, name: id)
        } catch {
            throw TenantFileError(path: path, "policy: \(error)")
        }
    }

    /// Ids appear in logs and metric labels, so they are kept to a safe alphabet.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    private func positiveInteger(_ value: Any?, _ name: String, _ fallback: Int) throws(TenantFileError) -> Int {
        guard let value else { return fallback }
        guard let number = value as? NSNumber, let integer = Int(exactly: number.doubleValue), integer > 0 else {
            throw TenantFileError(path: path, "\(name) is a positive integer")
        }
        return integer
    }
}
