import Foundation
import Logging
import SQLiteNIO
@testable import ArchiveGateStore

/// A database file in a fresh temporary directory, removed when the test is done with it.
struct TemporaryDatabase: TestDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("results.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("archivegate-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func configuration(retention: Duration = .seconds(3600)) -> SQLiteResultStore.Configuration {
        SQLiteResultStore.Configuration(path: path, retention: retention, maximumPageSize: 50)
    }

    func open(
        clock: ManualClock, retention: Duration = .seconds(3600), migrations: [SQLiteMigration] = SQLiteMigration.all
    ) async throws -> SQLiteResultStore {
        try await SQLiteResultStore.open(
            configuration: configuration(retention: retention), migrations: migrations,
            logger: Logger(label: "test.store"), now: { clock.now })
    }

    func open(clock: ManualClock, retention: Duration) async throws -> any TestStore {
        try await open(clock: clock, retention: retention, migrations: SQLiteMigration.all)
    }

    func remove() async {
        try? FileManager.default.removeItem(at: directory)
    }
}

extension SQLiteResultStore: TestStore {
    /// Rows physically present, expired or not (tests look under the store's visibility rules).
    func physicalRowCount() async throws -> Int {
        try await pool.withConnection(.reader) { db in
            try await db.run("SELECT count(*) AS n FROM results").first?.column("n")?.integer ?? -1
        }
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
