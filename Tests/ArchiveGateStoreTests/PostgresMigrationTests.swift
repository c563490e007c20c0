import Foundation
import PostgresNIO
import Testing
@testable import ArchiveGateStore

/// What `PostgresMigration.all`'s steps do to rows stored before them: version 2 added the policy
/// digest to the idempotency key, and rows written before it get ''; version 3 added the stored
/// sanitized archive, and rows written before it have none.
@Suite(.timeLimit(.minutes(2))) struct PostgresMigrationTests {
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func version1RowsGetAnEmptyPolicyDigestOnUpgrade() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(PostgresMigration.all.prefix(1)))
        // A row as version 1 wrote it (no policy_digest column yet).
        let id = ResultID.generate()
        let createdAt = Timestamp.milliseconds(clock.now)
        try await old.client.run("""
            INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, has_json, stored_bytes, report, converted_json)
            VALUES (\(id), 'acme', \(createdAt), \(createdAt + 3_600_000), \(Sample.sha256(1)), 101, 'upload', 'plain', \("\"\(id)\""),
                    false, 2, '\\x7b7d'::bytea, NULL)
            """, logger: old.logger)
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == PostgresMigration.all.count)
        let again = try await upgraded.put(Sample.result())
        #expect(again.created == false, "a v1 row has digest '', as Sample's")
        #expect(again.result.id == id)
        var digested = Sample.result()
        digested.policyDigest = "policy-a"
        #expect(try await upgraded.put(digested).created)
        await upgraded.close()
        await database.remove()
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
    func version2RowsKeepNoArchiveAndStayTheirOwnReuploadOnUpgrade() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let old = try await database.open(clock: clock, migrations: Array(PostgresMigration.all.prefix(2)))
        // A row as version 2 wrote it (no archive columns yet; today's put names them).
        let id = ResultID.generate()
        let createdAt = Timestamp.milliseconds(clock.now)
        try await old.client.run("""
            INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, policy_digest, has_json,
                                 stored_bytes, report, converted_json)
            VALUES (\(id), 'acme', \(createdAt), \(createdAt + 3_600_000), \(Sample.sha256(1)), 101, 'upload', 'plain', \("\"\(id)\""),
                    '', true, 4, '\\x7b7d'::bytea, '\\x7b7d'::bytea)
            """, logger: old.logger)
        await old.close()

        let upgraded = try await database.open(clock: clock)
        #expect(upgraded.schemaVersion == PostgresMigration.all.count)
        #expect(try await upgraded.summary(tenant: "acme", id: id)?.hasSanitizedArchive == false)
        #expect(try await upgraded.sanitizedArchive(tenant: "acme", id: id) == nil)
        let again = try await upgraded.put(Sample.result())
        #expect(again.created == false, "a version 2 row asked for no archive, as Sample does")
        #expect(again.result.id == id)
        #expect(try await upgraded.put(ResultStoreConformance.sanitized(archive: [0x62])).created)
        await upgraded.close()
        await database.remove()
    }
}
