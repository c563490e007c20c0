import ArchiveGateFetch
import Logging

/// THE table of configuration keys and their defaults: the one place a default is written.
///
/// `ServerConfiguration.load` reads every key through it (so `server.json` and `ARCHIVEGATE_*`
/// variables can only name keys listed here), the settings structs take their initial values from
/// it, and `ConfigurationDocumentationTests` checks that README.md's Configuration table and
/// config/server.json list every key with this default.
///
/// Adding a key: one `static let` here, its name in `all`, one line in
/// `ServerConfiguration.resolve` that reads it, a README row and a server.json entry (the tests
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
    static let limitsRequestsPerSecond: ConfigurationKey<Double> = .positiveNumber("limits.requestsPerSecond", 50)
    static let limitsBurst: ConfigurationKey<Int> = .integer("limits.burst", 100, in: 1...Int.max)

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

    static let uiEnabled: ConfigurationKey<Bool> = .boolean("ui.enabled", true)

    /// Every key, in README order.
    static let all: [any AnyConfigurationKey] = [
        httpHost, httpPort, httpHeaderTimeoutSeconds, httpBodyTimeoutSeconds, httpIdleTimeoutSeconds, httpSendTimeoutSeconds,
        tenantsDirectory,
        limitsMaxBodyBytes, limitsMaxArchiveBytes, limitsRequestsPerSecond, limitsBurst,
        memoryBudgetBytes, memoryBudgetFraction, memoryTenantShare, memoryMaxConcurrentUploads,
        memoryMaxConcurrentUploadsPerTenant, memoryAmplificationFactor,
        logLevel,
        fetchAllowedRanges, fetchAcknowledgeWideAllowedRanges, fetchMaxBytes, fetchConnectTimeoutSeconds,
        fetchTotalTimeoutSeconds, fetchMaxConcurrentPerTenant,
        storeEnabled, storePath, storeRetentionSeconds, storePurgeIntervalSeconds, storeBusyTimeoutMilliseconds,
        storeMaxPageSize,
        uiEnabled,
    ]

    /// `ARCHIVEGATE_*` variables that are not configuration keys: the config folder (read by
    /// `archivegate serve`) and those the test scripts set. Any other `ARCHIVEGATE_*` variable
    /// stops the start, so a misspelt one cannot be ignored.
    static let otherEnvironmentVariables: Set<String> = [
        "ARCHIVEGATE_CONFIG_DIR", "ARCHIVEGATE_BIN", "ARCHIVEGATE_BINARY", "ARCHIVEGATE_FETCH_NETNS",
    ]
}
