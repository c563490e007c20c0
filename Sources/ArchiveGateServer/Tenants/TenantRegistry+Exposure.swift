import ArchiveGateKeys
/// The start-up check that keeps a published key off a reachable server.
extension TenantRegistry {
    /// Throws when `host` is not a loopback address and a tenant accepts the key published in
    /// README.md (`APIKeyHash.publishedDemoKey`): anyone who read the README could use it.
    func refusePublishedKeys(bindingTo host: String) throws(TenantFileError) {
        guard !Self.isLoopback(host) else { return }
        for tenant in tenants where tenant.keyHashes.contains(APIKeyHash.publishedDemoKey) {
            throw TenantFileError(
                .publishedKey, path: "tenant '\(tenant.id)'",
                "accepts the demo key published in README.md (demo-key-change-me) and the server would listen on \(host), which is not loopback; replace the tenant's keys or bind 127.0.0.1")
        }
    }

    /// `127.0.0.0/8`, `::1` and `localhost`: addresses only this machine can reach.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
