extension PostgresResultStore {
    /// Settings of the shared store. ``endpoint`` and ``username`` say where; the rest has defaults.
    ///
    /// `description` never contains the password, so a configuration can be logged as it is.
    public struct Configuration: Sendable, Hashable, CustomStringConvertible {
        /// Where the server listens.
        public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
            /// TCP to a host name or address.
            case tcp(host: String, port: Int)
            /// A Unix-domain socket file, e.g. `/run/postgresql/.s.PGSQL.5432`.
            case unixSocket(path: String)

            public var description: String {
                switch self {
                case .tcp(let host, let port): "\(host):\(port)"
                case .unixSocket(let path): path
                }
            }
        }

        /// Whether the connection is encrypted (libpq's `sslmode` names).
        public enum TLSMode: String, Sendable, Hashable, CaseIterable {
            /// Plain text: for a Unix socket or a loopback / private network only.
            case disable
            /// TLS when the server offers it, plain text otherwise.
            case prefer
            /// TLS or no connection; the server's certificate is verified against the system's roots
            /// and its name against the host.
            case require
        }

        public var endpoint: Endpoint
        public var username: String
        /// Nil for trust or peer authentication. Never part of ``description``.
        public var password: String?
        /// Nil: the server's default (the user's name).
        public var database: String?
        public var tls: TLSMode
        /// Most connections this process opens to the server.
        public var poolSize: Int
        /// Sent as the session's `statement_timeout`: a statement running longer is cancelled by the
        /// server and the request fails with ``ResultStoreError/Code/busy``.
        public var statementTimeout: Duration
        /// How long one store call may wait in all, connecting included, before it fails with
        /// ``ResultStoreError/Code/unavailable`` (while the database is down, calls fail this fast).
        public var operationTimeout: Duration
        /// How long a result stays readable after it is stored.
        public var retention: Duration
        /// The largest page ``PostgresResultStore/list(tenant:limit:cursor:)`` returns.
        public var maximumPageSize: Int

        public init(
            endpoint: Endpoint, username: String, password: String? = nil, database: String? = nil,
            tls: TLSMode = .prefer, poolSize: Int = 10, statementTimeout: Duration = .seconds(10),
            operationTimeout: Duration = .seconds(15), retention: Duration = .seconds(7 * 24 * 60 * 60),
            maximumPageSize: Int = 100
        ) {
            self.endpoint = endpoint
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
            self.poolSize = poolSize
            self.statementTimeout = statementTimeout
            self.operationTimeout = operationTimeout
            self.retention = retention
            self.maximumPageSize = maximumPageSize
        }

        public var description: String {
            "postgres \(username)@\(endpoint)/\(database ?? username) tls=\(tls.rawValue) pool=\(poolSize)"
                + " password=\(password == nil ? "none" : "set")"
        }
    }
}
