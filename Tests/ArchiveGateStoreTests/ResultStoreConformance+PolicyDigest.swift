import Testing
@testable import ArchiveGateStore

/// The policy digest is part of the idempotency key: the same bytes and mode under another policy
/// are a new result; under the same policy, the existing one.
extension ResultStoreConformance {
    static func anotherPolicyDigestIsANewResult(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            var first = Sample.result()
            first.policyDigest = "policy-a"
            let created = try await store.put(first)
            #expect(created.created)
            #expect(try await store.put(first).created == false)

            var second = first
            second.policyDigest = "policy-b"
            second.report = Array(#"{"valid":false}"#.utf8)
            let judgedAgain = try await store.put(second)
            #expect(judgedAgain.created)
            #expect(judgedAgain.result.id != created.result.id)
            #expect(judgedAgain.result.report == second.report)
            #expect(try await store.put(second).result.id == judgedAgain.result.id)
            // The earlier verdict stays readable under its id.
            #expect(try await store.get(tenant: first.tenant, id: created.result.id)?.report == first.report)
        }
    }
}
