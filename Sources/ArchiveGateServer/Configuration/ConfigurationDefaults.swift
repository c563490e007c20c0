import ArchiveGateFetch
import ArchiveGateStore
import Logging

/// THE table of configuration keys and their defaults: the one place a default is written.
///
/// `ServerConfiguration.load` reads every key through it (so `server.json` and `ARCHIVEGATE_*`
/// variables can only name keys listed here), the settings structs take their initial values from
/// it, and `ConfigurationDocumentationTests` checks that docs/OPERATIONS.md's Configuration table and
/// config/server.json list every key with this default.
///
/// Adding a key: one `static let` here, its name in `all`, one line in
/// `ServerConfiguration.resolve` that reads it, a docs/OPERATIONS.md row and a server.json entry (the tests
/// name whatever is missing).
enum ConfigurationDefaults {
    static let httpHost: ConfigurationKey<String> = .string("http.host", "127.0.0.1")
    static let httpPort: ConfigurationKey<Int> = .integer("http.port", 8080, in: 0...65535)
    static let httpHeaderTimeoutSeconds: ConfigurationKey<Int> = .integer("http.headerTimeoutSeconds", 10, in: 1...3600)
    static let httpBodyTimeoutSeconds: ConfigurationKey<Int> = .integer("http.bodyTimeoutSeconds", 120, in: 1...86400)
    static let httpIdleTimeoutSeconds: ConfigurationKey<Int> = .integer("http.idleTimeoutSeconds", 30, in: 1...86400)
    /// A response the client does not read for this long (the connection stays unwritable) is cut.
    static let httpSendTimeoutSeconds: ConfigurationKey<Int> = .integer("http.sendTimeoutSeconds", 30, in: 1...86400)

    static let tenantsDirectory: ConfigurationKey<String> = .string("tenants.directory", "tenants")

    static let limitsMaxBodyBytes: ConfigurationKey<Int> = .size("limits.maxBodyBytes", 16 << 20)
    static let limitsMaxArchiveBytes: ConfigurationKey<Int> = .size("limits.maxArchiveBytes", 64 << 20)
    static let limitsRequestsPerSecond: ConfigurationKey<Double> = .number("limits.requestsPerSecond", 50, in: TokenBucket.rateRange)
    static let limitsBurst: ConfigurationKey<Int> = .integer("limits.burst", 100, in: TokenBucket.burstRange)
    /// The per-tenant storage quota (unexpired results): report, JSON and sanitized-archive bytes, and count.
    static let limitsMaxStoredBytes: ConfigurationKey<Int> = .size("limits.maxStoredBytes", 1 << 30)
    static let limitsMaxStoredResults: ConfigurationKey<Int> = .integer("limits.maxStoredResults", 100_000, in: 1...Int.max)

    /// The server's memory budget (`MemoryBudget`); "auto": `budgetFraction` of the container's
    /// memory (cgroup `memory.max`, else physical memory).
    static let memoryBudgetBytes: ConfigurationKey<Int?> = .sizeOrAuto("memory.budgetBytes")
    static let memoryBudgetFraction: ConfigurationKey<Double> = .fraction("memory.budgetFraction", 0.5)
    /// How much of the budget one tenant's requests may hold at once.
    static let memoryTenantShare: ConfigurationKey<Double> = .fraction("memory.tenantShare", 0.5)
    static let memoryMaxConcurrentUploads: ConfigurationKey<Int> = .integer("memory.maxConcurrentUploads", 128, in: 1...100_000)
    static let memoryMaxConcurrentUploadsPerTenant: ConfigurationKey<Int> = .integer("memory.maxConcurrentUploadsPerTenant", 32, in: 1...100_000)
    /// JSON output may be at most this many times the archive (at least 1 MiB).
    static let memoryAmplificationFactor: ConfigurationKey<Int> = .integer("memory.amplificationFactor", 16, in: 1...1_000_000)

    static let logLevel: ConfigurationKey<Logger.Level> = .logLevel("log.level", .info)

    static let fetchAllowedRanges: ConfigurationKey<[String]> = .stringList("fetch.allowedRanges") { text in
        IPAddressRange(text) == nil ? "'\(text)' is not a CIDR range such as 127.0.0.0/8 or fd00::/8 (host bits zero)" : nil
    }
    /// Must be true for `fetch.allowedRanges` to hold a range wider than /8 (`0.0.0.0/0`, `::/0`):
    /// such a range switches the SSRF deny list off for a large part of the address space.
    static let fetchAcknowledgeWideAllowedRanges: ConfigurationKey<Bool> = .boolean("fetch.acknowledgeWideAllowedRanges", false)
    static let fetchMaxBytes: ConfigurationKey<Int> = .size("fetch.maxBytes", limitsMaxBodyBytes.defaultValue,
                                                            documented: .sameAs(limitsMaxBodyBytes.name))
    static let fetchConnectTimeoutSeconds: ConfigurationKey<Int> = .integer("fetch.connectTimeoutSeconds", 5, in: 1...3600)
    static let fetchTotalTimeoutSeconds: ConfigurationKey<Int> = .integer("fetch.totalTimeoutSeconds", 30, in: 1...3600)
    static let fetchMaxConcurrentPerTenant: ConfigurationKey<Int> = .integer("fetch.maxConcurrentPerTenant", 4, in: 1...10_000)

