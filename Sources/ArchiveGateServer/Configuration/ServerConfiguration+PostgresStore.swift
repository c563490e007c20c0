import ArchiveGateStore
import Configuration
import Foundation

extension ServerConfiguration {
    /// The `store.postgres.*` keys. `url` (libpq form) gives the connection in one value; without it,
    /// `host`, `port`, `database` and `user`. The password comes from the URL,
    /// `ARCHIVEGATE_STORE_POSTGRES_PASSWORD`, or the file `passwordFile` names — never from a
    /// log line: the value is read as a secret and the configuration's description omits it.
    static func resolvePostgres(_ reader: ConfigReader, configDirectory: String?) throws -> PostgresResultStore.Configuration {
        var postgres = StoreSettings.postgresDefaults
        postgres.endpoint = .tcp(
            host: reader.string(forKey: "store.postgres.host", default: "127.0.0.1"),
            port: try integer(reader, "store.postgres.port", 5432, range: 1...65535))
        postgres.database = reader.string(forKey: "store.postgres.database", default: "archivegate")
        postgres.username = reader.string(forKey: "store.postgres.user", default: "archivegate")
        let tlsName = reader.string(forKey: "store.postgres.tls", default: postgres.tls.rawValue)
        guard let tls = PostgresResultStore.Configuration.TLSMode(rawValue: tlsName) else {
            throw ConfigurationError(key: "store.postgres.tls", "expected one of \(PostgresResultStore.Configuration.TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        postgres.tls = tls
        postgres.poolSize = try integer(reader, "store.postgres.poolSize", postgres.poolSize, range: 1...1000)
        postgres.statementTimeout = .milliseconds(try integer(reader, "store.postgres.statementTimeoutMilliseconds", 5_000, range: 1...3_600_000))
        postgres.operationTimeout = .milliseconds(try integer(reader, "store.postgres.operationTimeoutMilliseconds", 10_000, range: 1...3_600_000))
        if let url = reader.string(forKey: "store.postgres.url", isSecret: true), !url.isEmpty {
            do {
                postgres = try PostgresResultStore.Configuration(url: url, defaults: postgres)
            } catch {
                throw ConfigurationError(key: "store.postgres.url", error.message)
            }
        }
        let password = reader.string(forKey: "store.postgres.password", isSecret: true)
        let passwordFile = reader.string(forKey: "store.postgres.passwordFile")
        if password != nil && passwordFile != nil {
            throw ConfigurationError(key: "store.postgres.passwordFile", "give either the password (ARCHIVEGATE_STORE_POSTGRES_PASSWORD) or a password file, not both")
        }
        if let password, !password.isEmpty {
            postgres.password = password
        } else if let passwordFile, !passwordFile.isEmpty {
            let path = passwordFile.hasPrefix("/") || configDirectory == nil
                ? passwordFile : (configDirectory! as NSString).appendingPathComponent(passwordFile)
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw ConfigurationError(key: "store.postgres.passwordFile", "cannot read \(path)")
            }
            // One trailing newline is the file's, not the password's.
            postgres.password = text.hasSuffix("\n") ? String(text.dropLast()) : text
        }
        return postgres
    }
}
