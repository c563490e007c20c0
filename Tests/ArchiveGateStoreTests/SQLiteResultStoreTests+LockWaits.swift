import Foundation
import SQLiteNIO
import Testing
@testable import ArchiveGateStore

/// Several stores on one file wait for each other's write lock inside SQLite's busy handler, which
/// sleeps on the thread running the statement. The store holding the lock must still get a thread
/// for its COMMIT: each store runs its connections on threads of its own.
@Suite(.timeLimit(.minutes(2))) struct SQLiteResultStoreLockWaitTests {
    @Test func aStoreHoldingTheLockCommitsWhileOthersWaitForIt() async throws {
        let database = try TemporaryDatabase()
        defer { try? FileManager.default.removeItem(at: database.directory) }
        let clock = ManualClock()
        let holder = try await database.open(clock: clock)
        // More waiting stores than this machine has cores: on a shared pool of one thread per core
        // they would hold every thread while they wait.
        var opened: [SQLiteResultStore] = []
        for _ in 0..<4 { opened.append(try await database.open(clock: clock)) }
        let waiting = opened
        let started = AsyncStream<Void>.makeStream()
        let outcomes = try await holder.pool.withConnection(.writer) { db in
            try await db.run("BEGIN IMMEDIATE")
            async let puts: [Result<PutOutcome, any Error>] = withTaskGroup(of: Result<PutOutcome, any Error>.self) { group in
                for (index, store) in waiting.enumerated() {
                    group.addTask {
                        started.continuation.yield()
                        do { return .success(try await store.put(Sample.result(seed: index))) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            var count = 0
            for await _ in started.stream {
                count += 1
                if count == waiting.count { break }
            }
            // The waiting puts are on their way into BEGIN IMMEDIATE (the lock is held since ours);
            // the holder's COMMIT needs a thread while they wait.
            try await db.run("COMMIT")
            return await puts
        }
        for outcome in outcomes {
            #expect(throws: Never.self) { try outcome.get() }
        }
        #expect(try await holder.physicalRowCount() == waiting.count)
        for store in waiting { await store.close() }
        await holder.close()
    }
}
