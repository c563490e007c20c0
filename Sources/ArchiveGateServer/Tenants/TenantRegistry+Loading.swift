import ArchiveGateCore
import Foundation

extension TenantRegistry {
    /// Loads every `*.json` file in `directory` (sorted by name); a missing folder is no tenants.
    ///
    /// A tenant file (README.md "Tenant files"):
    /// `{"id", "keys": [sha256 hex…], "policy": "path/relative/to/file.json" | {inline policy},
    ///   "maxBodyBytes"?, "maxArchiveBytes"?, "rateLimit"?: {"requestsPerSecond", "burst"}, "description"?}`.
    /// Unknown fields are errors, as in policies: a typo must not silently loosen a limit.
    public static func load(directory: String?, defaults: TenantDefaults) throws(TenantFileError) -> TenantRegistry {
        guard let directory else { return TenantRegistry(tenants: []) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            return TenantRegistry(tenants: [])
        }
        var tenants: [Tenant] = []
        var seenKeys: Set<APIKeyHash> = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (directory as NSString).appendingPathComponent(name)
            let tenant = try TenantFile(path: path).tenant(defaults: defaults)
            if tenants.contains(where: { $0.id == tenant.id }) {
                throw TenantFileError(path: path, "tenant id '\(tenant.id)' is used by another file")
            }
            for hash in tenant.keyHashes where !seenKeys.insert(hash).inserted {
                throw TenantFileError(path: path, "a key hash is listed by two tenants")
            }
            tenants.append(tenant)
        }
        return TenantRegistry(tenants: tenants)
    }
}
