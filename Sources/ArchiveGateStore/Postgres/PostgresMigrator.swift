import Logging
import PostgresNIO

/// Brings the database to the newest schema this build knows, once, however many replicas start
/// at the same moment.
///
/// Everything runs in one transaction that first takes a transaction-scoped advisory lock
/// (``PostgresResultStore/migrationLockKey``): a second replica starting meanwhile waits on the lock,
/// then finds the steps recorded and applies nothing. PostgreSQL's DDL is transactional, so a
/// failing step leaves no trace, ledger rows included.
enum PostgresMigrator {
    /// Returns the schema version the database is at afterwards.
    static func migrate(
        _ connection: PostgresConnection, migrations: [PostgresMigration], nowMilliseconds: Int64, logger: Logger
    ) async throws -> Int {
        assert(migrations.enumerated().allSatisfy { $0.offset + 1 == $0.element.version }, "versions must be 1, 2, 3 …")
        return try await connection.transaction(logger: logger) {
            try await connection.run("SELECT pg_advisory_xact_lock(\(PostgresResultStore.migrationLockKey))", logger: logger)
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER NOT NULL PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """, logger: logger)
            var applied: [(version: Int, name: String)] = []
            for try await (version, name) in try await connection.query(
                "SELECT version, name FROM schema_migrations ORDER BY version", logger: logger
            ).decode((Int32, String).self) {
                applied.append((Int(version), name))
            }
            try SchemaLedger.check(applied: applied, expectedNames: migrations.map(\.name))
            for migration in migrations.dropFirst(applied.count) {
                for statement in migration.statements {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.run(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(Int32(migration.version)), \(migration.name), \(nowMilliseconds))",
                    logger: logger)
                logger.info("applied schema migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
            return migrations.count
        }
    }
}
