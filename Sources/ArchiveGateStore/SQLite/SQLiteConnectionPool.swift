import NIOPosix
import SQLiteNIO

/// Hands out SQLite connections one task at a time: one writer and a few readers.
///
/// A connection is leased exclusively for the duration of a closure, so the statements of one
/// transaction (`BEGIN IMMEDIATE … COMMIT`, several sqlite-nio calls) can never interleave with
/// another task's. There is a single writer, so writers in this process queue here instead of
/// meeting `SQLITE_BUSY`; WAL lets the readers run beside it. ``close()`` waits for leased
/// connections to come back before closing them, so no query runs on a closed handle, and then
/// stops the connections' thread pool when it owns one.
actor SQLiteConnectionPool {
    enum Role: Sendable {
        case writer
        case reader
    }

    private var idleWriter: SQLiteConnection?
    private var idleReaders: [SQLiteConnection]
    private var writerWaiters: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private var readerWaiters: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private var leasedCount = 0
    private var isClosed = false
    private var drainWaiters: [CheckedContinuation<Void, Never>] = []
    /// The threads the connections run their statements on; stopped by ``close()`` after them.
    private let threadPool: NIOThreadPool?

    init(writer: SQLiteConnection, readers: [SQLiteConnection], threadPool: NIOThreadPool? = nil) {
        self.idleWriter = writer
        self.idleReaders = readers
        self.threadPool = threadPool
    }

    /// Runs `body` with a connection of `role` that no other task uses meanwhile.
    nonisolated func withConnection<T: Sendable>(
        _ role: Role, _ body: @Sendable (SQLiteConnection) async throws -> T
    ) async throws -> T {
        let connection = try await lease(role)
        do {
            let value = try await body(connection)
            await giveBack(connection, role)
            return value
        } catch {
            await giveBack(connection, role)
            throw error
        }
    }

    /// Whether ``close()`` has begun: from then on every lease is refused.
    var refusesLeases: Bool { isClosed }

    /// Refuses new leases, fails queued ones, waits for leased connections, then closes them all.
    func close() async {
        guard !isClosed else { return }
        isClosed = true
        let closedError = ResultStoreError(.closed, "the result store is closed")
        for waiter in writerWaiters + readerWaiters { waiter.resume(throwing: closedError) }
        writerWaiters.removeAll()
        readerWaiters.removeAll()
        if leasedCount > 0 {
            await withCheckedContinuation { drainWaiters.append($0) }
        }
        // The writer closes last: the last connection to close checkpoints the WAL into the file.
        let connections = idleReaders + (idleWriter.map { [$0] } ?? [])
        idleWriter = nil
        idleReaders.removeAll()
        // In a task of its own: a close called from a cancelled task (a test past its time limit, a
        // server shutting down) would throw before closing, and sqlite-nio traps on an open handle.
        await Task { [threadPool] in
            for connection in connections {
                try? await connection.close()
            }
            try? await threadPool?.shutdownGracefully()
        }.value
    }

    private func lease(_ role: Role) async throws -> SQLiteConnection {
        guard !isClosed else { throw ResultStoreError(.closed, "the result store is closed") }
        let idle: SQLiteConnection?
        switch role {
        case .writer:
            idle = idleWriter
            idleWriter = nil
        case .reader:
            idle = idleReaders.popLast()
        }
        leasedCount += 1
        if let idle { return idle }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                switch role {
                case .writer: writerWaiters.append(continuation)
                case .reader: readerWaiters.append(continuation)
                }
            }
        } catch {
            leasedCount -= 1
            resumeDrainWaitersIfIdle()
            throw error
        }
    }

    private func giveBack(_ connection: SQLiteConnection, _ role: Role) {
        // This lease ends; a waiter's lease was counted when it queued.
        leasedCount -= 1
        // Hand the connection straight to the next waiter (first come, first served).
        switch role {
        case .writer:
            if !writerWaiters.isEmpty { return writerWaiters.removeFirst().resume(returning: connection) }
            idleWriter = connection
        case .reader:
            if !readerWaiters.isEmpty { return readerWaiters.removeFirst().resume(returning: connection) }
            idleReaders.append(connection)
        }
        resumeDrainWaitersIfIdle()
    }

    private func resumeDrainWaitersIfIdle() {
        guard leasedCount == 0, !drainWaiters.isEmpty else { return }
        for waiter in drainWaiters { waiter.resume() }
        drainWaiters.removeAll()
    }
}
