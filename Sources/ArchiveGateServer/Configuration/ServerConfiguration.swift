import ArchiveGateFetch
import ArchiveGateStore
import Logging

/// Everything `buildApplication(configuration:)` needs. Defaults need no file at all: 127.0.0.1:8080,
/// no tenants (every `/v1` request is then a 401), conservative timeouts and limits.
///
/// `ServerConfiguration.load(…)` fills it from `server.json`, `ARCHIVEGATE_*` variables and CLI flags;
/// tests build one directly.
public struct ServerConfiguration: Sendable {
    /// Interface to bind; loopback unless an operator decides otherwise.
    public var host: String = ConfigurationDefaults.httpHost.defaultValue
    /// TCP port; 0 picks a free one (tests).
    public var port: Int = ConfigurationDefaults.httpPort.defaultValue
    /// A connection must deliver a complete request head within this long of opening (or of the
    /// previous response), so a slow-header client cannot hold a connection.
    public var headerTimeout: Duration = .seconds(ConfigurationDefaults.httpHeaderTimeoutSeconds.defaultValue)
    /// A request's body must arrive in full within this long of its head, else the connection is
    /// closed: a client trickling the body (inside the idle timeout) cannot hold a connection.
    public var bodyTimeout: Duration = .seconds(ConfigurationDefaults.httpBodyTimeoutSeconds.defaultValue)
    /// A connection with nothing to read for this long is closed: a stalled body upload, or an idle
    /// keep-alive connection.
    public var idleTimeout: Duration = .seconds(ConfigurationDefaults.httpIdleTimeoutSeconds.defaultValue)
    /// A response the client stops reading (connection unwritable) for this long is cut.
    public var sendTimeout: Duration = .seconds(ConfigurationDefaults.httpSendTimeoutSeconds.defaultValue)
    /// The memory budget, its shares and the amplification cap (`memory.*`).
    public var memory: MemorySettings = MemorySettings()
    /// Folder of tenant files (`*.json`); nil or missing folder means no tenants.
    public var tenantsDirectory: String?
    /// More tenant folders, loaded after `tenantsDirectory` (`archivegate serve --extra-tenants`;
    /// `scripts/serve` adds the demo tenant this way). Not a configuration key.
    public var extraTenantsDirectories: [String] = []
    /// Limits a tenant file does not set.
    public var tenantDefaults: TenantDefaults = TenantDefaults()
    public var logLevel: Logger.Level = ConfigurationDefaults.logLevel.defaultValue
    /// `POST /v1/fetch`: which destinations, how much and how long.
    public var fetch: FetchSettings = FetchSettings()
    /// `/v1/archives`: where results are stored and for how long.
    public var store: StoreSettings = StoreSettings()
    /// `ui.enabled`: serve the inspector page at `/` and its files under `/ui/`. False → 404 there.
    public var uiEnabled: Bool = ConfigurationDefaults.uiEnabled.defaultValue
    /// Acknowledged risky settings, one sentence each; logged as warnings at start.
    public var riskySettings: [String] = []

    public init() {}
}

/// Settings of the result store behind `/v1/archives` (the `store.*` keys).
public struct StoreSettings: Sendable, Hashable {
    /// Which database holds the results.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// One file beside the process (`store.path`): one replica only.
        case sqlite
        /// A PostgreSQL server (`store.postgres.*`) that any number of replicas share.
        case postgres
    }

    /// False turns the store off: `/v1/archives` and `POST /v1/fetch` with `store: true` answer 503
    /// `store.disabled`, and nothing is written to disk.
    public var enabled: Bool = ConfigurationDefaults.storeEnabled.defaultValue
    /// `sqlite` (default, embedded) or `postgres` (shared by replicas).
    public var kind: Kind = ConfigurationDefaults.storeKind.defaultValue
    /// The connection when ``kind`` is `postgres`; its `description` omits the password.
    public var postgres: PostgresResultStore.Configuration = StoreSettings.postgresDefaults
    /// The SQLite file; a relative path is relative to the working directory. Its folder is created.
    public var path: String = ConfigurationDefaults.storePath.defaultValue
    /// How long a result stays readable after it is stored.
    public var retention: Duration = .seconds(ConfigurationDefaults.storeRetentionSeconds.defaultValue)
    /// How often the background task deletes expired results (they are invisible before that).
    public var purgeInterval: Duration = .seconds(ConfigurationDefaults.storePurgeIntervalSeconds.defaultValue)
    /// How long a write waits for another process's lock on the file before the request gets a 503.
    public var busyTimeout: Duration = .milliseconds(ConfigurationDefaults.storeBusyTimeoutMilliseconds.defaultValue)
    /// The largest page `GET /v1/archives` returns, and its default page size's cap.
    public var maxPageSize: Int = ConfigurationDefaults.storeMaxPageSize.defaultValue

    public init() {}

    /// The `store.postgres.*` defaults of `ConfigurationDefaults` (no password).
    public static let postgresDefaults: PostgresResultStore.Configuration = {
        typealias Key = ConfigurationDefaults
        return PostgresResultStore.Configuration(
            endpoint: .tcp(host: Key.storePostgresHost.defaultValue, port: Key.storePostgresPort.defaultValue),
            username: Key.storePostgresUser.defaultValue, database: Key.storePostgresDatabase.defaultValue,
            tls: Key.storePostgresTLS.defaultValue, poolSize: Key.storePostgresPoolSize.defaultValue,
            statementTimeout: .milliseconds(Key.storePostgresStatementTimeoutMilliseconds.defaultValue),
            operationTimeout: .milliseconds(Key.storePostgresOperationTimeoutMilliseconds.defaultValue),
            retention: .seconds(Key.storeRetentionSeconds.defaultValue), maximumPageSize: Key.storeMaxPageSize.defaultValue)
    }()
}

