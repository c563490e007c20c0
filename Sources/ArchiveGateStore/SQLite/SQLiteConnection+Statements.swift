import Logging
import SQLiteNIO

extension SQLiteConnection {
    /// Runs one statement and collects its rows. (Typed so that the async overload is chosen,
    /// never the EventLoopFuture one.)
    @discardableResult
    func run(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        let rows: [SQLiteRow] = try await self.query(sql, binds)
        return rows
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if anything throws.
    ///
    /// `IMMEDIATE` takes the write lock up front, so a transaction that reads before it writes cannot
    /// fail half-way with `SQLITE_BUSY` (a deferred read transaction in WAL mode cannot wait to be
    /// upgraded). The caller must hold the connection exclusively (``SQLiteConnectionPool``); when
    /// this returns, COMMIT has returned, i.e. the transaction is durable under `synchronous=FULL`.
    func transaction<T: Sendable>(logger: Logger, _ body: () async throws -> T) async throws -> T {
        try await run("BEGIN IMMEDIATE")
        do {
            let value = try await body()
            try await run("COMMIT")
            return value
        } catch {
            do {
                try await run("ROLLBACK")
            } catch let rollbackError {
                // SQLite rolls back by itself after some errors; anything else is worth a log line.
                logger.debug("rollback after a failed transaction", metadata: ["error": "\(rollbackError)"])
            }
            throw error
        }
    }

    /// Applies the per-connection settings. `journal_mode=WAL` is stored in the database file;
    /// `synchronous` and `busy_timeout` are per connection and must be set on every one.
    ///
    /// `busy_timeout` replaces sqlite-nio's default busy handler, which retries forever: a lock held
    /// by another process for too long becomes a ``ResultStoreError/Code/busy`` error instead of a hang.
    func configure(busyTimeoutMilliseconds: Int64, readOnly: Bool) async throws {
        try await run("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        if !readOnly {
            let mode = try await run("PRAGMA journal_mode = WAL").first?.column("journal_mode")?.string
            guard mode?.lowercased() == "wal" else {
                throw ResultStoreError(.storageFailure, "could not switch the database to WAL (got \(mode ?? "nothing"))")
            }
        }
        try await run("PRAGMA synchronous = FULL")
        let synchronous = try await run("PRAGMA synchronous").first?.column("synchronous")?.integer
        guard synchronous == 2 else {
            throw ResultStoreError(.storageFailure, "could not set synchronous=FULL (got \(synchronous.map(String.init) ?? "nothing"))")
        }
        if readOnly {
            try await run("PRAGMA query_only = ON")
        }
    }
}
