import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The shared ``ResultStore``: one PostgreSQL database that any number of replicas use at once.
///
/// Semantics are the SQLite store's (the same conformance tests run against both): a put returns
/// after COMMIT, so with the server's default `synchronous_commit = on` the result is in the WAL on
/// disk; idempotent re-upload is decided by the unique index on (tenant, sha256, mode, policy
/// digest) through `INSERT … ON CONFLICT DO NOTHING`, so two replicas inserting the same key at
/// the same moment end with one row; migrations and purges take advisory locks so only one replica runs them.
///
/// The connection pool reconnects by itself; while the server cannot be reached every call fails
/// within ``Configuration/operationTimeout`` with ``ResultStoreError/Code/unavailable``.
public final class PostgresResultStore: ResultStore {
    /// The settings this store was opened with (its `description` omits the password).
    public let configuration: Configuration
    /// The schema version the database is at (the newest this build knows).
    public let schemaVersion: Int
    let client: PostgresClient
    let now: @Sendable () -> Date
    let logger: Logger
    private let runTask: Task<Void, Never>
    private let gate = Mutex(Gate())

    /// Calls in flight, so that ``close()`` can wait for them.
    private struct Gate {
        var isClosed = false
        var inFlight = 0
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    /// Advisory lock keys (one 64-bit space per database): "AGmigr" and "AGpurg" in ASCII.
    static let migrationLockKey: Int64 = 0x4147_6D69_6772
    static let purgeLockKey: Int64 = 0x4147_7075_7267
    static let purgeBatchSize = 500

    private init(
        configuration: Configuration, schemaVersion: Int, client: PostgresClient, runTask: Task<Void, Never>,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.configuration = configuration
        self.schemaVersion = schemaVersion
        self.client = client
        self.runTask = runTask
        self.now = now
        self.logger = logger
    }

