import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// Schema version 5 of the SQLite store added the upload's file name (the behaviour itself is
/// `ResultStoreConformance.theUploadNameIsKeptAndListed`, run against both stores).
@Suite struct SQLiteResultStoreNameTests {
    @Test func version4RowsHaveNoNameAfterTheUpgrade() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(SQLiteMigration.all.prefix(4)))
        // A result as an older build stored it (no name column named).
        let stored = try await SQLiteResultStoreSanitizedArchiveTests.insertVersion3Row(old, clock: clock)
        #expect(stored == 1)
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == SQLiteMigration.all.count)
        let summary = try #require(try await upgraded.summary(tenant: "acme", id: "AAAAAAAAAAAAAAAAAAAAAA"))
        #expect(summary.name == nil)
        let named = try await upgraded.put(ResultStoreConformance.named("b.archive", seed: 2)).result
        #expect(try await upgraded.list(tenant: "acme", limit: 10, cursor: nil).items.map(\.name).sorted { ($0 ?? "") < ($1 ?? "") } == [nil, "b.archive"])
        #expect(named.name == "b.archive")
        #expect(try await upgraded.integrityCheck() == ["ok"])
        await upgraded.close()
    }
}
