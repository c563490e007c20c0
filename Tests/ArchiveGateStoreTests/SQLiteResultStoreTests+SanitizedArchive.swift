import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// Schema version 4 of the SQLite store added the sanitized archive (the behaviour itself is
/// `ResultStoreConformance.theSanitizedArchive…`, run against both stores).
@Suite struct SQLiteResultStoreSanitizedArchiveTests {
    /// Inserts result AAAAAAAAAAAAAAAAAAAAAA (tenant acme, Sample seed 1) naming only the columns of
    /// schema version 3, as an older build stored it (today's insert names the newer columns).
    /// Returns how many rows were inserted.
    static func insertVersion3Row(_ old: SQLiteResultStore, clock: ManualClock) async throws -> Int {
        try await old.pool.withConnection(.writer) { db in
            try await db.run("""
                INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, report, converted_json,
                                     policy_digest, has_json, stored_bytes)
                VALUES ('AAAAAAAAAAAAAAAAAAAAAA', 'acme', ?1, ?2, ?3, 101, 'upload', 'plain', '"AAAAAAAAAAAAAAAAAAAAAA"', X'7B7D', X'7B7D', '', 1, 4)
                RETURNING id
                """, [.integer(Int(Timestamp.milliseconds(clock.now))), .integer(Int(Timestamp.milliseconds(clock.now)) + 3_600_000),
                      .text(Sample.sha256(1))]).count
        }
    }

    @Test func version3RowsKeepNoArchiveAndStayTheirOwnReuploadOnUpgrade() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(SQLiteMigration.all.prefix(3)))
        // A result as version 3 stored it (today's insert names the new columns).
        let stored = try await SQLiteResultStoreSanitizedArchiveTests.insertVersion3Row(old, clock: clock)
        #expect(stored == 1)
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == SQLiteMigration.all.count)
        let summary = try #require(try await upgraded.summary(tenant: "acme", id: "AAAAAAAAAAAAAAAAAAAAAA"))
        #expect(summary.hasSanitizedArchive == false)
        #expect(try await upgraded.sanitizedArchive(tenant: "acme", id: summary.id) == nil)
        let again = try await upgraded.put(Sample.result())
        #expect(again.created == false, "a version 3 row asked for no archive, as Sample does")
        #expect(again.result.id == summary.id)
        let asked = try await upgraded.put(ResultStoreConformance.sanitized(archive: [0x62]))
        #expect(asked.created)
        #expect(try await upgraded.integrityCheck() == ["ok"])
        await upgraded.close()
    }

    /// Listing, metadata (and so 304s) and `get` select named columns; none of them names the archive.
    @Test func onlyTheArchiveCallSelectsTheArchiveColumn() {
        for columns in [Columns.summary, Columns.report, Columns.full] {
            #expect(!columns.contains("sanitized_archive"), "\(columns)")
            #expect(columns.contains("has_archive"), "\(columns)")
        }
        for columns in [PostgresResultStore.summaryColumns, PostgresResultStore.reportColumns, PostgresResultStore.fullColumns] {
            #expect(!columns.contains("sanitized_archive"), "\(columns)")
            #expect(columns.contains("has_archive"), "\(columns)")
        }
    }
}
