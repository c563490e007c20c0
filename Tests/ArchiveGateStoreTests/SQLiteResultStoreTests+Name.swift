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
        // A result as version 4 stored it (today's insert names the new column).
        let stored = try await old.pool.withConnection(.writer) { db in
            try await db.run("""
                INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, report, converted_json,
                                     policy_digest, has_json, stored_bytes)
                VALUES ('AAAAAAAAAAAAAAAAAAAAAA', 'acme', ?1, ?2, ?3, 101, 'upload', 'plain', '"AAAAAAAAAAAAAAAAAAAAAA"', X'7B7D', X'7B7D', '', 1, 4)
                RETURNING id
                """, [.integer(Int(Timestamp.milliseconds(clock.now))), .integer(Int(Timestamp.milliseconds(clock.now)) + 3_600_000),
                      .text(Sample.sha256(1))]).count
        }
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
