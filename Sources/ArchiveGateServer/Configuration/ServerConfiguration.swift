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
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (tests).
    public var port: Int = 8080
    /// A connection must deliver a complete request head within this long of opening (or of the
    /// previous response), so a slow-header client cannot hold a connection.
    public var headerTimeout: Duration = .seconds(10)
    /// A request's body must arrive in full within this long of its head, else the connection is
    /// closed: a client trickling the body (inside the idle timeout) cannot hold a connection.
    public var bodyTimeout: Duration = .seconds(120)
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
    /// `/v1/archives`: where results are stored and for how long.
    public var store: StoreSettings = StoreSettings()

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
    public var enabled: Bool = true
    /// `sqlite` (default, embedded) or `postgres` (shared by replicas).
    public var kind: Kind = .sqlite
    /// The connection when ``kind`` is `postgres`; its `description` omits the password.
    public var postgres: PostgresResultStore.Configuration = StoreSettings.postgresDefaults
    /// The SQLite file; a relative path is relative to the working directory. Its folder is created.
    public var path: String = "./data/archivegate.sqlite"
    /// How long a result stays readable after it is stored.
    public var retention: Duration = .seconds(7 * 24 * 60 * 60)
    /// How often the background task deletes expired results (they are invisible before that).
    public var purgeInterval: Duration = .seconds(300)
    /// How long a write waits for another process's lock on the file before the request gets a 503.
    public var busyTimeout: Duration = .seconds(10)
    /// The largest page `GET /v1/archives` returns, and its default page size's cap.
    public var maxPageSize: Int = 100

    public init() {}

    /// `store.postgres.*` defaults: archivegate@127.0.0.1:5432/archivegate, TLS preferred, 10
    /// connections, 5 s statement timeout, 10 s per store call.
    public static let postgresDefaults = PostgresResultStore.Configuration(
        endpoint: .tcp(host: "127.0.0.1", port: 5432), username: "archivegate", database: "archivegate",
        tls: .prefer, poolSize: 10, statementTimeout: .seconds(5), operationTimeout: .seconds(10))
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
    /// Report plus JSON bytes the tenant's unexpired stored results may occupy together (1 GiB);
    /// past it `POST /v1/archives` answers 413 `store.quota_exceeded`.
    public var maxStoredBytes: Int = 1 << 30
    /// How many unexpired stored results the tenant may have (100,000).
    public var maxStoredResults: Int = 100_000

    public init() {}
}
