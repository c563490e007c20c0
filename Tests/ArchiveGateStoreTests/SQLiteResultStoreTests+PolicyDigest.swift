import Foundation
import Testing
@testable import ArchiveGateStore

/// Schema version 2 of the SQLite store added the policy digest to the idempotency key; rows
/// written before it get '' (the behaviour itself is `ResultStoreConformance.anotherPolicyDigestIsANewResult`).
@Suite struct SQLiteResultStorePolicyDigestTests {
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
}
