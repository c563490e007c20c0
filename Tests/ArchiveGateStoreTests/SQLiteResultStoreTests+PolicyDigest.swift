import Foundation
import Testing
@testable import ArchiveGateStore

/// The policy digest is part of the idempotency key (schema version 2): the same bytes and mode
/// under another policy are a new result; under the same policy, the existing one.
@Suite struct SQLiteResultStorePolicyDigestTests {
    @Test func anotherPolicyDigestIsANewResult() async throws {
        try await withStore { store, _, _ in
            var first = Sample.result()
            first.policyDigest = "policy-a"
            let created = try await store.put(first)
            #expect(created.created)
            #expect(try await store.put(first).created == false)

            var second = first
            second.policyDigest = "policy-b"
            second.report = Array(#"{"valid":false}"#.utf8)
            let judgedAgain = try await store.put(second)
            #expect(judgedAgain.created)
            #expect(judgedAgain.result.id != created.result.id)
            #expect(judgedAgain.result.report == second.report)
            #expect(try await store.put(second).result.id == judgedAgain.result.id)
            // The earlier verdict stays readable under its id.
            #expect(try await store.get(tenant: first.tenant, id: created.result.id)?.report == first.report)
        }
    }

    @Test func version1RowsGetAnEmptyDigestOnUpgrade() async throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(SQLiteMigration.all.prefix(1)))
        // A row as version 1 wrote it (today's insert names the new column).
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
        #expect(upgraded.schemaVersion == 2)
        #expect(try await upgraded.put(Sample.result()).created == false, "a v1 row has digest '', as Sample's")
        var digested = Sample.result()
        digested.policyDigest = "policy-a"
        #expect(try await upgraded.put(digested).created)
        await upgraded.close()
    }
}
