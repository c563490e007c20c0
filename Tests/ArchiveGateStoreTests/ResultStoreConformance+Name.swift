import Testing
@testable import ArchiveGateStore

/// The file name an upload may give (issue 34, `POST /v1/archives?name=`): kept with the result,
/// returned by every read and listing, not part of the idempotency key, and checked like any input.
extension ResultStoreConformance {
    static func named(_ name: String?, seed: Int = 1) -> NewResult {
        var new = Sample.result(seed: seed)
        new.name = name
        return new
    }

    static func theUploadNameIsKeptAndListed(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            let name = "Notes – März/ü.archive"
            let stored = try await store.put(named(name)).result
            #expect(stored.name == name)
            #expect(try await store.summary(tenant: "acme", id: stored.id)?.name == name)
            #expect(try await store.report(tenant: "acme", id: stored.id)?.summary.name == name)
            #expect(try await store.get(tenant: "acme", id: stored.id)?.name == name)
            let unnamed = try await store.put(named(nil, seed: 2)).result
            #expect(unnamed.name == nil)
            let listed = try await store.list(tenant: "acme", limit: 10, cursor: nil).items
            #expect(Set(listed.map(\.name)) == [name, nil])

            // The same bytes under another name: the earlier result, with the earlier name.
            let again = try await store.put(named("renamed.archive"))
            #expect(again.created == false)
            #expect(again.result.id == stored.id && again.result.name == name)
        }
    }

    static func aNameWithControlCharactersOrTooLongIsRefused(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _, _ in
            for bad in ["", "a\u{0}b", "line\nbreak", "c1\u{85}", String(repeating: "é", count: 128)] {
                await #expect(throws: ResultStoreError(.invalidArgument, "")) { try await store.put(named(bad)) }
            }
            let longest = String(repeating: "a", count: NewResult.maxNameBytes)
            let kept = try await store.put(named(longest))
            #expect(kept.result.name == longest)
        }
    }
}
