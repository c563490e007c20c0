import ArchiveGateCore
import ArchiveGateKeys
import ArchiveGateStore
import Crypto
import Foundation

/// One `config/tenants/*.json` file, parsed strictly.
struct TenantFile {
    private static let fields: Set<String> = ["id", "description", "keys", "policy", "maxBodyBytes", "maxArchiveBytes", "rateLimit",
                                              "fetchAllowedHosts", "acknowledgeAnyFetchHost", "maxStoredBytes", "maxStoredResults"]
    private let path: String
    private let object: [String: Any]
    /// The same object with its JSON types kept (`true` is not `1`), for the typed fields.
    private let typed: [String: ConfigurationJSON]

    init(path: String) throws(TenantFileError) {
        self.path = path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TenantFileError(.unreadable, path: path, "cannot read: \(error.localizedDescription)")
        }
        let parsed: ConfigurationJSON?
        do {
            parsed = try ConfigurationJSON.parse(data)
        } catch {
            throw TenantFileError(.duplicateKey, path: path, "\(error); keep one")
        }
        guard case .object(let typed) = parsed,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw TenantFileError(.notAnObject, path: path, "a tenant file is a JSON object")
        }
        for key in object.keys.sorted() where !Self.fields.contains(key) {
            throw TenantFileError(.unknownField, path: path, "unknown field '\(key)'; expected one of \(Self.fields.sorted().joined(separator: ", "))")
        }
        self.object = object
        self.typed = typed
    }

    func tenant(defaults: TenantDefaults) throws(TenantFileError) -> Tenant {
        guard let id = object["id"] as? String, !id.isEmpty,
              id.utf8.count <= 64, id.utf8.allSatisfy(Self.isIdentifierByte)
        else {
            throw TenantFileError(.invalidValue, path: path, "id is 1–64 letters, digits, '-' and '_'")
        }
        guard let keyList = object["keys"] as? [Any], !keyList.isEmpty else {
            throw TenantFileError(.invalidValue, path: path, "keys is a non-empty array of SHA-256 hex digests (archivegate hash-key)")
        }
        var hashes: [APIKeyHash] = []
        for entry in keyList {
            guard let text = entry as? String, let hash = APIKeyHash(hex: text) else {
                throw TenantFileError(.invalidValue, path: path, "keys holds 64-digit SHA-256 hex digests, never keys themselves")
            }
            hashes.append(hash)
        }
        var requestsPerSecond = defaults.requestsPerSecond
        var burst = defaults.burst
        if let rate = typed["rateLimit"] {
            guard case .object(let rate) = rate, Set(rate.keys).isSubset(of: ["requestsPerSecond", "burst"]) else {
                throw TenantFileError(.invalidValue, path: path, "rateLimit is {\"requestsPerSecond\": number, \"burst\": integer}")
            }
            let range = TokenBucket.rateRange
            switch rate["requestsPerSecond"] {
            case nil: break
            case .integer(let number)? where range.contains(Double(number)): requestsPerSecond = Double(number)
            case .number(let number)? where range.contains(number): requestsPerSecond = number
            default: throw TenantFileError(.invalidValue, path: path, "rateLimit.requestsPerSecond is a number from \(range.lowerBound) to \(range.upperBound)")
            }
            burst = try positiveInteger(rate["burst"], "rateLimit.burst", burst)
            guard TokenBucket.burstRange.contains(burst) else {
                throw TenantFileError(.invalidValue, path: path, "rateLimit.burst is at most \(TokenBucket.burstRange.upperBound), not \(burst)")
            }
        }
        let allowedHosts = try fetchAllowedHosts()
        let (loadedPolicy, policyBytes) = try policy(id: id)
        var tenant = Tenant(id: id, keyHashes: hashes, policy: loadedPolicy,
                      maxBodyBytes: try size(typed["maxBodyBytes"], "maxBodyBytes", defaults.maxBodyBytes),
                      maxArchiveBytes: try size(typed["maxArchiveBytes"], "maxArchiveBytes", defaults.maxArchiveBytes),
                      requestsPerSecond: requestsPerSecond, burst: burst, fetchAllowedHosts: allowedHosts,
                      storageQuota: StorageQuota(
                        maxBytes: Int64(try size(typed["maxStoredBytes"], "maxStoredBytes", defaults.maxStoredBytes)),
                        maxResults: try positiveInteger(typed["maxStoredResults"], "maxStoredResults", defaults.maxStoredResults)))
        tenant.policyDigest = Self.policyDigest(policyBytes, maxArchiveBytes: tenant.maxArchiveBytes)
        if allowedHosts == nil, typed["fetchAllowedHosts"] != nil {
            tenant.acknowledgedRisks.append("fetchAllowedHosts \"*\": /v1/fetch may reach any host (acknowledged by acknowledgeAnyFetchHost)")
        }
        for host in allowedHosts ?? [] where HostPattern.breadth(of: host) == .overBroad {
            tenant.acknowledgedRisks.append("fetchAllowedHosts \"\(host)\": /v1/fetch may reach any host under a top-level domain (acknowledged by acknowledgeAnyFetchHost)")
        }
        return tenant
    }

    /// Optional list of host names (`*.example.com` for subdomains) the tenant may fetch from.
    /// `["*"]` means any host (nil); it and any other over-broad pattern (`HostPattern`: a
    /// wildcard over a top-level domain such as `*.com`) need `"acknowledgeAnyFetchHost": true`:
    /// such a pattern is more often a mistake than a decision. A `*` anywhere but a whole leading
    /// label (`*.*`, `a*.example.com`) matches nothing the way it reads, so it is refused.
    private func fetchAllowedHosts() throws(TenantFileError) -> [String]? {
        var acknowledged = false
        switch typed["acknowledgeAnyFetchHost"] {
        case nil: break
        case .boolean(let value)?: acknowledged = value
        default: throw TenantFileError(.invalidValue, path: path, "acknowledgeAnyFetchHost is true or false")
        }
        guard let value = object["fetchAllowedHosts"] else { return nil }
        guard let list = value as? [Any] else {
            throw TenantFileError(.invalidValue, path: path, "fetchAllowedHosts is an array of host names")
        }
        var hosts: [String] = []
        var broad: [String] = []
        for entry in list {
            guard let host = entry as? String, !host.isEmpty, !host.contains("/"), !host.contains(" ") else {
                throw TenantFileError(.invalidValue, path: path, "fetchAllowedHosts holds host names such as 'archives.example.com' or '*.example.com'")
            }
            switch HostPattern.breadth(of: host) {
            case .narrow: break
            case .overBroad: broad.append(host)
            case .misplacedWildcard:
                throw TenantFileError(.invalidValue, path: path, "fetchAllowedHosts entry '\(host)': '*' is only a whole leading label ('*.example.com' for the subdomains of example.com) or the whole entry")
            }
            hosts.append(host)
        }
        if !broad.isEmpty {
            guard acknowledged else {
                throw TenantFileError(.unacknowledgedRisk, path: path, "fetchAllowedHosts \(broad.map { "\"\($0)\"" }.joined(separator: ", ")) lets /v1/fetch reach any host\(broad == ["*"] ? "" : " under a top-level domain"); set \"acknowledgeAnyFetchHost\": true if that is intended, or list the hosts")
            }
        }
        return hosts.contains("*") ? nil : hosts
    }

    /// SHA-256 over the policy document and the archive cap the tenant puts on it: what a verdict
    /// depends on besides the bytes and the mode. Stored results are keyed by it too.
    static func policyDigest(_ policyBytes: [UInt8], maxArchiveBytes: Int) -> String {
        SHA256.hash(data: policyBytes + Array("\nmaxArchiveBytes=\(maxArchiveBytes)".utf8)).hexDigits
    }

    /// A path (relative to this file's folder) to a policy document, or the document inline; with
    /// the bytes it was loaded from (inline: re-serialized with sorted keys, so stable).
    private func policy(id: String) throws(TenantFileError) -> (Policy, [UInt8]) {
        let bytes: [UInt8]
        var policyFile: String?
        switch object["policy"] {
        case let relative as String:
            let base = (path as NSString).deletingLastPathComponent
            let policyPath = relative.hasPrefix("/") ? relative : (base as NSString).appendingPathComponent(relative)
            guard let data = FileManager.default.contents(atPath: policyPath) else {
                throw TenantFileError(.unreadable, path: path, "cannot read policy file \(policyPath)")
            }
            bytes = Array(data)
            policyFile = policyPath
        case let inline as [String: Any]:
            guard let data = try? JSONSerialization.data(withJSONObject: inline, options: [.sortedKeys]) else {
                throw TenantFileError(.invalidPolicy, path: path, "policy is not serializable")
            }
            bytes = Array(data)
        case nil:
            throw TenantFileError(.invalidPolicy, path: path, "policy is required: a path to a policy file or an inline policy object")
        default:
            throw TenantFileError(.invalidPolicy, path: path, "policy is a path string or a policy object")
        }
        let policy: Policy
        do {
            policy = try Policy.load(json: bytes, name: id)
        } catch {
            // A policy file's own problem names that file too (a duplicate key is found there).
            throw TenantFileError(.invalidPolicy, path: path, "policy\(policyFile.map { " file \($0)" } ?? ""): \(error)")
        }
        // An over-broad allow-list on a gate tenant is refused at start (PolicyLint).
        if let first = policy.lint.first {
            throw TenantFileError(.overBroadPolicy, path: path, "tenant '\(id)': policy is over-broad (\(policy.lint.count) lint finding\(policy.lint.count == 1 ? "" : "s"), first: \(first)); narrow it or declare \"inspection\": true")
        }
        return (policy, bytes)
    }

    /// Ids appear in logs and metric labels, so they are kept to a safe alphabet.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    private func positiveInteger(_ value: ConfigurationJSON?, _ name: String, _ fallback: Int) throws(TenantFileError) -> Int {
        switch value {
        case nil: return fallback
        case .integer(let integer)? where integer > 0: return integer
        case .integer(let integer)?: throw TenantFileError(.invalidValue, path: path, "\(name) is a positive integer, not \(integer)")
        case let other?: throw TenantFileError(.invalidValue, path: path, "\(name) is a positive integer, not \(other.typeName)")
        }
    }

    /// A byte count: a positive integer or a size string such as "16MiB" (`ByteSize`).
    private func size(_ value: ConfigurationJSON?, _ name: String, _ fallback: Int) throws(TenantFileError) -> Int {
        switch value {
        case nil: return fallback
        case .integer(let integer)? where integer > 0: return integer
        case .string(let text)?:
            guard let bytes = ByteSize.parse(text), bytes > 0 else {
                throw TenantFileError(.invalidValue, path: path, "\(name): \"\(text)\" is not \(ByteSize.accepted)")
            }
            return bytes
        case .integer(let integer)?: throw TenantFileError(.invalidValue, path: path, "\(name) is a positive byte count, not \(integer)")
        case let other?: throw TenantFileError(.invalidValue, path: path, "\(name) is a positive byte count or a size such as \"16MiB\", not \(other.typeName)")
        }
    }
}