    /// Connects, then applies pending migrations (once across replicas) before anything else.
    /// - Parameters:
    ///   - now: the clock that stamps `createdAt` and decides expiry; tests inject their own.
    /// - Throws: ``ResultStoreError`` — `unavailable` when the server cannot be reached,
    ///   `schemaTooNew`, `migrationMismatch` or `storageFailure`.
    public static func open(
        configuration: Configuration,
        logger: Logger = Logger(label: "archivegate.store.postgres"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> PostgresResultStore {
        try await open(configuration: configuration, migrations: PostgresMigration.all, logger: logger, now: now)
    }

    /// ``open(configuration:logger:now:)`` with an explicit migration list (tests upgrade with it).
    static func open(
        configuration: Configuration, migrations: [PostgresMigration], logger: Logger, now: @escaping @Sendable () -> Date
    ) async throws -> PostgresResultStore {
        guard configuration.poolSize >= 1, configuration.maximumPageSize >= 1 else {
            throw ResultStoreError(.invalidArgument, "poolSize and maximumPageSize must be at least 1")
        }
        let client = PostgresClient(configuration: Self.clientConfiguration(configuration), backgroundLogger: logger)
        let runTask = Task { await client.run() }
        do {
            let version = try await Self.mappingErrors(timeout: configuration.operationTimeout) {
                try await client.withConnection { connection in
                    try await PostgresMigrator.migrate(
                        connection, migrations: migrations, nowMilliseconds: Timestamp.milliseconds(now()), logger: logger)
                }
            }
            logger.info("result store open", metadata: ["database": "\(configuration)", "schemaVersion": "\(version)"])
            return PostgresResultStore(
                configuration: configuration, schemaVersion: version, client: client, runTask: runTask, now: now, logger: logger)
        } catch {
            runTask.cancel()
            await runTask.value
            throw error
        }
    }

    /// Refuses new calls, waits for the calls in flight, then stops the pool (closing its connections).
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = gate.withLock { gate in
                gate.isClosed = true
                if gate.inFlight == 0 { return true }
                gate.drained.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        runTask.cancel()
        await runTask.value
    }

    // MARK: - ResultStore

    public func put(_ new: NewResult) async throws -> PutOutcome {
        let new = try new.validated()
        let retention = max(0, configuration.retention.storeMilliseconds)
        return try await perform { [now, logger] client in
            // Another replica may delete the row we conflicted with between our INSERT and SELECT;
            // trying again then inserts. Three rounds without either outcome means heavy churn.
            for _ in 0..<3 {
                let outcome: PutOutcome? = try await client.withConnection { connection in
                    try await connection.transaction(logger: logger) {
                        let createdAt = Timestamp.milliseconds(now())
                        // An expired twin is already invisible; removing it frees the unique key.
                        try await connection.run("""
                            DELETE FROM results
                            WHERE tenant = \(new.tenant) AND sha256 = \(new.sha256) AND mode = \(new.mode.rawValue)
                              AND policy_digest = \(new.policyDigest) AND sanitized = \(new.requestsSanitizedArchive)
                              AND expires_at <= \(createdAt)
                            """, logger: logger)
                        if let quota = new.quota {
                            if let existing = try await Self.checkQuota(quota, for: new, at: createdAt, on: connection, logger: logger) {
                                return existing
                            }
                        }
                        let stored = new.stored(createdAt: createdAt, retention: retention)
                        let inserted = try await connection.run(
                            Self.insert(new, stored), logger: logger)
                        if !inserted.isEmpty { return PutOutcome(result: stored, created: true) }
                        // The key exists (committed: ON CONFLICT waited for its transaction to end).
                        let existing = try await connection.run("""
                            SELECT \(unescaped: Self.fullColumns) FROM results
                            WHERE tenant = \(new.tenant) AND sha256 = \(new.sha256) AND mode = \(new.mode.rawValue)
                              AND policy_digest = \(new.policyDigest) AND sanitized = \(new.requestsSanitizedArchive)
                            """, logger: logger)
                        return try existing.first.map { PutOutcome(result: try Self.decodeResult($0), created: false) }
                    }
                }
                if let outcome { return outcome }
            }
            throw ResultStoreError(.busy, "the result was deleted and re-created concurrently three times; try again")
        }
    }

    public func get(tenant: String, id: String) async throws -> StoredResult? {
        try await select(Self.fullColumns, tenant: tenant, id: id, Self.decodeResult)
    }

    public func summary(tenant: String, id: String) async throws -> ResultSummary? {
        try await select(Self.summaryColumns, tenant: tenant, id: id, Self.decodeSummary)
    }

    public func report(tenant: String, id: String) async throws -> StoredReport? {
        try await select(Self.reportColumns, tenant: tenant, id: id, Self.decodeReport)
    }

    public func sanitizedArchive(tenant: String, id: String) async throws -> [UInt8]? {
        try await select("sanitized_archive", tenant: tenant, id: id) { row in
            try row.makeRandomAccess()["sanitized_archive"].decode(ByteBuffer?.self).map { Array($0.readableBytesView) }
        } ?? nil
    }

    /// One unexpired row of the tenant by id, with the given columns.
    private func select<T: Sendable>(
        _ columns: String, tenant: String, id: String, _ decode: @escaping @Sendable (PostgresRow) throws -> T
    ) async throws -> T? {
        guard ResultID.isWellFormed(id) else { return nil }
        let nowMilliseconds = Timestamp.milliseconds(now())
        return try await perform { [logger] client in
            let rows = try await client.run("""
                SELECT \(unescaped: columns) FROM results
                WHERE id = \(id) AND tenant = \(tenant) AND expires_at > \(nowMilliseconds)
                """, logger: logger)
            return try rows.first.map(decode)
        }
    }

    public func list(tenant: String, limit: Int, cursor: ResultCursor?) async throws -> ResultPage {
        let pageSize = try ResultPage.size(limit: limit, maximum: configuration.maximumPageSize)
        let nowMilliseconds = Timestamp.milliseconds(now())
        let limitPlusOne = pageSize + 1
        let query: PostgresQuery = if let cursor {
            """
            SELECT \(unescaped: Self.summaryColumns) FROM results
            WHERE tenant = \(tenant) AND expires_at > \(nowMilliseconds)
              AND (created_at, id) < (\(cursor.createdAtMilliseconds), \(cursor.id))
            ORDER BY created_at DESC, id DESC LIMIT \(limitPlusOne)
            """
        } else {
            """
            SELECT \(unescaped: Self.summaryColumns) FROM results
            WHERE tenant = \(tenant) AND expires_at > \(nowMilliseconds)
            ORDER BY created_at DESC, id DESC LIMIT \(limitPlusOne)
            """
        }
        return try await perform { [logger, query] client in
            let rows = try await client.run(query, logger: logger)
            return try ResultPage(rows: rows, pageSize: pageSize, decode: Self.decodeSummary)
        }
    }

    public func delete(tenant: String, id: String) async throws -> Bool {
        guard ResultID.isWellFormed(id) else { return false }
        return try await perform { [now, logger] client in
            let nowMilliseconds = Timestamp.milliseconds(now())
            let rows = try await client.run("""
                DELETE FROM results WHERE id = \(id) AND tenant = \(tenant) AND expires_at > \(nowMilliseconds) RETURNING id
                """, logger: logger)
            return !rows.isEmpty
        }
    }

    /// Deletes in batches of ``purgeBatchSize`` while holding a session advisory lock, so at most
    /// one replica purges at a time; a replica that finds the lock taken returns 0 at once. The
    /// lock goes with the connection if this process dies.
    public func purgeExpired() async throws -> Int {
        let nowMilliseconds = Timestamp.milliseconds(now())
        let purged = try await perform { [logger] client in
            try await client.withConnection { connection in
                let locked = try await connection.run(
                    "SELECT pg_try_advisory_lock(\(Self.purgeLockKey))", logger: logger).decodeFirst(Bool.self)
                guard locked == true else {
                    logger.debug("another replica is purging")
                    return 0
                }
                do {
                    var purged = 0
                    while true {
                        let batch = try await connection.run("""
                            DELETE FROM results WHERE id IN
                                (SELECT id FROM results WHERE expires_at <= \(nowMilliseconds) LIMIT \(Self.purgeBatchSize))
                            RETURNING id
                            """, logger: logger).count
                        purged += batch
                        if batch < Self.purgeBatchSize { break }
                    }
                    try await connection.run("SELECT pg_advisory_unlock(\(Self.purgeLockKey))", logger: logger)
                    return purged
                } catch {
                    // The connection may be unusable; closing it releases the lock server-side.
                    _ = try? await connection.run("SELECT pg_advisory_unlock(\(Self.purgeLockKey))", logger: logger)
                    throw error
                }
            }
        }
        if purged > 0 { logger.debug("purged expired results", metadata: ["count": "\(purged)"]) }
        return purged
    }

    public func healthCheck() async throws {
        try await perform { [logger, schemaVersion] client in
            let version = try await client.run(
                "SELECT max(version) FROM schema_migrations", logger: logger).decodeFirst(Int32?.self) ?? nil
            guard version.map(Int.init) == schemaVersion else {
                throw ResultStoreError(.storageFailure, "schema version \(version.map { String($0) } ?? "none"), expected \(schemaVersion)")
            }
        }
    }

    /// Runs one store call against the pool, within ``Configuration/operationTimeout``, mapping errors.
    func perform<T: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        let admitted = gate.withLock { gate in
            guard !gate.isClosed else { return false }
            gate.inFlight += 1
            return true
        }
        guard admitted else { throw ResultStoreError(.closed, "the result store is closed") }
        defer {
            let drained = gate.withLock { gate in
                gate.inFlight -= 1
                guard gate.inFlight == 0 else { return [CheckedContinuation<Void, Never>]() }
                defer { gate.drained.removeAll() }
                return gate.drained
            }
            for waiter in drained { waiter.resume() }
        }
        return try await Self.mappingErrors(timeout: configuration.operationTimeout) { [client] in try await body(client) }
    }
}
