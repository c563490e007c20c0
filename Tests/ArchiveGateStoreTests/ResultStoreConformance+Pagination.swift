import Foundation
import Testing
@testable import ArchiveGateStore

/// Newest-first cursor pagination, and expiry before and after the purge.
extension ResultStoreConformance {
    static func pagesCoverEveryResultOnceNewestFirstEvenWithTiedTimestamps(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, clock, _ in
            var ids: [(createdAt: Date, id: String)] = []
            // Three instants, nine results each: most neighbours share createdAt and are ordered by id.
            for instant in 0..<3 {
                for index in 0..<9 {
                    let result = try await store.put(Sample.result(seed: instant * 100 + index)).result
                    ids.append((result.createdAt, result.id))
                }
                clock.advance(seconds: 1)
            }
            _ = try await store.put(Sample.result(tenant: "globex", seed: 1))
            let expected = ids.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.map(\.id)
            let pages = try await store.listAll(tenant: "acme", pageSize: 4)
            #expect(pages.map(\.count) == [4, 4, 4, 4, 4, 4, 3])
            #expect(pages.flatMap { $0.map(\.id) } == expected)
        }
    }

    static func resultsAddedWhilePagingDoNotShiftLaterPages(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, clock, _ in
            for seed in 0..<6 {
                _ = try await store.put(Sample.result(seed: seed))
                clock.advance(seconds: 1)
            }
            let first = try await store.list(tenant: "acme", limit: 3, cursor: nil)
            _ = try await store.put(Sample.result(seed: 99)) // newer than everything
            let second = try await store.list(tenant: "acme", limit: 3, cursor: first.nextCursor)
            #expect(Set(first.items.map(\.id)).isDisjoint(with: second.items.map(\.id)))
            #expect(second.items.count == 3)
            #expect(second.nextCursor == nil)
        }
    }

    static func anExactlyFullLastPageHasNoNextCursor(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            for seed in 0..<4 { _ = try await store.put(Sample.result(seed: seed)) }
            let page = try await store.list(tenant: "acme", limit: 4, cursor: nil)
            #expect(page.items.count == 4)
            #expect(page.nextCursor == nil)
        }
    }

    static func theLimitIsCappedByTheMaximumPageSize(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            for seed in 0..<55 { _ = try await store.put(Sample.result(seed: seed)) }
            let page = try await store.list(tenant: "acme", limit: 1000, cursor: nil)
            #expect(page.items.count == 50)
            #expect(page.nextCursor != nil)
        }
    }

    static func expiredResultsAreInvisibleBeforeThePurge(_ kind: StoreKind) async throws {
        try await withStore(kind, retention: .seconds(60)) { store, clock, _ in
            let old = try await store.put(Sample.result(seed: 1)).result
            clock.advance(seconds: 30)
            let young = try await store.put(Sample.result(seed: 2)).result
            clock.advance(seconds: 30) // `old` expires exactly now
            #expect(try await store.get(tenant: "acme", id: old.id) == nil)
            #expect(try await store.delete(tenant: "acme", id: old.id) == false)
            #expect(try await store.list(tenant: "acme", limit: 10, cursor: nil).items.map(\.id) == [young.id])
            #expect(try await store.get(tenant: "acme", id: young.id) == young)
            #expect(try await store.physicalRowCount() == 2)
        }
    }

    static func purgeRemovesExactlyTheExpiredResults(_ kind: StoreKind) async throws {
        try await withStore(kind, retention: .seconds(60)) { store, clock, _ in
            let expiring = max(SQLiteResultStore.purgeBatchSize, PostgresResultStore.purgeBatchSize) + 3 // more than one batch
            for seed in 0..<expiring { _ = try await store.put(Sample.result(tenant: "t\(seed % 3)", seed: seed)) }
            clock.advance(seconds: 59)
            let live = try await store.put(Sample.result(seed: 100_000)).result
            #expect(try await store.purgeExpired() == 0)
            clock.advance(seconds: 1)
            #expect(try await store.purgeExpired() == expiring)
            #expect(try await store.physicalRowCount() == 1)
            #expect(try await store.get(tenant: "acme", id: live.id) == live)
            #expect(try await store.purgeExpired() == 0)
        }
    }
}
