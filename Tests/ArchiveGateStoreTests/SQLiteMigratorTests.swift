import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// `SQLiteMigrator`: the ledger of applied steps, a new step applied once, a diverging history and
/// a newer database refused, and a failing step that leaves the database untouched.
@Suite(.timeLimit(.minutes(2))) struct SQLiteMigratorTests {
    @Test func reOpeningKeepsTheDataAndTheSchemaVersion() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let first = try await database.open(clock: clock)
        let stored = try await first.put(Sample.result()).result
        await first.close()
        await #expect(throws: ResultStoreError(.closed, "")) { try await first.get(tenant: "acme", id: stored.id) }

        let second = try await database.open(clock: clock)
        #expect(second.schemaVersion == SQLiteMigration.all.count)
        #expect(try await second.get(tenant: "acme", id: stored.id) == stored)
        let ledger = try await second.pool.withConnection(.reader) { db in
            try await db.run("SELECT version, name FROM schema_migrations ORDER BY version").map {
                "\($0.column("version")?.integer ?? 0) \($0.column("name")?.string ?? "")"
            }
        }
        #expect(ledger == SQLiteMigration.all.map { "\($0.version) \($0.name)" })
        await second.close()
    }

    @Test func aNewMigrationIsAppliedOnceToAnExistingDatabase() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let original = try await database.open(clock: clock)
        let stored = try await original.put(Sample.result()).result
        await original.close()

        let upgraded = SQLiteMigration.all + [
            SQLiteMigration(version: SQLiteMigration.all.count + 1, name: "test: add a note", statements: [
                "ALTER TABLE results ADD COLUMN note TEXT",
            ]),
        ]
        for _ in 0..<2 { // the second open finds nothing left to do
            let store = try await database.open(clock: clock, migrations: upgraded)
            #expect(store.schemaVersion == upgraded.count)
            #expect(try await store.get(tenant: "acme", id: stored.id) == stored)
            await store.close()
        }

        // This build's list is now behind the database: refuse rather than guess.
        await #expect(throws: ResultStoreError(.schemaTooNew, "")) { try await database.open(clock: clock) }
    }

    @Test func aDivergingMigrationHistoryIsRefused() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        try await database.open(clock: clock).close()
        var renamed = SQLiteMigration.all
        renamed[0] = SQLiteMigration(version: 1, name: "something else", statements: renamed[0].statements)
        await #expect(throws: ResultStoreError(.migrationMismatch, "")) {
            try await database.open(clock: clock, migrations: renamed)
        }
    }

    @Test func aFailingMigrationLeavesTheDatabaseUntouched() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let broken = SQLiteMigration.all + [
            SQLiteMigration(version: SQLiteMigration.all.count + 1, name: "test: broken", statements: [
                "CREATE TABLE scratch (x INTEGER)", "THIS IS NOT SQL",
            ]),
        ]
        await #expect(throws: ResultStoreError(.storageFailure, "")) {
            try await database.open(clock: clock, migrations: broken)
        }
        // All or nothing: not even version 1 was recorded, and the scratch table is gone.
        let store = try await database.open(clock: clock)
        let tables = try await store.pool.withConnection(.reader) { db in
            try await db.run("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").compactMap { $0.column("name")?.string }
        }
        #expect(tables == ["results", "schema_migrations"])
        await store.close()
    }
}
