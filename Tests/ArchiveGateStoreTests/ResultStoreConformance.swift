import ArchiveGateCore
import Foundation
import Testing
@testable import ArchiveGateStore

/// Behaviour every ``ResultStore`` must have, written once and run against each implementation by
/// `SQLiteConformanceTests` and `PostgresConformanceTests`: storing, reading, deleting, isolating.
enum ResultStoreConformance {
    static func putThenGetReturnsTheSameResult(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, clock, _ in
            let outcome = try await store.put(Sample.result(source: .url("https://example.com/a.plist")))
            #expect(outcome.created)
            let stored = outcome.result
            #expect(ResultID.isWellFormed(stored.id))
            #expect(stored.createdAt == clock.now)
            #expect(stored.expiresAt == clock.now.addingTimeInterval(3600))
            #expect(stored.etag == "\"\(stored.id)\"")
            #expect(stored.source == .url("https://example.com/a.plist"))
            #expect(try await store.get(tenant: "acme", id: stored.id) == stored)
        }
    }

    static func reportAndJSONComeBackByteIdentical(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            // Not even UTF-8: the store must never re-encode, trim or parse what it keeps.
            var generator = SystemRandomNumberGenerator()
            let large = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let odd: [UInt8] = [0x7B, 0x00, 0xFF, 0xFE, 0x20, 0x0A, 0x7D, 0x20, 0x20]
            let stored = try await store.put(Sample.result(report: odd, json: .some(large))).result
            let read = try #require(try await store.get(tenant: "acme", id: stored.id))
            #expect(read.report == odd)
            #expect(read.convertedJSON == large)
        }
    }

    static func rejectedArchivesAreStoredWithoutJSON(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            let stored = try await store.put(Sample.result(json: .some(nil))).result
            #expect(try await store.get(tenant: "acme", id: stored.id)?.convertedJSON == nil)
            let page = try await store.list(tenant: "acme", limit: 10, cursor: nil)
            #expect(page.items.map(\.hasConvertedJSON) == [false])
            #expect(page.items == [stored.summary])
        }
    }

    static func anotherTenantsResultIsIndistinguishableFromAMissingOne(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            let mine = try await store.put(Sample.result(tenant: "acme")).result
            let unknown = ResultID.generate()
            #expect(try await store.get(tenant: "globex", id: mine.id) == nil)
            #expect(try await store.get(tenant: "globex", id: unknown) == nil)
            #expect(try await store.delete(tenant: "globex", id: mine.id) == false)
            #expect(try await store.delete(tenant: "globex", id: unknown) == false)
            #expect(try await store.list(tenant: "globex", limit: 10, cursor: nil) == ResultPage(items: [], nextCursor: nil))
            // Still there for its owner.
            #expect(try await store.get(tenant: "acme", id: mine.id) == mine)
            #expect(try await store.list(tenant: "acme", limit: 10, cursor: nil).items.map(\.id) == [mine.id])
        }
    }

    static func deleteRemovesOnlyTheNamedResult(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            let first = try await store.put(Sample.result(seed: 1)).result
            let second = try await store.put(Sample.result(seed: 2)).result
            #expect(try await store.delete(tenant: "acme", id: first.id))
            #expect(try await store.delete(tenant: "acme", id: first.id) == false)
            #expect(try await store.get(tenant: "acme", id: first.id) == nil)
            #expect(try await store.get(tenant: "acme", id: second.id) == second)
        }
    }

    static func malformedIdsAreNotFound(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            for id in ["", "x", "' OR 1=1 --", String(repeating: "A", count: 23), "../../etc/passwd"] {
                let found = try await store.get(tenant: "acme", id: id)
                let deleted = try await store.delete(tenant: "acme", id: id)
                #expect(found == nil)
                #expect(deleted == false)
            }
        }
    }

    static func reUploadOfTheSameArchiveReturnsTheExistingResult(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, clock, _ in
            let first = try await store.put(Sample.result(seed: 7)).result
            clock.advance(seconds: 60)
            // Same tenant, digest and mode: nothing new is written, whatever the new report says.
            let again = try await store.put(Sample.result(seed: 7, report: Array("{}".utf8)))
            #expect(again.created == false)
            #expect(again.result == first)
            // The digest is compared case-insensitively (stored lower-case).
            var upper = Sample.result(seed: 7)
            upper.sha256 = upper.sha256.uppercased()
            #expect(try await store.put(upper).result.id == first.id)
            // Another mode or another tenant is another result.
            let typed = try await store.put(Sample.result(seed: 7, mode: .typed))
            let otherTenant = try await store.put(Sample.result(tenant: "globex", seed: 7))
            #expect(typed.created && otherTenant.created)
            #expect(Set([first.id, typed.result.id, otherTenant.result.id]).count == 3)
            #expect(try await store.physicalRowCount() == 3)
        }
    }

    static func reUploadAfterExpiryStoresAFreshResult(_ kind: StoreKind) async throws {
        try await withStore(kind, retention: .seconds(10)) { store, clock, _ in
            let first = try await store.put(Sample.result(seed: 3)).result
            clock.advance(seconds: 10)
            let second = try await store.put(Sample.result(seed: 3))
            #expect(second.created)
            #expect(second.result.id != first.id)
            #expect(try await store.physicalRowCount() == 1)
        }
    }

    static func invalidInputIsRefused(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            var badDigest = Sample.result()
            badDigest.sha256 = "abc"
            var nonHex = Sample.result()
            nonHex.sha256 = String(repeating: "g", count: 64)
            let noTenant = Sample.result(tenant: "")
            for new in [badDigest, nonHex, noTenant, Sample.result(source: .url(""))] {
                await #expect(throws: ResultStoreError(.invalidArgument, "")) { try await store.put(new) }
            }
            await #expect(throws: ResultStoreError(.invalidArgument, "")) {
                try await store.list(tenant: "acme", limit: 0, cursor: nil)
            }
            let rows = try await store.physicalRowCount()
            #expect(rows == 0)
        }
    }

    static func healthCheckPassesOnAnOpenStoreAndFailsOnAClosedOne(_ kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        let store = try await database.open(clock: ManualClock(), retention: .seconds(3600))
        try await store.healthCheck()
        await store.close()
        await #expect(throws: ResultStoreError(.closed, "")) { try await store.healthCheck() }
        await #expect(throws: ResultStoreError(.closed, "")) { try await store.put(Sample.result()) }
        await database.remove()
    }
}
