import ArchiveGateTestSupport
import Foundation
import PostgresNIO
import Testing
@testable import ArchiveGateStore

/// What only the PostgreSQL store has: its connection URL, failing fast while the server is
/// unreachable, and the purge lock (its migrations are in `PostgresMigratorTests` and
/// `PostgresMigrationTests`).
@Suite(.timeLimit(.minutes(2))) struct PostgresResultStoreTests {
    static let defaults = PostgresResultStore.Configuration(endpoint: .tcp(host: "unset", port: 1), username: "unset")

    @Test func connectionURLs() throws {
        let tcp = try PostgresResultStore.Configuration(
            url: "postgres://agent:p%40ss@db.internal:6543/results?sslmode=require", defaults: Self.defaults)
        #expect(tcp.endpoint == .tcp(host: "db.internal", port: 6543))
        #expect(tcp.username == "agent")
        #expect(tcp.password == "p@ss")
        #expect(tcp.database == "results")
        #expect(tcp.tls == .require)
        #expect(!tcp.description.contains("p@ss") && !tcp.description.contains("p%40ss"))

        let socket = try PostgresResultStore.Configuration(
            url: "postgresql://postgres@localhost/postgres?host=/tmp/pg&port=5433", defaults: Self.defaults)
        #expect(socket.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.5433"))
        #expect(socket.password == nil)
        #expect(socket.tls == Self.defaults.tls)

        let ipv6 = try PostgresResultStore.Configuration(url: "postgres://u@[::1]/d", defaults: Self.defaults)
        #expect(ipv6.endpoint == .tcp(host: "::1", port: 5432))
    }

    @Test(arguments: [
        "mysql://u@h/d", "postgres://u@h:0/d", "postgres://u@h:99999/d", "postgres://h/d",
        "postgres://u@h/d?sslmode=sometimes", "postgres://u@h/d?application_name=x", "postgres://u@/d", "not a url at all",
    ])
    func malformedURLsAreRefusedWithoutTheirPassword(_ url: String) {
        #expect(throws: ResultStoreError(.invalidArgument, "")) {
            try PostgresResultStore.Configuration(url: url, defaults: Self.defaults)
        }
    }

    @Test func anUnreachableServerFailsFastAsUnavailable() async throws {
        // A loopback port nobody listens on: bound once to learn a free number, then released.
        let port = try freeLoopbackPort()
        let configuration = PostgresResultStore.Configuration(
            endpoint: .tcp(host: "127.0.0.1", port: port), username: "nobody", tls: .disable,
            operationTimeout: .seconds(3))
        let start = ContinuousClock.now
        // On threads of its own: the timeout's timer must not wait for a cooperative thread the
        // other suites' synchronous tests hold (`DedicatedExecutor`).
        await withTaskExecutorPreference(.tests) {
            await #expect(throws: ResultStoreError(.unavailable, "")) {
                try await PostgresResultStore.open(configuration: configuration)
            }
        }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func onlyOneReplicaPurgesAtATime() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let store = try await database.open(clock: clock, retention: .seconds(60), migrations: PostgresMigration.all)
        let other = try await database.open(clock: clock, retention: .seconds(60), migrations: PostgresMigration.all)
        for seed in 0..<5 { _ = try await store.put(Sample.result(seed: seed)) }
        clock.advance(seconds: 60)
        // `other` stands for a replica in the middle of its purge: it holds the purge lock.
        try await other.client.withConnection { connection in
            _ = try await connection.query("SELECT pg_advisory_lock(\(PostgresResultStore.purgeLockKey))", logger: other.logger).collect()
            #expect(try await store.purgeExpired() == 0)
            #expect(try await store.physicalRowCount() == 5)
            _ = try await connection.query("SELECT pg_advisory_unlock(\(PostgresResultStore.purgeLockKey))", logger: other.logger).collect()
        }
        #expect(try await store.purgeExpired() == 5)
        #expect(try await other.physicalRowCount() == 0)
        await store.close()
        await other.close()
        await database.remove()
    }
}
