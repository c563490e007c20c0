import Foundation
@testable import ArchiveGateStore

/// The store implementations the conformance suite runs against.
enum StoreKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgres

    var description: String { rawValue }

    /// A fresh, empty database of this kind (a temporary file, or a new PostgreSQL database).
    func makeDatabase() async throws -> any TestDatabase {
        switch self {
        case .sqlite: try TemporaryDatabase()
        case .postgres: try await TemporaryPostgresDatabase.make()
        }
    }
}

/// A store as the conformance tests use it: the protocol plus closing and a look under its rules.
protocol TestStore: ResultStore {
    func close() async
    /// Rows physically present, expired or not.
    func physicalRowCount() async throws -> Int
}

/// One empty database; every ``open(clock:retention:)`` opens another store on the same data, as a
/// restarted process or a second replica would.
protocol TestDatabase: Sendable {
    func open(clock: ManualClock, retention: Duration) async throws -> any TestStore
    func remove() async
}

/// Opens a store of `kind` on a fresh database, runs `body`, then closes the store and drops the database.
func withStore(
    _ kind: StoreKind, retention: Duration = .seconds(3600),
    _ body: (any TestStore, ManualClock, any TestDatabase) async throws -> Void
) async throws {
    let database = try await kind.makeDatabase()
    let clock = ManualClock()
    do {
        let store = try await database.open(clock: clock, retention: retention)
        do {
            try await body(store, clock, database)
            await store.close()
        } catch {
            await store.close()
            throw error
        }
    } catch {
        await database.remove()
        throw error
    }
    await database.remove()
}
