import ArchiveGateKeys
/// All tenants, looked up by API key.
public struct TenantRegistry: Sendable {
    public let tenants: [Tenant]

    public init(tenants: [Tenant]) {
        self.tenants = tenants
    }

    /// The tenant owning `key`, or nil. Hashes the key once and compares it with every stored hash
    /// in constant time, without stopping at a match, so timing reveals neither which tenant nor
    /// how many bytes matched.
    public func authenticate(key: String) -> Tenant? {
        let presented = APIKeyHash(key: key)
        var found: Tenant?
        for tenant in tenants {
            for hash in tenant.keyHashes where hash.constantTimeEquals(presented) {
                found = tenant
            }
        }
        return found
    }
}
