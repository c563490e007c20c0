import ArchiveGateStore
import Foundation

extension ServerConfiguration {
    /// The `store.postgres.*` keys. `url` (libpq form) gives the connection in one value and then
    /// replaces `host`, `port`, `database` and `user`. The password comes from the URL,
    /// `ARCHIVEGATE_STORE_POSTGRES_PASSWORD` (never from server.json), or the file `passwordFile`
    /// names — never from a log line: both are secret keys and the configuration's description
    /// omits the password.
    static func resolvePostgres(_ sources: ConfigurationSources, configDirectory: String?) throws(ConfigurationError) -> PostgresResultStore.Configuration {
        typealias Key = ConfigurationDefaults
        var postgres = StoreSettings.postgresDefaults
        postgres.endpoint = .tcp(host: try sources.value(Key.storePostgresHost), port: try sources.value(Key.storePostgresPort))
        postgres.database = try sources.value(Key.storePostgresDatabase)
        postgres.username = try sources.value(Key.storePostgresUser)
        postgres.tls = try sources.value(Key.storePostgresTLS)
        postgres.poolSize = try sources.value(Key.storePostgresPoolSize)
        postgres.statementTimeout = .milliseconds(try sources.value(Key.storePostgresStatementTimeoutMilliseconds))
        postgres.operationTimeout = .milliseconds(try sources.value(Key.storePostgresOperationTimeoutMilliseconds))
        if let url = try sources.value(Key.storePostgresURL) {
            do throws(ResultStoreError) {
                postgres = try PostgresResultStore.Configuration(url: url, defaults: postgres)
            } catch {
                // Checked when the sources were read; kept for a URL whose check depends on defaults.
                throw ConfigurationError(.invalidValue,key: Key.storePostgresURL.name, origin: sources.origin(of: Key.storePostgresURL), error.message)
            }
        }
        let password = try sources.value(Key.storePostgresPassword)
        let passwordFile = try sources.value(Key.storePostgresPasswordFile)
        if password != nil && passwordFile != nil {
            throw ConfigurationError(.invalidValue,
                key: Key.storePostgresPasswordFile.name, origin: sources.origin(of: Key.storePostgresPasswordFile),
                "give either the password (\(Key.storePostgresPassword.environmentName)) or a password file, not both")
        }
        if let password {
            postgres.password = password
        } else if let passwordFile {
            let path = passwordFile.hasPrefix("/") || configDirectory == nil
                ? passwordFile : (configDirectory! as NSString).appendingPathComponent(passwordFile)
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw ConfigurationError(.invalidValue,
                    key: Key.storePostgresPasswordFile.name, origin: sources.origin(of: Key.storePostgresPasswordFile),
                    "cannot read \(path) as UTF-8 text")
            }
            // One trailing newline is the file's, not the password's.
            let stripped = text.hasSuffix("\r\n") ? String(text.dropLast(2)) : text.hasSuffix("\n") ? String(text.dropLast()) : text
            guard !stripped.isEmpty else {
                throw ConfigurationError(.invalidValue,
                    key: Key.storePostgresPasswordFile.name, origin: sources.origin(of: Key.storePostgresPasswordFile),
                    "\(path) is empty")
            }
            postgres.password = stripped
        }
        return postgres
    }
}
