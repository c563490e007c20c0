import Foundation
import Logging
import PostgresNIO
import Testing
@testable import ArchiveGateStore

/// The PostgreSQL server that `scripts/postgres-test-server` started for this test run.
enum PostgresTestServer {
    /// Superuser over the cluster's Unix socket: tests make (and drop) one database each.
    static let url = ProcessInfo.processInfo.environment["AGTEST_POSTGRES_URL"]

    static var isAvailable: Bool { url != nil }

    /// Why the PostgreSQL tests skip, shown by the test runner.
    static let skipReason = Comment(rawValue: ProcessInfo.processInfo.environment["AGTEST_POSTGRES_UNAVAILABLE"]
        .map { "PostgreSQL unavailable: \($0)" }
        ?? "AGTEST_POSTGRES_URL is not set: run the tests through scripts/postgres-test-server (scripts/test does)")

    /// The store settings for the server's `postgres` database; tests replace `database`.
    static func baseConfiguration() throws -> PostgresResultStore.Configuration {
        let defaults = PostgresResultStore.Configuration(
            endpoint: .tcp(host: "127.0.0.1", port: 5432), username: "unset", tls: .disable, poolSize: 4,
            statementTimeout: .seconds(60), operationTimeout: .seconds(90), maximumPageSize: 50)
        guard let url else { throw ResultStoreError(.invalidArgument, "AGTEST_POSTGRES_URL is not set") }
        return try PostgresResultStore.Configuration(url: url, defaults: defaults)
    }

    /// Runs `body` with a client connected as the superuser to the `postgres` database.
    static func withAdmin<T: Sendable>(_ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: PostgresResultStore.clientConfiguration(try baseConfiguration()))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}

/// A database of its own on the test server, dropped (connections and all) by ``remove()``.
struct TemporaryPostgresDatabase: TestDatabase {
    let name: String
    let configuration: PostgresResultStore.Configuration

    static func make() async throws -> TemporaryPostgresDatabase {
        let name = "agtest_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await PostgresTestServer.withAdmin { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var configuration = try PostgresTestServer.baseConfiguration()
        configuration.database = name
        return TemporaryPostgresDatabase(name: name, configuration: configuration)
    }

    func open(clock: ManualClock, retention: Duration) async throws -> any TestStore {
        try await open(clock: clock, retention: retention, migrations: PostgresMigration.all)
    }

    func open(
        clock: ManualClock, retention: Duration = .seconds(3600), migrations: [PostgresMigration] = PostgresMigration.all
    ) async throws -> PostgresResultStore {
        var configuration = configuration
        configuration.retention = retention
        return try await PostgresResultStore.open(
            configuration: configuration, migrations: migrations, logger: Logger(label: "test.store.postgres"), now: { clock.now })
    }

    func remove() async {
        _ = try? await PostgresTestServer.withAdmin { [name] admin in
            try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        }
    }
}

extension PostgresResultStore: TestStore {
    func physicalRowCount() async throws -> Int {
        Int(try await client.run("SELECT count(*) FROM results", logger: logger).decodeFirst(Int64.self) ?? -1)
    }
}

/// A loopback TCP port that was free a moment ago.
func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}
