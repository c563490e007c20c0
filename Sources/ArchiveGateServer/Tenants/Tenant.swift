import ArchiveGateCore
import ArchiveGateKeys
import ArchiveGateStore

/// One customer of the service: who they are, how they authenticate, which policy their archives
/// are judged by, and how much they may send.
public struct Tenant: Sendable, Identifiable {
    /// Stable id, used in logs and metrics (never the key).
    public let id: String
    /// SHA-256 hashes of the tenant's API keys (several, so keys can be rotated).
    public let keyHashes: [APIKeyHash]
    /// The tenant's policy, with `maxInputBytes` capped at `maxArchiveBytes`.
    public let inspector: ArchiveInspector
    /// Largest request body on the wire, enforced while reading.
    public let maxBodyBytes: Int
    /// Largest archive after gzip inflation.
    public let maxArchiveBytes: Int
    public let rateLimiter: TokenBucket
    /// Hosts `POST /v1/fetch` may fetch from for this tenant (`*.example.com` for subdomains);
    /// nil allows any host the server's address rules allow.
    public let fetchAllowedHosts: [String]?
    /// What the tenant's unexpired stored results may occupy together; nil for no limit.
    public let storageQuota: StorageQuota?
    /// Identifies the policy and limits verdicts are made under (`TenantFile.policyDigest`); part
    /// of a stored result's idempotency key. "" for a tenant built in code.
    public internal(set) var policyDigest: String = ""
    /// Risky settings of the tenant file that it acknowledged explicitly; logged at start.
    public internal(set) var acknowledgedRisks: [String] = []

    public init(id: String, keyHashes: [APIKeyHash], policy: Policy, maxBodyBytes: Int, maxArchiveBytes: Int,
                requestsPerSecond: Double, burst: Int, fetchAllowedHosts: [String]? = nil, storageQuota: StorageQuota? = nil) {
        self.fetchAllowedHosts = fetchAllowedHosts
        self.storageQuota = storageQuota
        self.id = id
        self.keyHashes = keyHashes
        var policy = policy
        // The decode limit is the archive cap too, so the report lists the limit that really applied.
        let archiveCap = min(maxArchiveBytes, policy.limits.maxInputBytes)
        policy.limits.maxInputBytes = archiveCap
        inspector = ArchiveInspector(policy: policy)
        self.maxBodyBytes = maxBodyBytes
        self.maxArchiveBytes = archiveCap
        rateLimiter = TokenBucket(ratePerSecond: requestsPerSecond, burst: burst)
    }
}
