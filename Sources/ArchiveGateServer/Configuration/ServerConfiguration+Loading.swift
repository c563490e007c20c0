import ArchiveGateFetch
import Foundation

extension ServerConfiguration {
    /// The file read from the configuration folder.
    public static let fileName = "server.json"

    /// Resolves the configuration, highest priority first: `overrides` (CLI flags, keys such as
    /// `http.port`), `ARCHIVEGATE_*` environment variables (`ARCHIVEGATE_HTTP_PORT`), then
    /// `<configDirectory>/server.json`, then the defaults of `ConfigurationDefaults`. Relative paths
    /// in the file are relative to `configDirectory`.
    ///
    /// Strict: an unknown key in the file, an unknown `ARCHIVEGATE_*` variable, a value of the wrong
    /// type, an unparsable or out-of-range value, or a risky setting without its acknowledgement
    /// throws a `ConfigurationError` naming the key. Every key is listed in docs/OPERATIONS.md (Configuration).
    public static func load(
        configDirectory: String?,
        overrides: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ServerConfiguration {
        var file: ConfigurationJSON?
        var filePath = fileName
        if let configDirectory {
            filePath = (configDirectory as NSString).appendingPathComponent(fileName)
            if let data = FileManager.default.contents(atPath: filePath) {
                let parsed: ConfigurationJSON?
                do {
                    parsed = try ConfigurationJSON.parse(data)
                } catch {
                    let key = error.pointer.split(separator: "/").joined(separator: ".")
                    throw ConfigurationError(.duplicateKey, key: key, origin: filePath,
                                             "'\(error.key)' is written twice in one object (byte \(error.offset)); keep one")
                }
                guard let parsed else {
                    throw ConfigurationError(.invalidFile, key: "-", origin: filePath, "not valid JSON")
                }
                file = parsed
            }
        }
        let sources = try ConfigurationSources(file: file, filePath: filePath, environment: environment, flags: overrides)
        return try resolve(sources, configDirectory: configDirectory)
    }

    static func resolve(_ sources: ConfigurationSources, configDirectory: String?) throws(ConfigurationError) -> ServerConfiguration {
        typealias Key = ConfigurationDefaults
        var configuration = ServerConfiguration()
        configuration.host = try sources.value(Key.httpHost)
        configuration.port = try sources.value(Key.httpPort)
        configuration.headerTimeout = .seconds(try sources.value(Key.httpHeaderTimeoutSeconds))
        configuration.bodyTimeout = .seconds(try sources.value(Key.httpBodyTimeoutSeconds))
        configuration.idleTimeout = .seconds(try sources.value(Key.httpIdleTimeoutSeconds))
        configuration.sendTimeout = .seconds(try sources.value(Key.httpSendTimeoutSeconds))

        let tenants = try sources.value(Key.tenantsDirectory)
        if tenants.hasPrefix("/") {
            configuration.tenantsDirectory = tenants
        } else if let configDirectory {
            configuration.tenantsDirectory = (configDirectory as NSString).appendingPathComponent(tenants)
        }
        configuration.logLevel = try sources.value(Key.logLevel)

        var tenantDefaults = TenantDefaults()
        tenantDefaults.maxBodyBytes = try sources.value(Key.limitsMaxBodyBytes)
        tenantDefaults.maxArchiveBytes = try sources.value(Key.limitsMaxArchiveBytes)
        tenantDefaults.requestsPerSecond = try sources.value(Key.limitsRequestsPerSecond)
        tenantDefaults.burst = try sources.value(Key.limitsBurst)
        tenantDefaults.maxStoredBytes = try sources.value(Key.limitsMaxStoredBytes)
        tenantDefaults.maxStoredResults = try sources.value(Key.limitsMaxStoredResults)
        configuration.tenantDefaults = tenantDefaults

        var memory = MemorySettings()
        memory.budgetBytes = try sources.value(Key.memoryBudgetBytes)
        memory.budgetFraction = try sources.value(Key.memoryBudgetFraction)
        memory.tenantShare = try sources.value(Key.memoryTenantShare)
        memory.maxConcurrentUploads = try sources.value(Key.memoryMaxConcurrentUploads)
        memory.maxConcurrentUploadsPerTenant = try sources.value(Key.memoryMaxConcurrentUploadsPerTenant)
        memory.amplificationFactor = try sources.value(Key.memoryAmplificationFactor)
        configuration.memory = memory

        var fetch = FetchSettings()
        fetch.allowedRanges = try sources.value(Key.fetchAllowedRanges).compactMap(IPAddressRange.init)
        let concerns = fetch.allowedRanges.compactMap(FetchSettings.acknowledgementConcern)
        if !concerns.isEmpty {
            guard try sources.value(Key.fetchAcknowledgeWideAllowedRanges) else {
                throw ConfigurationError(
                    .unacknowledgedRisk, key: Key.fetchAllowedRanges.name, origin: sources.origin(of: Key.fetchAllowedRanges),
                    "\(concerns.joined(separator: "; ")): it switches the SSRF deny list off for more than one protected network; set \(Key.fetchAcknowledgeWideAllowedRanges.name) to true if that is intended, or list the networks one by one")
            }
            configuration.riskySettings.append("\(Key.fetchAllowedRanges.name): \(concerns.joined(separator: "; ")): /v1/fetch may connect to addresses the deny list protects (acknowledged by \(Key.fetchAcknowledgeWideAllowedRanges.name))")
        }
        fetch.maxBytes = try sources.valueIfSet(Key.fetchMaxBytes) ?? tenantDefaults.maxBodyBytes
        fetch.connectTimeout = .seconds(try sources.value(Key.fetchConnectTimeoutSeconds))
        fetch.totalTimeout = .seconds(try sources.value(Key.fetchTotalTimeoutSeconds))
        fetch.maxConcurrentPerTenant = try sources.value(Key.fetchMaxConcurrentPerTenant)
        configuration.fetch = fetch

        var store = StoreSettings()
        store.enabled = try sources.value(Key.storeEnabled)
        store.kind = try sources.value(Key.storeKind)
        store.path = try sources.value(Key.storePath)
        store.retention = .seconds(try sources.value(Key.storeRetentionSeconds))
        store.purgeInterval = .seconds(try sources.value(Key.storePurgeIntervalSeconds))
        store.busyTimeout = .milliseconds(try sources.value(Key.storeBusyTimeoutMilliseconds))
        store.maxPageSize = try sources.value(Key.storeMaxPageSize)
        store.postgres = try resolvePostgres(sources, configDirectory: configDirectory)
        store.postgres.retention = store.retention
        store.postgres.maximumPageSize = store.maxPageSize
        configuration.store = store
        configuration.uiEnabled = try sources.value(Key.uiEnabled)
        return configuration
    }
}
