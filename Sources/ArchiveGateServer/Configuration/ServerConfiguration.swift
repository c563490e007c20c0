import ArchiveGateFetch
import Logging

/// Everything `buildApplication(configuration:)` needs. Defaults need no file at all: 127.0.0.1:8080,
/// no tenants (every `/v1` request is then a 401), conservative timeouts and limits.
///
/// `ServerConfiguration.load(…)` fills it from `server.json`, `ARCHIVEGATE_*` variables and CLI flags;
/// tests build one directly.
public struct ServerConfiguration: Sendable {
    /// Interface to bind; loopback unless an operator decides otherwise.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (tests).
    public var port: Int = 8080
    /// A connection must deliver a complete request head within this long of opening (or of the
    /// previous response), so a slow-header client cannot hold a connection.
    public var headerTimeout: Duration = .seconds(10)
    /// A connection with nothing to read for this long is closed: a stalled body upload, or an idle
    /// keep-alive connection.
    public var idleTimeout: Duration = .seconds(30)
    /// Folder of tenant files (`*.json`); nil or missing folder means no tenants.
    public var tenantsDirectory: String?
    /// Limits a tenant file does not set.
    public var tenantDefaults: TenantDefaults = TenantDefaults()
    public var logLevel: Logger.Level = .info
    /// `POST /v1/fetch`: which destinations, how much and how long.
    public var fetch: FetchSettings = FetchSettings()

    public init() {}
}

/// Server-wide settings of `POST /v1/fetch` (the `fetch.*` keys).
public struct FetchSettings: Sendable {
    /// Address ranges allowed despite the fetcher's deny list (loopback, private networks…).
    /// Empty by default: only public addresses can be fetched.
    public var allowedRanges: [IPAddressRange] = []
    /// Largest fetched body (after content decoding); also capped by the tenant's archive limit.
    /// `load` defaults it to `limits.maxBodyBytes`, the upload body limit.
    public var maxBytes: Int = 16 << 20
    /// Time allowed for each TCP/TLS connect.
    public var connectTimeout: Duration = .seconds(5)
    /// Time allowed for a whole fetch, redirects included.
    public var totalTimeout: Duration = .seconds(30)
    /// Fetches one tenant may run at once; more → 429.
    public var maxConcurrentPerTenant: Int = 4

    public init() {}
}

/// Per-tenant limits used when a tenant file leaves them out.
public struct TenantDefaults: Sendable, Hashable {
    /// Largest request body on the wire (compressed or not), enforced while reading.
    public var maxBodyBytes: Int = 16 << 20
    /// Largest archive after gzip inflation; also caps the policy's `maxInputBytes`.
    public var maxArchiveBytes: Int = 64 << 20
    /// Sustained request rate of the tenant's token bucket.
    public var requestsPerSecond: Double = 50
    /// Bucket size: how many requests may arrive at once after a quiet period.
    public var burst: Int = 100

    public init() {}
}
