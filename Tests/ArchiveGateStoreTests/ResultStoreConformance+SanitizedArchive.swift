import Testing
@testable import ArchiveGateStore

/// The sanitized archive a result may keep (issue 19, `POST /v1/archives?sanitize=true`): stored
/// byte for byte, read back only by `sanitizedArchive(tenant:id:)`, under the same visibility rules
/// as everything else, counted in the quota, and asking for it is part of the idempotency key.
extension ResultStoreConformance {
    static func sanitized(seed: Int = 1, archive: [UInt8]?, quota: StorageQuota? = nil) -> NewResult {
        var new = Sample.result(seed: seed, json: .some(archive == nil ? nil : Array(#"{"n":\#(seed)}"#.utf8)))
        new.requestsSanitizedArchive = true
        new.sanitizedArchive = archive
        new.quota = quota
        return new
    }

    static func theSanitizedArchiveComesBackByteIdenticalThroughItsOwnCallOnly(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, clock, _ in
            // Not a property list, not UTF-8: the store keeps bytes, it never parses them.
            var generator = SystemRandomNumberGenerator()
            let archive = (0..<(300 << 10)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let stored = try await store.put(sanitized(archive: archive)).result
            #expect(stored.hasSanitizedArchive)
            #expect(try await store.sanitizedArchive(tenant: "acme", id: stored.id) == archive)
            #expect(try await store.summary(tenant: "acme", id: stored.id) == stored.summary)
            #expect(try await store.report(tenant: "acme", id: stored.id) == stored.storedReport)
            #expect(try await store.get(tenant: "acme", id: stored.id) == stored)
            #expect(try await store.list(tenant: "acme", limit: 10, cursor: nil).items == [stored.summary])

            let without = try await store.put(Sample.result(seed: 2)).result
            let rejected = try await store.put(sanitized(seed: 3, archive: nil)).result
            for other in [without, rejected] {
                #expect(other.hasSanitizedArchive == false)
                #expect(try await store.summary(tenant: "acme", id: other.id)?.hasSanitizedArchive == false)
                #expect(try await store.sanitizedArchive(tenant: "acme", id: other.id) == nil)
            }
            // The same visibility rules as get: another tenant, a malformed id, an expired result.
            #expect(try await store.sanitizedArchive(tenant: "globex", id: stored.id) == nil)
            #expect(try await store.sanitizedArchive(tenant: "acme", id: "' OR 1=1 --") == nil)
            clock.advance(seconds: 3600)
            #expect(try await store.sanitizedArchive(tenant: "acme", id: stored.id) == nil)
        }
    }

    static func askingForTheSanitizedArchiveIsPartOfTheIdempotencyKey(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            let plain = try await store.put(Sample.result())
            let asked = try await store.put(sanitized(archive: [0x62, 0x70]))
            #expect(plain.created && asked.created)
            #expect(plain.result.id != asked.result.id)
            let again = try await store.put(sanitized(archive: [0x62, 0x70]))
            #expect(again.created == false)
            #expect(again.result == asked.result)
            #expect(try await store.put(Sample.result()).result == plain.result)
        }
    }

    static func theByteQuotaCountsTheSanitizedArchive(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            // Report and JSON of Sample seed 1 and 2, plus 100 archive bytes each.
            let archive = [UInt8](repeating: 0x61, count: 100)
            let first = sanitized(seed: 1, archive: archive)
            let second = sanitized(seed: 2, archive: archive)
            let perResult = Int64(first.report.count + first.convertedJSON!.count + archive.count)
            var tooSmall = second
            tooSmall.quota = StorageQuota(maxBytes: 2 * perResult - 1, maxResults: 100)
            var exact = second
            exact.quota = StorageQuota(maxBytes: 2 * perResult, maxResults: 100)
            _ = try await store.put(first)
            await #expect(throws: ResultStoreError(.quotaExceeded, "")) { try await store.put(tooSmall) }
            #expect(try await store.put(exact).created)
        }
    }

    static func anArchiveNobodyAskedForIsRefused(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            var new = Sample.result()
            new.sanitizedArchive = [1, 2, 3]
            await #expect(throws: ResultStoreError(.invalidArgument, "")) { try await store.put(new) }
            let page = try await store.list(tenant: "acme", limit: 10, cursor: nil)
            #expect(page.items.isEmpty)
        }
    }
}
