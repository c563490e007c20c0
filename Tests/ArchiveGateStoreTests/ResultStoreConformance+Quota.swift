import Foundation
import Testing
@testable import ArchiveGateStore

/// Per-tenant storage quotas and reads that leave the documents alone (issue 15).
extension ResultStoreConformance {
    static func theResultQuotaRefusesOneResultTooMany(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            let quota = StorageQuota(maxBytes: 1 << 40, maxResults: 3)
            var stored: [StoredResult] = []
            for seed in 0..<3 {
                var new = Sample.result(seed: seed)
                new.quota = quota
                stored.append(try await store.put(new).result)
            }
            var fourth = Sample.result(seed: 3)
            fourth.quota = quota
            await #expect(throws: ResultStoreError(.quotaExceeded, "")) { try await store.put(fourth) }
            // A re-upload of a stored result is not a new result: it still answers.
            var again = Sample.result(seed: 1)
            again.quota = quota
            #expect(try await store.put(again) == PutOutcome(result: stored[1], created: false))
            // Another tenant has its own allowance; a deletion frees one.
            var other = Sample.result(tenant: "globex", seed: 3)
            other.quota = quota
            #expect(try await store.put(other).created)
            #expect(try await store.delete(tenant: "acme", id: stored[0].id))
            #expect(try await store.put(fourth).created)
            #expect(try await store.physicalRowCount() == 4) // acme 1, 2, 3 and globex 3
        }
    }

    static func theByteQuotaCountsReportAndJSONOfUnexpiredResults(_ kind: StoreKind) async throws {
        try await withStore(kind, retention: .seconds(60)) { store, clock, _ in
            let report = [UInt8](repeating: UInt8(ascii: "r"), count: 100)
            let json = [UInt8](repeating: UInt8(ascii: "j"), count: 400)
            let quota = StorageQuota(maxBytes: 1000, maxResults: 100)
            func new(_ seed: Int) -> NewResult {
                var new = Sample.result(seed: seed, report: report, json: .some(json))
                new.quota = quota
                return new
            }
            _ = try await store.put(new(1)) // 500 bytes
            clock.advance(seconds: 30)
            _ = try await store.put(new(2)) // 1000 bytes: exactly the quota
            await #expect(throws: ResultStoreError(.quotaExceeded, "")) { try await store.put(new(3)) }
            clock.advance(seconds: 30) // the first expires: its bytes no longer count, purged or not
            #expect(try await store.put(new(3)).created)
        }
    }

    static func summaryAndReportReadWithoutTheJSON(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, clock, _ in
            let accepted = try await store.put(Sample.result(seed: 1)).result
            let rejected = try await store.put(Sample.result(seed: 2, json: .some(nil))).result
            #expect(try await store.summary(tenant: "acme", id: accepted.id) == accepted.summary)
            #expect(try await store.report(tenant: "acme", id: accepted.id) == accepted.storedReport)
            #expect(try await store.summary(tenant: "acme", id: rejected.id)?.hasConvertedJSON == false)
            #expect(try await store.report(tenant: "acme", id: rejected.id) == rejected.storedReport)
            // The same visibility rules as get: another tenant, a malformed id, an expired result.
            #expect(try await store.summary(tenant: "globex", id: accepted.id) == nil)
            #expect(try await store.report(tenant: "globex", id: accepted.id) == nil)
            #expect(try await store.summary(tenant: "acme", id: "' OR 1=1 --") == nil)
            clock.advance(seconds: 3600)
            #expect(try await store.summary(tenant: "acme", id: accepted.id) == nil)
            #expect(try await store.report(tenant: "acme", id: accepted.id) == nil)
        }
    }
}
