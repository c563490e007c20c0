import Foundation

extension PostgresResultStore.Configuration {
    /// Reads a libpq-style connection URL into ``endpoint``, ``username``, ``password``,
    /// ``database`` and ``tls``, keeping every other setting of `self`:
    ///
    ///     postgres://user:password@host:5432/database?sslmode=require
    ///     postgresql://user@/database?host=/tmp/pg-socket-dir&port=5433   (Unix socket in that folder)
    ///
    /// - Throws: ``ResultStoreError/Code/invalidArgument`` naming the part that is wrong (never the password).
    public init(url text: String, defaults: Self) throws(ResultStoreError) {
        func invalid(_ reason: String) -> ResultStoreError {
            ResultStoreError(.invalidArgument, "store.postgres.url: \(reason)")
        }
        guard let components = URLComponents(string: text) else { throw invalid("not a URL") }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("the scheme must be postgres:// or postgresql://")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value else { throw invalid("parameter '\(item.name)' has no value") }
            query[item.name] = value
        }
        for name in query.keys where !["host", "port", "sslmode", "user", "password", "dbname"].contains(name) {
            throw invalid("unknown parameter '\(name)' (known: host, port, sslmode, user, password, dbname)")
        }
        var configuration = defaults
        let portText = query["port"] ?? components.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else { throw invalid("port '\(portText)' is not 1…65535") }
        let host = query["host"] ?? components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        if host.hasPrefix("/") {
            configuration.endpoint = .unixSocket(path: (host as NSString).appendingPathComponent(".s.PGSQL.\(port)"))
        } else if !host.isEmpty {
            // URLComponents keeps an IPv6 literal's brackets; the resolver wants the bare address.
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            configuration.endpoint = .tcp(host: bare, port: port)
        } else {
            throw invalid("no host (give one, or ?host=/socket/folder)")
        }
        let user = query["user"] ?? components.user.flatMap { $0.removingPercentEncoding } ?? ""
        guard !user.isEmpty else { throw invalid("no user name") }
        configuration.username = user
        if let password = query["password"] ?? components.password.flatMap({ $0.removingPercentEncoding }) {
            configuration.password = password
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = query["dbname"] ?? path.removingPercentEncoding ?? path
        configuration.database = database.isEmpty ? nil : database
        if let mode = query["sslmode"] {
            guard let tls = TLSMode(rawValue: mode) else {
                throw invalid("sslmode '\(mode)' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            configuration.tls = tls
        }
        self = configuration
    }
}