    static let storeEnabled: ConfigurationKey<Bool> = .boolean("store.enabled", true)
    static let storePath: ConfigurationKey<String> = .string("store.path", "./data/archivegate.sqlite")
    static let storeRetentionSeconds: ConfigurationKey<Int> = .integer("store.retentionSeconds", 7 * 24 * 60 * 60, in: 1...(100 * 365 * 24 * 60 * 60))
    static let storePurgeIntervalSeconds: ConfigurationKey<Int> = .integer("store.purgeIntervalSeconds", 300, in: 1...86400)
    static let storeBusyTimeoutMilliseconds: ConfigurationKey<Int> = .integer("store.busyTimeoutMilliseconds", 10_000, in: 0...600_000)
    static let storeMaxPageSize: ConfigurationKey<Int> = .integer("store.maxPageSize", 100, in: 1...10_000)
    static let storeKind: ConfigurationKey<StoreSettings.Kind> = .choice("store.kind", .sqlite)

    /// The shared store (`store.kind` postgres). A URL, when given, replaces host, port, database
    /// and user (and tls by its `sslmode`); it may carry a password, so it is a secret.
    static let storePostgresURL: ConfigurationKey<String?> = .optionalString("store.postgres.url", secret: true) { text in
        do throws(ResultStoreError) {
            _ = try PostgresResultStore.Configuration(url: text, defaults: StoreSettings.postgresDefaults)
            return nil
        } catch {
            // The store's message names the key itself; the loader adds it again.
            return error.message.hasPrefix("store.postgres.url: ") ? String(error.message.dropFirst(20)) : error.message
        }
    }
    static let storePostgresHost: ConfigurationKey<String> = .string("store.postgres.host", "127.0.0.1")
    static let storePostgresPort: ConfigurationKey<Int> = .integer("store.postgres.port", 5432, in: 1...65535)
    static let storePostgresDatabase: ConfigurationKey<String> = .string("store.postgres.database", "archivegate")
    static let storePostgresUser: ConfigurationKey<String> = .string("store.postgres.user", "archivegate")
    /// Only from the environment (`ARCHIVEGATE_STORE_POSTGRES_PASSWORD`), never from server.json.
    static let storePostgresPassword: ConfigurationKey<String?> = .optionalString(
        "store.postgres.password", secret: true, environmentOnly: true)
    /// A file holding the password (a mounted secret); relative to the configuration folder.
    static let storePostgresPasswordFile: ConfigurationKey<String?> = .optionalString("store.postgres.passwordFile")
    static let storePostgresTLS: ConfigurationKey<PostgresResultStore.Configuration.TLSMode> = .choice("store.postgres.tls", .prefer)
    static let storePostgresPoolSize: ConfigurationKey<Int> = .integer("store.postgres.poolSize", 10, in: 1...1000)
    static let storePostgresStatementTimeoutMilliseconds: ConfigurationKey<Int> =
        .integer("store.postgres.statementTimeoutMilliseconds", 5_000, in: 1...3_600_000)
    static let storePostgresOperationTimeoutMilliseconds: ConfigurationKey<Int> =
        .integer("store.postgres.operationTimeoutMilliseconds", 10_000, in: 1...3_600_000)

    static let uiEnabled: ConfigurationKey<Bool> = .boolean("ui.enabled", true)

    /// Every key, in the order of docs/OPERATIONS.md's table.
    static let all: [any AnyConfigurationKey] = [
        httpHost, httpPort, httpHeaderTimeoutSeconds, httpBodyTimeoutSeconds, httpIdleTimeoutSeconds, httpSendTimeoutSeconds,
        tenantsDirectory,
        limitsMaxBodyBytes, limitsMaxArchiveBytes, limitsRequestsPerSecond, limitsBurst, limitsMaxStoredBytes, limitsMaxStoredResults,
        memoryBudgetBytes, memoryBudgetFraction, memoryTenantShare, memoryMaxConcurrentUploads,
        memoryMaxConcurrentUploadsPerTenant, memoryAmplificationFactor,
        logLevel,
        fetchAllowedRanges, fetchAcknowledgeWideAllowedRanges, fetchMaxBytes, fetchConnectTimeoutSeconds,
        fetchTotalTimeoutSeconds, fetchMaxConcurrentPerTenant,
        storeEnabled, storeKind, storePath, storeRetentionSeconds, storePurgeIntervalSeconds, storeBusyTimeoutMilliseconds,
        storeMaxPageSize,
        storePostgresURL, storePostgresHost, storePostgresPort, storePostgresDatabase, storePostgresUser,
        storePostgresPassword, storePostgresPasswordFile, storePostgresTLS, storePostgresPoolSize,
        storePostgresStatementTimeoutMilliseconds, storePostgresOperationTimeoutMilliseconds,
        uiEnabled,
    ]

    /// `ARCHIVEGATE_*` variables that are not configuration keys: the config folder (read by
    /// `archivegate serve`) and the binary overrides and switches the scripts set. Any other
    /// `ARCHIVEGATE_*` variable stops the start, so a misspelt one cannot be ignored. Variables only
    /// tests read (a test PostgreSQL server's URL…) use the `AGTEST_` prefix instead, so a test
    /// environment passed to a server process never trips this check.
    static let otherEnvironmentVariables: Set<String> = [
        "ARCHIVEGATE_CONFIG_DIR", "ARCHIVEGATE_BIN", "ARCHIVEGATE_BINARY", "ARCHIVEGATE_FETCH_NETNS",
    ]
}
