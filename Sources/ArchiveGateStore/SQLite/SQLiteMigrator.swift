import Logging
import SQLiteNIO

/// Brings a database to the newest schema this build knows, in one transaction at open.
///
/// `schema_migrations` records each applied step (version, name, time). At open, every recorded step
/// must match the build's step of the same version, a database from a newer build is refused, and
/// the pending steps are applied together with their ledger rows — all or nothing.
enum SQLiteMigrator {
    /// Returns the schema version the database is at afterwards.
    static func migrate(
        _ connection: SQLiteConnection, migrations: [SQLiteMigration], nowMilliseconds: Int64, logger: Logger
    ) async throws -> Int {
        assert(migrations.enumerated().allSatisfy { $0.offset + 1 == $0.element.version }, "versions must be 1, 2, 3 …")
        return try await connection.transaction(logger: logger) {
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER NOT NULL PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                ) STRICT
                """)
            let applied = try await connection.run("SELECT version, name FROM schema_migrations ORDER BY version").map { row in
                guard let version = row.column("version")?.integer, let name = row.column("name")?.string else {
                    throw ResultStoreError(.migrationMismatch, "unreadable schema_migrations row")
                }
                return (version: version, name: name)
            }
            try SchemaLedger.check(applied: applied, expectedNames: migrations.map(\.name))
            for migration in migrations.dropFirst(applied.count) {
                for statement in migration.statements {
                    try await connection.run(statement)
                }
                try await connection.run(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                    [.integer(migration.version), .text(migration.name), .integer(Int(nowMilliseconds))]
                )
                logger.info("applied schema migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
            return migrations.count
        }
    }
}
