import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// What only the SQLite store has: WAL and sync settings, writers contending for the file, query
/// plans and `integrity_check` (the behaviour both stores share is in `ResultStoreConformance`; its
/// migrations are in `SQLiteMigratorTests` and `SQLiteMigrationTests`).
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
}
