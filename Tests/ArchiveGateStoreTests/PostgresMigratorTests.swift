import Foundation
import PostgresNIO
import Testing
@testable import ArchiveGateStore

/// `PostgresMigrator`: migrations that several replicas start at once run once, a new step is
/// applied once, an older build and a diverging history are refused, and a failing step leaves
/// the database untouched.
@Suite(.timeLimit(.minutes(2))) struct PostgresMigratorTests {
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
