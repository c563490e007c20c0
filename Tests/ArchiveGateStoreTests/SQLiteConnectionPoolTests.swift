import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// Exclusive leasing and orderly shutdown of the store's connections.
@Suite(.timeLimit(.minutes(1))) struct SQLiteConnectionPoolTests {
    static func makePool() async throws -> SQLiteConnectionPool {
        let writer: SQLiteConnection = try await SQLiteConnection.open(storage: .memory)
        let reader: SQLiteConnection = try await SQLiteConnection.open(storage: .memory)
        return SQLiteConnectionPool(writer: writer, readers: [reader])
    }

    @Test func theWriterIsLeasedToOneTaskAtATime() async throws {
        let pool = try await Self.makePool()
        let holders = Locked((current: 0, most: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await pool.withConnection(.writer) { _ in
                        holders.withLock { $0.current += 1; $0.most = max($0.most, $0.current) }
                        await Task.yield()
                        holders.withLock { $0.current -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(holders.withLock { $0.most } == 1)
        await pool.close() // returns: every lease was given back
    }

    @Test func closeWaitsForLeasedConnectionsAndRefusesNewLeases() async throws {
        let pool = try await Self.makePool()
        let (entered, enteredSignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
        let closeReturned = Locked(false)
        let holder = Task {
            try await pool.withConnection(.reader) { _ in
                enteredSignal.yield()
                for await _ in release { break }
                return closeReturned.withLock { $0 }
            }
        }
        for await _ in entered { break }
        let closer = Task {
            await pool.close()
            closeReturned.withLock { $0 = true }
        }
        while await !pool.refusesLeases { await Task.yield() }  // close() has begun
        await #expect(throws: ResultStoreError(.closed, "")) { try await pool.withConnection(.writer) { _ in } }
        releaseSignal.yield()
        #expect(try await holder.value == false) // close had not returned while the lease was out
        await closer.value
        #expect(closeReturned.withLock { $0 })
    }
}