/// Server-wide settings of `POST /v1/fetch` (the `fetch.*` keys).
public struct FetchSettings: Sendable {
    /// Address ranges allowed despite the fetcher's deny list (loopback, private networks…).
    /// Empty by default: only public addresses can be fetched.
    public var allowedRanges: [IPAddressRange] = []
    /// A range with a shorter prefix than this in `allowedRanges` needs
    /// `fetch.acknowledgeWideAllowedRanges` (`0.0.0.0/0`, `::/0`, `0.0.0.0/1`…).
    public static let widestUnacknowledgedPrefix = 8

    /// Why `range` in `allowedRanges` needs `fetch.acknowledgeWideAllowedRanges`, or nil: wider
    /// than `widestUnacknowledgedPrefix`, or admitting more of the deny list than one protected
    /// network (`AddressGuard.breadthConcern`: `::/8` admits `::1`, SIIT and NAT64).
    static func acknowledgementConcern(_ range: IPAddressRange) -> String? {
        if range.prefixLength < widestUnacknowledgedPrefix { return "\(range) is wider than /\(widestUnacknowledgedPrefix)" }
        return AddressGuard.breadthConcern(allowing: range)
    }
    /// Largest fetched body (after content decoding); also capped by the tenant's archive limit.
    /// `load` defaults it to `limits.maxBodyBytes`, the upload body limit.
    public var maxBytes: Int = ConfigurationDefaults.fetchMaxBytes.defaultValue
    /// Time allowed for each TCP/TLS connect.
    public var connectTimeout: Duration = .seconds(ConfigurationDefaults.fetchConnectTimeoutSeconds.defaultValue)
    /// Time allowed for a whole fetch, redirects included.
    public var totalTimeout: Duration = .seconds(ConfigurationDefaults.fetchTotalTimeoutSeconds.defaultValue)
    /// Fetches one tenant may run at once; more → 429.
    public var maxConcurrentPerTenant: Int = ConfigurationDefaults.fetchMaxConcurrentPerTenant.defaultValue

    public init() {}
}

/// Per-tenant limits used when a tenant file leaves them out.
public struct TenantDefaults: Sendable, Hashable {
    /// Largest request body on the wire (compressed or not), enforced while reading.
    public var maxBodyBytes: Int = ConfigurationDefaults.limitsMaxBodyBytes.defaultValue
    /// Largest archive after gzip inflation; also caps the policy's `maxInputBytes`.
    public var maxArchiveBytes: Int = ConfigurationDefaults.limitsMaxArchiveBytes.defaultValue
    /// Sustained request rate of the tenant's token bucket.
    public var requestsPerSecond: Double = ConfigurationDefaults.limitsRequestsPerSecond.defaultValue
    /// Bucket size: how many requests may arrive at once after a quiet period.
    public var burst: Int = ConfigurationDefaults.limitsBurst.defaultValue
    /// Report, JSON and sanitized-archive bytes the tenant's unexpired stored results may occupy together;
    /// past it `POST /v1/archives` answers 413 `store.quota_exceeded`.
    public var maxStoredBytes: Int = ConfigurationDefaults.limitsMaxStoredBytes.defaultValue
    /// How many unexpired stored results the tenant may have.
    public var maxStoredResults: Int = ConfigurationDefaults.limitsMaxStoredResults.defaultValue

    public init() {}
}
