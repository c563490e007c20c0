import Foundation
import Testing
@testable import ArchiveGateStore

/// Concurrency, several stores on one database (as several processes or replicas), closing and re-opening.
extension ResultStoreConformance {
    /// `afterwards`: a check of the store's own, run on the store the writers used (SQLite's
    /// `integrity_check`).
    static func thirtyTwoConcurrentWritersAllSucceed(
        _ kind: StoreKind, afterwards: (any TestStore) async throws -> Void = { _ in }
    ) async throws {
        try await withStore(kind) { store, _, _ in
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for seed in 0..<32 {
                    group.addTask {
                        let outcome = try await store.put(Sample.result(tenant: "t\(seed % 4)", seed: seed))
                        // Interleave reads with the writes.
                        _ = try await store.list(tenant: "t\(seed % 4)", limit: 5, cursor: nil)
                        return outcome.result.id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 32)
            #expect(try await store.physicalRowCount() == 32)
            try await afterwards(store)
        }
    }

    /// Two stores stand for two replicas: the same bytes stored through both at once, 32 times
    /// over, yield exactly one result (the database decides, not a read-then-write in either).
    static func theSameArchiveStoredThroughTwoStoresAtOnceGetsOneId(_ kind: StoreKind) async throws {
        try await withStore(kind) { left, clock, database in
            let right = try await database.open(clock: clock, retention: .seconds(3600))
            let outcomes: [PutOutcome]
            do {
                outcomes = try await withThrowingTaskGroup(of: PutOutcome.self) { group in
                    for index in 0..<32 {
                        group.addTask { try await (index.isMultiple(of: 2) ? left : right).put(Sample.result(seed: 42)) }
                    }
                    return try await group.reduce(into: [PutOutcome]()) { $0.append($1) }
                }
            } catch {
                await right.close() // a store must be closed before it is released, also when a put failed
                throw error
            }
            await right.close()
            #expect(Set(outcomes.map(\.result.id)).count == 1)
            #expect(outcomes.filter(\.created).count == 1)
            #expect(Set(outcomes.map(\.result)).count == 1)
            #expect(try await left.physicalRowCount() == 1)
        }
    }

    static func twoStoresOnOneDatabaseSeeEachOthersWrites(_ kind: StoreKind) async throws {
        try await withStore(kind) { left, clock, database in
            let right = try await database.open(clock: clock, retention: .seconds(3600))
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for seed in 0..<32 {
                        group.addTask { _ = try await (seed.isMultiple(of: 2) ? left : right).put(Sample.result(seed: seed)) }
                    }
                    try await group.waitForAll()
                }
                let fromLeft = try await left.listAll(tenant: "acme", pageSize: 10)
                let fromRight = try await right.listAll(tenant: "acme", pageSize: 10)
                #expect(fromLeft.flatMap { $0 }.count == 32)
                #expect(fromLeft == fromRight)
                // Deleted through one, gone through the other.
                let victim = try #require(fromLeft.first?.first)
                #expect(try await right.delete(tenant: "acme", id: victim.id))
                #expect(try await left.get(tenant: "acme", id: victim.id) == nil)
            } catch {
                await right.close() // a store must be closed before it is released, also when a step failed
                throw error
            }
            await right.close()
        }
    }

    static func reOpeningKeepsTheData(_ kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        let clock = ManualClock()
        let first = try await database.open(clock: clock, retention: .seconds(3600))
        let stored = try await first.put(Sample.result()).result
        await first.close()
        await #expect(throws: ResultStoreError(.closed, "")) { try await first.get(tenant: "acme", id: stored.id) }
        let second = try await database.open(clock: clock, retention: .seconds(3600))
        #expect(try await second.get(tenant: "acme", id: stored.id) == stored)
        await second.close()
        await database.remove()
    }

    static func closeWaitsForOperationsInFlight(_ kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        let store = try await database.open(clock: ManualClock(), retention: .seconds(3600))
        async let writes: [Result<PutOutcome, any Error>] = withTaskGroup(of: Result<PutOutcome, any Error>.self) { group in
            for seed in 0..<16 {
                group.addTask {
                    do { return .success(try await store.put(Sample.result(seed: seed))) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await store.close()
        // Every write either finished (and is durable) or was refused as closed; none crashed.
        let outcomes = await writes
        let created = outcomes.compactMap { try? $0.get() }
        for case .failure(let error) in outcomes {
            let code = (error as? ResultStoreError)?.code
            #expect(code == .closed || code == .unavailable, "\(error)")
        }
        let reopened = try await database.open(clock: ManualClock(), retention: .seconds(3600))
        for outcome in created { #expect(try await reopened.get(tenant: "acme", id: outcome.result.id) == outcome.result) }
        await reopened.close()
        await database.remove()
    }
}
