import Foundation
import Testing
@testable import ArchiveGateStore

/// Newest-first cursor pagination, and expiry before and after the purge.
@Suite(.timeLimit(.minutes(2))) struct SQLiteResultStorePaginationTests {
    @Test func pagesCoverEveryResultOnceNewestFirstEvenWithTiedTimestamps() async throws {
        try await withStore { store, clock, _ in
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

    @Test func resultsAddedWhilePagingDoNotShiftLaterPages() async throws {
        try await withStore { store, clock, _ in
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

    @Test func anExactlyFullLastPageHasNoNextCursor() async throws {
        try await withStore { store, _, _ in
            for seed in 0..<4 { _ = try await store.put(Sample.result(seed: seed)) }
            let page = try await store.list(tenant: "acme", limit: 4, cursor: nil)
            #expect(page.items.count == 4)
            #expect(page.nextCursor == nil)
        }
    }

    @Test func theLimitIsCappedByTheMaximumPageSize() async throws {
        try await withStore { store, _, _ in
            for seed in 0..<55 { _ = try await store.put(Sample.result(seed: seed)) }
            let page = try await store.list(tenant: "acme", limit: 1000, cursor: nil)
            #expect(page.items.count == 50)
            #expect(page.nextCursor != nil)
        }
    }

    @Test func listingUsesThePaginationIndex() async throws {
        try await withStore { store, _, _ in
            let plan = try await store.pool.withConnection(.reader) { db in
                try await db.run("""
                    EXPLAIN QUERY PLAN SELECT \(Columns.summary) FROM results
                    WHERE tenant = 'acme' AND expires_at > 0 AND (created_at, id) < (5, 'x')
                    ORDER BY created_at DESC, id DESC LIMIT 10
                    """).compactMap { $0.column("detail")?.string }
            }
            #expect(plan.contains { $0.contains("results_by_tenant_created") }, "plan: \(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
        }
    }

    @Test func expiredResultsAreInvisibleBeforeThePurge() async throws {
        try await withStore(retention: .seconds(60)) { store, clock, _ in
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

    @Test func purgeRemovesExactlyTheExpiredResults() async throws {
        try await withStore(retention: .seconds(60)) { store, clock, _ in
            let expiring = SQLiteResultStore.purgeBatchSize + 3 // more than one batch
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

/// The cursor's text form.
@Suite struct ResultCursorTests {
    @Test func aCursorSurvivesItsTextForm() throws {
        let cursor = ResultCursor(createdAtMilliseconds: 1_800_000_000_123, id: ResultID.generate())
        #expect(try ResultCursor(cursor.description) == cursor)
        #expect(cursor.description.utf8.allSatisfy(Base64URL.isAlphabetByte))
    }

    @Test func cursorsThisStoreDidNotIssueAreRefused() {
        let id = ResultID.generate()
        let forged = [
            "", "%%%", "A", String(repeating: "A", count: 200),
            Base64URL.encode(Array("2:5:\(id)".utf8)),   // unknown version
            Base64URL.encode(Array("1:-5:\(id)".utf8)),  // negative time
            Base64URL.encode(Array("1:05:\(id)".utf8)),  // non-canonical number
            Base64URL.encode(Array("1:5:short".utf8)),   // not an id
            Base64URL.encode(Array("1:5:\(id):x".utf8)), // trailing field
            Base64URL.encode(Array("1:5:\(id)".utf8)) + "=",
        ]
        for text in forged {
            #expect(throws: ResultStoreError(.invalidCursor, ""), "\(text)") { try ResultCursor(text) }
        }
    }

    @Test func idsAre128RandomBitsInBase64URL() {
        let ids = (0..<1000).map { _ in ResultID.generate() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { ResultID.isWellFormed($0) && Base64URL.decode($0)?.count == 16 })
    }
}
