import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// What only the SQLite store has: WAL and sync settings, its migrations, query plans and
/// `integrity_check` (the behaviour both stores share is in `ResultStoreConformance`).
@Suite(.timeLimit(.minutes(2))) struct SQLiteResultStoreTests {
    @Test func theWriterRunsInWALWithFullSync() async throws {
        try await withSQLiteStore { store, _, _ in
            let settings = try await store.pool.withConnection(.writer) { db in
                (try await db.run("PRAGMA journal_mode").first?.column("journal_mode")?.string,
                 try await db.run("PRAGMA synchronous").first?.column("synchronous")?.integer,
                 try await db.run("PRAGMA busy_timeout").first?.columns.first?.data.integer)
            }
            #expect(settings.0 == "wal")
            #expect(settings.1 == 2) // FULL
            #expect(settings.2 == 10_000)
        }
    }

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

    @Test func thirtyTwoConcurrentWritersAllSucceed() async throws {
        try await withSQLiteStore { store, _, _ in
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for seed in 0..<32 {
                    group.addTask {
                        let outcome = try await store.put(Sample.result(tenant: "t\(seed % 4)", seed: seed))
                        // Interleave reads with the writes.
                        _ = try await store.list(tenant: "t\(seed % 4)", limit: 5, cursor: nil)
                        return outcome.result.id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 32)
            #expect(try await store.physicalRowCount() == 32)
            #expect(try await store.integrityCheck() == ["ok"])
        }
    }

    @Test func twoStoresOnOneFileWaitForEachOtherInsteadOfFailing() async throws {
        // Two stores stand for two processes (replicas) sharing the file: their writers contend for
        // SQLite's lock, and the busy timeout must absorb it.
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let left = try await database.open(clock: clock)
        let right = try await database.open(clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for seed in 0..<32 {
                group.addTask { _ = try await (seed.isMultiple(of: 2) ? left : right).put(Sample.result(seed: seed)) }
            }
            try await group.waitForAll()
        }
        #expect(try await left.list(tenant: "acme", limit: 50, cursor: nil).items.count == 32)
        #expect(try await right.integrityCheck() == ["ok"])
        await left.close()
        await right.close()
    }

    @Test func closeWaitsForOperationsInFlight() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let store = try await database.open(clock: ManualClock())
        async let writes: [Result<PutOutcome, any Error>] = withTaskGroup(of: Result<PutOutcome, any Error>.self) { group in
            for seed in 0..<16 {
                group.addTask {
                    do { return .success(try await store.put(Sample.result(seed: seed))) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await store.close()
        // Every write either finished (and is durable) or was refused as closed; none crashed.
        let outcomes = await writes
        let created = outcomes.compactMap { try? $0.get() }
        for case .failure(let error) in outcomes { #expect(error as? ResultStoreError == ResultStoreError(.closed, "")) }
        let reopened = try await database.open(clock: ManualClock())
        for outcome in created { #expect(try await reopened.get(tenant: "acme", id: outcome.result.id) == outcome.result) }
        #expect(try await reopened.integrityCheck() == ["ok"])
        await reopened.close()
    }

    @Test func listingUsesThePaginationIndex() async throws {
        try await withSQLiteStore { store, _, _ in
            let plan = try await store.pool.withConnection(.reader) { db in
                try await db.run("""
                    EXPLAIN QUERY PLAN SELECT \(Columns.summary) FROM results
                    WHERE tenant = 'acme' AND expires_at > 0 AND (created_at, id) < (5, 'x')
                    ORDER BY created_at DESC, id DESC LIMIT 10
                    """).compactMap { $0.column("detail")?.string }
            }
            #expect(plan.contains { $0.contains("results_by_tenant_created") }, "plan: \(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
        }
    }

    @Test func version3FillsSizeAndPresenceColumnsForRowsStoredBefore() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let old = try await database.open(clock: clock, retention: .seconds(3600), migrations: Array(SQLiteMigration.all.prefix(1)))
        let accepted = ResultID.generate()
        let rejected = ResultID.generate()
        try await old.pool.withConnection(.writer) { db in
            for (id, json) in [(accepted, SQLiteData.blob(ByteBuffer(string: "{\"n\":1}"))), (rejected, .null)] {
                try await db.run("""
                    INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, report, converted_json)
                    VALUES (?1, 'acme', 1800000000000, 1800003600000, ?2, 10, 'upload', 'plain', ?3, X'7B7D', ?4)
                    """, [.text(id), .text(Sample.sha256(id == accepted ? 1 : 2)), .text("\"\(id)\""), json])
            }
        }
        await old.close()
        let store = try await database.open(clock: clock)
        #expect(try await store.summary(tenant: "acme", id: accepted)?.hasConvertedJSON == true)
        #expect(try await store.summary(tenant: "acme", id: rejected)?.hasConvertedJSON == false)
        let bytes = try await store.pool.withConnection(.reader) { db in
            try await db.run("SELECT stored_bytes FROM results ORDER BY stored_bytes").compactMap { $0.column("stored_bytes")?.integer }
        }
        #expect(bytes == [2, 9])
        await store.close()
    }
}

/// Opens an SQLite store on a temporary file, runs `body`, then closes the store and deletes the file.
func withSQLiteStore(
    retention: Duration = .seconds(3600),
    _ body: (SQLiteResultStore, ManualClock, TemporaryDatabase) async throws -> Void
) async throws {
    let database = try TemporaryDatabase()
    let clock = ManualClock()
    let store = try await database.open(clock: clock, retention: retention, migrations: SQLiteMigration.all)
    do {
        try await body(store, clock, database)
        await store.close()
    } catch {
        await store.close()
        await database.remove()
        throw error
    }
    await database.remove()
}
