import ArchiveGateFetch
import Configuration
import Foundation
import Logging

extension ServerConfiguration {
    /// The file read from the configuration folder.
    public static let fileName = "server.json"

    /// Resolves the configuration, highest priority first: `overrides` (CLI flags, keys such as
    /// `http.port`), `ARCHIVEGATE_*` environment variables (`ARCHIVEGATE_HTTP_PORT`), then
    /// `<configDirectory>/server.json`, then the built-in defaults. Relative paths in the file are
    /// relative to `configDirectory`.
    ///
    /// Every key is listed in README.md (Configuration).
    public static func load(
        configDirectory: String?,
        overrides: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ServerConfiguration {
        var providers: [any ConfigProvider] = []
        // Flags arrive as strings, like environment variables; that provider converts them to the
        // type each key is read as (an in-memory string would not be read as an int).
        var flags: [String: String] = [:]
        for (key, value) in overrides { flags[environmentName(key)] = value }
        providers.append(EnvironmentVariablesProvider(environmentVariables: flags))
        providers.append(EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: "archivegate"))
        if let configDirectory {
            let path = (configDirectory as NSString).appendingPathComponent(fileName)
            providers.append(try await FileProvider<JSONSnapshot>(filePath: .init(path), allowMissing: true))
        }
        return try resolve(ConfigReader(providers: providers), configDirectory: configDirectory)
    }

    static func resolve(_ reader: ConfigReader, configDirectory: String?) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        let defaults = configuration
        configuration.host = reader.string(forKey: "http.host", default: defaults.host)
        configuration.port = try integer(reader, "http.port", defaults.port, range: 0...65535)
        configuration.headerTimeout = .seconds(try integer(reader, "http.headerTimeoutSeconds", 10, range: 1...3600))
        configuration.bodyTimeout = .seconds(try integer(reader, "http.bodyTimeoutSeconds", 120, range: 1...86400))
        configuration.idleTimeout = .seconds(try integer(reader, "http.idleTimeoutSeconds", 30, range: 1...86400))

        let tenants = reader.string(forKey: "tenants.directory", default: "tenants")
        if tenants.hasPrefix("/") {
            configuration.tenantsDirectory = tenants
        } else if let configDirectory {
            configuration.tenantsDirectory = (configDirectory as NSString).appendingPathComponent(tenants)
        }

        let levelName = reader.string(forKey: "log.level", default: "info")
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ConfigurationError(key: "log.level", "expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        configuration.logLevel = level

        var tenantDefaults = TenantDefaults()
        tenantDefaults.maxBodyBytes = try integer(reader, "limits.maxBodyBytes", tenantDefaults.maxBodyBytes, range: 1...Int.max)
        tenantDefaults.maxArchiveBytes = try integer(reader, "limits.maxArchiveBytes", tenantDefaults.maxArchiveBytes, range: 1...Int.max)
        tenantDefaults.requestsPerSecond = reader.double(forKey: "limits.requestsPerSecond", default: tenantDefaults.requestsPerSecond)
        guard tenantDefaults.requestsPerSecond > 0 else {
            throw ConfigurationError(key: "limits.requestsPerSecond", "must be positive")
        }
        tenantDefaults.burst = try integer(reader, "limits.burst", tenantDefaults.burst, range: 1...Int.max)
        tenantDefaults.maxStoredBytes = try integer(reader, "limits.maxStoredBytes", tenantDefaults.maxStoredBytes, range: 1...Int.max)
        tenantDefaults.maxStoredResults = try integer(reader, "limits.maxStoredResults", tenantDefaults.maxStoredResults, range: 1...Int.max)
        configuration.tenantDefaults = tenantDefaults

        var fetch = FetchSettings()
        var ranges: [IPAddressRange] = []
        for text in reader.stringArray(forKey: "fetch.allowedRanges", default: []) where !text.isEmpty {
            guard let range = IPAddressRange(text) else {
                throw ConfigurationError(key: "fetch.allowedRanges", "'\(text)' is not a CIDR range such as 127.0.0.0/8 or fd00::/8")
            }
            ranges.append(range)
        }
        fetch.allowedRanges = ranges
        fetch.maxBytes = try integer(reader, "fetch.maxBytes", tenantDefaults.maxBodyBytes, range: 1...Int.max)
        fetch.connectTimeout = .seconds(try integer(reader, "fetch.connectTimeoutSeconds", 5, range: 1...3600))
        fetch.totalTimeout = .seconds(try integer(reader, "fetch.totalTimeoutSeconds", 30, range: 1...3600))
        fetch.maxConcurrentPerTenant = try integer(reader, "fetch.maxConcurrentPerTenant", fetch.maxConcurrentPerTenant, range: 1...10_000)
        configuration.fetch = fetch

        var store = StoreSettings()
        store.enabled = reader.bool(forKey: "store.enabled", default: store.enabled)
        let kindName = reader.string(forKey: "store.kind", default: store.kind.rawValue)
        guard let kind = StoreSettings.Kind(rawValue: kindName) else {
            throw ConfigurationError(key: "store.kind", "expected sqlite or postgres, not '\(kindName)'")
        }
        store.kind = kind
        store.path = reader.string(forKey: "store.path", default: store.path)
        guard !store.path.isEmpty else { throw ConfigurationError(key: "store.path", "must not be empty") }
        store.retention = .seconds(try integer(reader, "store.retentionSeconds", 7 * 24 * 60 * 60, range: 1...(100 * 365 * 24 * 60 * 60)))
        store.purgeInterval = .seconds(try integer(reader, "store.purgeIntervalSeconds", 300, range: 1...86400))
        store.busyTimeout = .milliseconds(try integer(reader, "store.busyTimeoutMilliseconds", 10_000, range: 0...600_000))
        store.maxPageSize = try integer(reader, "store.maxPageSize", store.maxPageSize, range: 1...10_000)
        store.postgres = try resolvePostgres(reader, configDirectory: configDirectory)
        store.postgres.retention = store.retention
        store.postgres.maximumPageSize = store.maxPageSize
        configuration.store = store
        return configuration
    }

    /// `http.headerTimeoutSeconds` → `HTTP_HEADER_TIMEOUT_SECONDS`, as swift-configuration names
    /// environment variables.
    static func environmentName(_ key: String) -> String {
        var name = ""
        var previousWasLower = false
        for character in key {
            if character == "." {
                name.append("_")
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower { name.append("_") }
            name.append(contentsOf: character.uppercased())
            previousWasLower = character.isLowercase
        }
        return name
    }

    static func integer(_ reader: ConfigReader, _ key: String, _ fallback: Int, range: ClosedRange<Int>) throws -> Int {
        let value = reader.int(forKey: ConfigKey(key), default: fallback)
        guard range.contains(value) else {
            throw ConfigurationError(key: key, "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}
