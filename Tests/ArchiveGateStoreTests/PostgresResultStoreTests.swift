import Foundation
import PostgresNIO
import Testing
@testable import ArchiveGateStore

/// What only the PostgreSQL store has: its connection URL, failing fast while the server is
/// unreachable, migrations that several replicas start at once, and the purge lock.
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
        await #expect(throws: ResultStoreError(.unavailable, "")) {
            try await PostgresResultStore.open(configuration: configuration)
        }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func migrationsRunOnceWhenEightReplicasStartTogether() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let stores = try await withThrowingTaskGroup(of: PostgresResultStore.self) { group in
            for _ in 0..<8 { group.addTask { try await database.open(clock: clock) } }
            return try await group.reduce(into: [PostgresResultStore]()) { $0.append($1) }
        }
        #expect(stores.allSatisfy { $0.schemaVersion == PostgresMigration.all.count })
        let ledger = try await ledger(stores[0])
        #expect(ledger == PostgresMigration.all.map { "\($0.version) \($0.name)" })
        for store in stores { await store.close() }
        await database.remove()
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func aNewMigrationIsAppliedOnceAndAnOlderBuildIsRefused() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let original = try await database.open(clock: clock)
        let stored = try await original.put(Sample.result()).result
        await original.close()
        let upgraded = PostgresMigration.all + [
            PostgresMigration(version: PostgresMigration.all.count + 1, name: "test: add a note", statements: [
                "ALTER TABLE results ADD COLUMN note TEXT",
            ]),
        ]
        for _ in 0..<2 { // the second start finds nothing left to do
            let store = try await database.open(clock: clock, migrations: upgraded)
            #expect(store.schemaVersion == upgraded.count)
            #expect(try await store.get(tenant: "acme", id: stored.id) == stored)
            #expect(try await ledger(store).count == upgraded.count)
            await store.close()
        }
        await #expect(throws: ResultStoreError(.schemaTooNew, "")) { try await database.open(clock: clock) }
        var renamed = upgraded
        renamed[0] = PostgresMigration(version: 1, name: "something else", statements: renamed[0].statements)
        await #expect(throws: ResultStoreError(.migrationMismatch, "")) { try await database.open(clock: clock, migrations: renamed) }
        await database.remove()
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func aFailingMigrationLeavesTheDatabaseUntouched() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let broken = PostgresMigration.all + [
            PostgresMigration(version: PostgresMigration.all.count + 1, name: "test: broken", statements: [
                "CREATE TABLE scratch (x INTEGER)", "THIS IS NOT SQL",
            ]),
        ]
        await #expect(throws: ResultStoreError(.storageFailure, "")) { try await database.open(clock: clock, migrations: broken) }
        let store = try await database.open(clock: clock)
        let tables = try await store.client.run(
            "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'", logger: store.logger
        ).decodeFirst(String.self)
        #expect(tables == "results,schema_migrations")
        await store.close()
        await database.remove()
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

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func version1RowsGetAnEmptyPolicyDigestOnUpgrade() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(PostgresMigration.all.prefix(1)))
        // A row as version 1 wrote it (no policy_digest column yet).
        let id = ResultID.generate()
        let createdAt = Timestamp.milliseconds(clock.now)
        try await old.client.run("""
            INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, has_json, stored_bytes, report, converted_json)
            VALUES (\(id), 'acme', \(createdAt), \(createdAt + 3_600_000), \(Sample.sha256(1)), 101, 'upload', 'plain', \("\"\(id)\""),
                    false, 2, '\\x7b7d'::bytea, NULL)
            """, logger: old.logger)
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == PostgresMigration.all.count)
        let again = try await upgraded.put(Sample.result())
        #expect(again.created == false, "a v1 row has digest '', as Sample's")
        #expect(again.result.id == id)
        var digested = Sample.result()
        digested.policyDigest = "policy-a"
        #expect(try await upgraded.put(digested).created)
        await upgraded.close()
        await database.remove()
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func version2RowsKeepNoArchiveAndStayTheirOwnReuploadOnUpgrade() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(PostgresMigration.all.prefix(2)))
        // A row as version 2 wrote it (no archive columns yet; today's put names them).
        let id = ResultID.generate()
        let createdAt = Timestamp.milliseconds(clock.now)
        try await old.client.run("""
            INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, policy_digest, has_json,
                                 stored_bytes, report, converted_json)
            VALUES (\(id), 'acme', \(createdAt), \(createdAt + 3_600_000), \(Sample.sha256(1)), 101, 'upload', 'plain', \("\"\(id)\""),
                    '', true, 4, '\\x7b7d'::bytea, '\\x7b7d'::bytea)
            """, logger: old.logger)
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == PostgresMigration.all.count)
        #expect(try await upgraded.summary(tenant: "acme", id: id)?.hasSanitizedArchive == false)
        #expect(try await upgraded.sanitizedArchive(tenant: "acme", id: id) == nil)
        let again = try await upgraded.put(Sample.result())
        #expect(again.created == false, "a version 2 row asked for no archive, as Sample does")
        #expect(again.result.id == id)
        #expect(try await upgraded.put(ResultStoreConformance.sanitized(archive: [0x62])).created)
        await upgraded.close()
        await database.remove()
    }

    private func ledger(_ store: PostgresResultStore) async throws -> [String] {
        var lines: [String] = []
        for try await (version, name) in try await store.client.query(
            "SELECT version, name FROM schema_migrations ORDER BY version"
        ).decode((Int32, String).self) {
            lines.append("\(version) \(name)")
        }
        return lines
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
