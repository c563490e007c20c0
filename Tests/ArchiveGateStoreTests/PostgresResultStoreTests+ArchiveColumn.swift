import Foundation
import Logging
import PostgresNIO
import Testing
@testable import ArchiveGateStore

/// Listing, metadata (what a 304 reads), the report and `get` never read the sanitized archive:
/// proved by PostgreSQL itself. A role that may select every column of `results` but
/// `sanitized_archive` serves them all; only `sanitizedArchive(tenant:id:)` is refused.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .timeLimit(.minutes(2)))
struct PostgresArchiveColumnTests {
    @Test func onlyTheArchiveCallReadsTheArchiveColumn() async throws {
        let database = try await TemporaryPostgresDatabase.make()
        let clock = ManualClock()
        let owner = try await database.open(clock: clock)
        let stored = try await owner.put(ResultStoreConformance.sanitized(archive: [0x62, 0x70, 0x6C])).result
        await owner.close()

        let role = "agtest_noarchive_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let columns = "id, tenant, created_at, expires_at, sha256, size, source, mode, etag, has_json, stored_bytes, report, "
            + "converted_json, policy_digest, sanitized, has_archive, name"
        try await Self.withClient(database.configuration) { client in
            for statement in [
                "CREATE ROLE \(role) LOGIN",
                "GRANT CREATE, USAGE ON SCHEMA public TO \(role)",
                "GRANT SELECT ON schema_migrations TO \(role)",
                "GRANT SELECT (\(columns)) ON results TO \(role)",
            ] {
                try await client.query(PostgresQuery(unsafeSQL: statement))
            }
        }
        var limited = database.configuration
        limited.username = role
        let store = try await PostgresResultStore.open(
            configuration: limited, migrations: PostgresMigration.all, logger: Logger(label: "test.store.postgres"), now: { clock.now })
        do {
            #expect(try await store.summary(tenant: "acme", id: stored.id) == stored.summary)
            #expect(try await store.report(tenant: "acme", id: stored.id) == stored.storedReport)
            #expect(try await store.get(tenant: "acme", id: stored.id) == stored)
            #expect(try await store.list(tenant: "acme", limit: 10, cursor: nil).items == [stored.summary])
            // The control: reading the archive needs the column the role may not select.
            await #expect(throws: ResultStoreError(.storageFailure, "")) {
                try await store.sanitizedArchive(tenant: "acme", id: stored.id)
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        await database.remove()
        try await PostgresTestServer.withAdmin { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "DROP ROLE IF EXISTS \(role)"))
        }
    }

    /// Runs `body` with a superuser client on the test's own database.
    private static func withClient(
        _ configuration: PostgresResultStore.Configuration, _ body: @Sendable (PostgresClient) async throws -> Void
    ) async throws {
        let client = PostgresClient(configuration: PostgresResultStore.clientConfiguration(configuration))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }
}
