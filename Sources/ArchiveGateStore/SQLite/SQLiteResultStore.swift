import Foundation
import Logging
import NIOPosix
import SQLiteNIO

/// The embedded ``ResultStore``: one SQLite file in WAL mode with `synchronous=FULL`, so a result
/// is on disk (WAL fsynced) before ``put(_:)`` returns.
///
/// Writes go through a single writer connection (``SQLiteConnectionPool``) and every multi-statement
/// write is one `BEGIN IMMEDIATE` transaction; reads use read-only connections. Several processes
/// may share the file: the busy timeout covers their contention. Open with ``open(configuration:logger:now:)``,
/// which applies pending migrations before anything else touches the database.
public final class SQLiteResultStore: ResultStore {
    /// The settings this store was opened with.
    public let configuration: Configuration
    /// The schema version the database is at (the newest this build knows).
    public let schemaVersion: Int
    let pool: SQLiteConnectionPool
    let now: @Sendable () -> Date
    let logger: Logger

    private init(configuration: Configuration, schemaVersion: Int, pool: SQLiteConnectionPool, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.configuration = configuration
        self.schemaVersion = schemaVersion
        self.pool = pool
        self.now = now
        self.logger = logger
    }

    /// Opens (creating if needed) and migrates the database, then opens the reader connections.
    /// - Parameters:
    ///   - now: the clock that stamps `createdAt` and decides expiry; tests inject their own.
    /// - Throws: ``ResultStoreError`` — `schemaTooNew`, `migrationMismatch`, `busy` or `storageFailure`.
    public static func open(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "archivegate.store.sqlite"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> SQLiteResultStore {
        try await open(configuration: configuration, migrations: SQLiteMigration.all, logger: logger, now: now)
    }

    /// ``open(configuration:logger:now:)`` with an explicit migration list (tests upgrade and downgrade with it).
    static func open(
        configuration: Configuration, migrations: [SQLiteMigration], logger: Logger, now: @escaping @Sendable () -> Date
    ) async throws -> SQLiteResultStore {
        guard configuration.readerCount >= 1, configuration.maximumPageSize >= 1 else {
            throw ResultStoreError(.invalidArgument, "readerCount and maximumPageSize must be at least 1")
        }
        let path = try prepareDatabasePath(configuration.path)
        let busyTimeout = max(0, configuration.busyTimeout.storeMilliseconds)
        // One thread per connection, owned by this store. SQLite's busy handler sleeps on the thread
        // that runs the statement; on sqlite-nio's default NIOThreadPool.singleton (one thread per
        // core: two on a 2-core machine, shared by every store in the process) two stores waiting
        // for the file's write lock took every thread, so the store holding the lock could not run
        // its next statement (its COMMIT) until busy_timeout ran out. With a thread per connection
        // a waiting writer blocks only its own thread.
        let threadPool = NIOThreadPool(numberOfThreads: 1 + configuration.readerCount)
        threadPool.start()
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        func connect() async throws -> SQLiteConnection {
            try await SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
        }
        var opened: [SQLiteConnection] = []
        do {
            return try await mappingErrors {
                let writer = try await connect()
                opened.append(writer)
                try await writer.configure(busyTimeoutMilliseconds: busyTimeout, readOnly: false)
                let version = try await SQLiteMigrator.migrate(
                    writer, migrations: migrations, nowMilliseconds: Timestamp.milliseconds(now()), logger: logger)
                var readers: [SQLiteConnection] = []
                for _ in 0..<configuration.readerCount {
                    let reader = try await connect()
                    opened.append(reader)
                    try await reader.configure(busyTimeoutMilliseconds: busyTimeout, readOnly: true)
                    readers.append(reader)
                }
                let pool = SQLiteConnectionPool(writer: writer, readers: readers, threadPool: threadPool)
                logger.info("result store open", metadata: ["path": "\(path)", "schemaVersion": "\(version)"])
                return SQLiteResultStore(configuration: configuration, schemaVersion: version, pool: pool, now: now, logger: logger)
            }
        } catch {
            for connection in opened { try? await connection.close() }
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    /// Waits for running operations, then closes every connection. Later calls throw `closed`.
    public func close() async {
        await pool.close()
    }

    // MARK: - ResultStore

    public func put(_ new: NewResult) async throws -> PutOutcome {
        let new = try new.validated()
        let retention = max(0, configuration.retention.storeMilliseconds)
        return try await Self.mappingErrors {
            try await pool.withConnection(.writer) { [now, logger] db in
                try await db.transaction(logger: logger) {
                    let createdAt = Timestamp.milliseconds(now())
                    let key: [SQLiteData] = [.text(new.tenant), .text(new.sha256), .text(new.mode.rawValue), .text(new.policyDigest),
                                             .integer(new.requestsSanitizedArchive ? 1 : 0)]
                    // An expired twin is already invisible; removing it frees the unique key.
                    try await db.run(
                        "DELETE FROM results WHERE \(Self.idempotencyKey) AND expires_at <= ?6",
                        key + [.integer(Int(createdAt))])
                    if let row = try await db.run(
                        "SELECT \(Columns.full) FROM results WHERE \(Self.idempotencyKey)", key
                    ).first {
                        return PutOutcome(result: try Self.decodeResult(row), created: false)
                    }
                    if let quota = new.quota {
                        // BEGIN IMMEDIATE holds the write lock: no other writer can slip in between.
                        let usage = try await db.run("""
                            SELECT count(*) AS results, coalesce(sum(stored_bytes), 0) AS bytes FROM results
                            WHERE tenant = ?1 AND expires_at > ?2
                            """, [.text(new.tenant), .integer(Int(createdAt))]).first
                        try quota.check(
                            count: usage?.column("results")?.integer ?? 0,
                            usedBytes: Int64(usage?.column("bytes")?.integer ?? 0), adding: new.storedBytes)
                    }
                    let stored = new.stored(createdAt: createdAt, retention: retention)
                    try await db.run(Self.insertStatement, Self.insertBinds(new, stored))
                    return PutOutcome(result: stored, created: true)
                }
            }
        }
    }

    public func get(tenant: String, id: String) async throws -> StoredResult? {
        try await select(Columns.full, tenant: tenant, id: id, Self.decodeResult)
    }

    public func summary(tenant: String, id: String) async throws -> ResultSummary? {
        try await select(Columns.summary, tenant: tenant, id: id, Self.decodeSummary)
    }

    public func report(tenant: String, id: String) async throws -> StoredReport? {
        try await select(Columns.report, tenant: tenant, id: id, Self.decodeReport)
    }

    public func sanitizedArchive(tenant: String, id: String) async throws -> [UInt8]? {
        try await select("sanitized_archive", tenant: tenant, id: id) { row -> [UInt8]? in
            switch row.column("sanitized_archive") {
            case .blob(let buffer): Array(buffer.readableBytesView)
            case .null: nil
            default: throw ResultStoreError(.storageFailure, "unexpected stored value in column sanitized_archive")
            }
        } ?? nil
    }

    /// One unexpired row of the tenant by id, with the given columns.
    private func select<T: Sendable>(
        _ columns: String, tenant: String, id: String, _ decode: @escaping @Sendable (SQLiteRow) throws -> T
    ) async throws -> T? {
        guard ResultID.isWellFormed(id) else { return nil }
        let nowMilliseconds = Timestamp.milliseconds(now())
        return try await Self.mappingErrors {
            try await pool.withConnection(.reader) { db in
                let rows = try await db.run(
                    "SELECT \(columns) FROM results WHERE id = ?1 AND tenant = ?2 AND expires_at > ?3",
                    [.text(id), .text(tenant), .integer(Int(nowMilliseconds))])
                return try rows.first.map(decode)
            }
        }
    }

    public func list(tenant: String, limit: Int, cursor: ResultCursor?) async throws -> ResultPage {
        let pageSize = try ResultPage.size(limit: limit, maximum: configuration.maximumPageSize)
        let nowMilliseconds = Timestamp.milliseconds(now())
        var sql = "SELECT \(Columns.summary) FROM results WHERE tenant = ?1 AND expires_at > ?2"
        var binds: [SQLiteData] = [.text(tenant), .integer(Int(nowMilliseconds)), .integer(pageSize + 1)]
        if let cursor {
            sql += " AND (created_at, id) < (?4, ?5)"
            binds += [.integer(Int(cursor.createdAtMilliseconds)), .text(cursor.id)]
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?3"
        return try await Self.mappingErrors { [sql, binds] in
            let rows = try await pool.withConnection(.reader) { db in try await db.run(sql, binds) }
            return try ResultPage(rows: rows, pageSize: pageSize, decode: Self.decodeSummary)
        }
    }

    public func delete(tenant: String, id: String) async throws -> Bool {
        guard ResultID.isWellFormed(id) else { return false }
        return try await Self.mappingErrors {
            try await pool.withConnection(.writer) { [now] db in
                let nowMilliseconds = Timestamp.milliseconds(now())
                let rows = try await db.run(
                    "DELETE FROM results WHERE id = ?1 AND tenant = ?2 AND expires_at > ?3 RETURNING id",
                    [.text(id), .text(tenant), .integer(Int(nowMilliseconds))])
                return !rows.isEmpty
            }
        }
    }

    /// Deletes in batches, releasing the writer between them so that puts are not held up.
    public func purgeExpired() async throws -> Int {
        let nowMilliseconds = Timestamp.milliseconds(now())
        var purged = 0
        while true {
            let batch = try await Self.mappingErrors {
                try await pool.withConnection(.writer) { db in
                    try await db.run("""
                        DELETE FROM results WHERE rowid IN
                            (SELECT rowid FROM results WHERE expires_at <= ?1 LIMIT ?2) RETURNING id
                        """, [.integer(Int(nowMilliseconds)), .integer(Self.purgeBatchSize)]).count
                }
            }
            purged += batch
            if batch < Self.purgeBatchSize { break }
        }
        if purged > 0 { logger.debug("purged expired results", metadata: ["count": "\(purged)"]) }
        return purged
    }

    public func healthCheck() async throws {
        try await Self.mappingErrors {
            let readable = try await pool.withConnection(.reader) { db in
                try await db.run("SELECT max(version) AS version FROM schema_migrations").first?.column("version")?.integer
            }
            guard readable == schemaVersion else {
                throw ResultStoreError(.storageFailure, "schema version \(readable.map(String.init) ?? "none"), expected \(schemaVersion)")
            }
            try await pool.withConnection(.writer) { db in _ = try await db.run("SELECT 1") }
        }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, otherwise SQLite's findings.
    public func integrityCheck() async throws -> [String] {
        try await Self.mappingErrors {
            try await pool.withConnection(.reader) { db in
                try await db.run("PRAGMA integrity_check").compactMap { $0.columns.first?.data.string }
            }
        }
    }

    static let purgeBatchSize = 500
}
