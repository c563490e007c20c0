import ArchiveGateCore
import ArchiveGateKeys
import Foundation

extension TenantRegistry {
    /// Loads every `*.json` file in `directory` (sorted by name); a missing folder is no tenants.
    ///
    /// A tenant file (docs/OPERATIONS.md "Tenant files"):
    /// `{"id", "keys": [sha256 hex…], "policy": "path/relative/to/file.json" | {inline policy},
    ///   "maxBodyBytes"?, "maxArchiveBytes"?, "rateLimit"?: {"requestsPerSecond", "burst"}, "description"?}`.
    /// Unknown fields are errors, as in policies: a typo must not silently loosen a limit.
    public static func load(directory: String?, defaults: TenantDefaults) throws(TenantFileError) -> TenantRegistry {
        try load(directories: directory.map { [$0] } ?? [], defaults: defaults)
    }

    /// Loads the tenant files of every folder in turn (`tenants.directory`, then the
    /// `--extra-tenants` folders); ids and key hashes must be unique across all of them.
    public static func load(directories: [String], defaults: TenantDefaults) throws(TenantFileError) -> TenantRegistry {
        var tenants: [Tenant] = []
        var seenKeys: Set<APIKeyHash> = []
        for directory in directories {
            try load(directory: directory, defaults: defaults, into: &tenants, seenKeys: &seenKeys)
        }
        return TenantRegistry(tenants: tenants)
    }

    private static func load(directory: String, defaults: TenantDefaults, into tenants: inout [Tenant],
                             seenKeys: inout Set<APIKeyHash>) throws(TenantFileError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            return
        }
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (directory as NSString).appendingPathComponent(name)
            let tenant = try TenantFile(path: path).tenant(defaults: defaults)
            if tenants.contains(where: { $0.id == tenant.id }) {
                throw TenantFileError(.duplicate, path: path, "tenant id '\(tenant.id)' is used by another file")
            }
            for hash in tenant.keyHashes where !seenKeys.insert(hash).inserted {
                throw TenantFileError(.duplicate, path: path, "a key hash is listed by two tenants")
            }
            tenants.append(tenant)
        }
    }
}
