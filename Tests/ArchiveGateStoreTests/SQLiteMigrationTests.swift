import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// What `SQLiteMigration.all`'s steps do to rows stored before them. Version 2 added the policy
/// digest to the idempotency key: rows written before it get '' (the behaviour itself is
/// `ResultStoreConformance.anotherPolicyDigestIsANewResult`). Version 3 added the size and presence
/// columns.
@Suite(.timeLimit(.minutes(2))) struct SQLiteMigrationTests {
    @Test func version1RowsGetAnEmptyDigestOnUpgrade() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(SQLiteMigration.all.prefix(1)))
        // A row as version 1 wrote it (today's insert names the new columns).
        let id = "01" + String(repeating: "0", count: 24)
        try await old.pool.withConnection(.writer) { db in
            _ = try await db.run("""
                INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, report, converted_json)
                VALUES ('\(id)', 'acme', \(Int(clock.now.timeIntervalSince1970 * 1000)), \(Int(clock.now.timeIntervalSince1970 * 1000) + 3_600_000),
                        '\(Sample.sha256(1))', 101, 'upload', 'plain', '"\(id)"', X'7B7D', NULL)
                """)
        }
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == SQLiteMigration.all.count)
        #expect(try await upgraded.put(Sample.result()).created == false, "a v1 row has digest '', as Sample's")
        var digested = Sample.result()
        digested.policyDigest = "policy-a"
        #expect(try await upgraded.put(digested).created)
        await upgraded.close()
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
