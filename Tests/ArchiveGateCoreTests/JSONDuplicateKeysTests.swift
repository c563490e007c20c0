import ArchiveGateCore
import Testing

/// The one duplicate-key check of configuration documents (server.json, tenant files, policies).
@Suite struct JSONDuplicateKeysTests {
    private func duplicate(_ text: String) -> DuplicateJSONKey? {
        JSONDuplicateKeys.first(in: Array(text.utf8))
    }

    @Test func aNameWrittenTwiceInOneObjectIsFoundWithItsPointerAndOffset() throws {
        let found = try #require(duplicate(#"{"limits": {"burst": 1, "burst": 2}}"#))
        #expect(found.key == "burst")
        #expect(found.pointer == "/limits/burst")
        #expect(found.offset == 24)
    }

    @Test func escapedSpellingsOfOneNameAreOneName() {
        #expect(duplicate(#"{"policy": "a.json", "\u0070olicy": {"allow": ["*"]}}"#)?.key == "policy")
        #expect(duplicate(#"{"a\/b": 1, "a/b": 2}"#)?.pointer == "/a~1b")
        #expect(duplicate(#"{"\ud83d\ude00": 1, "😀": 2}"#)?.key == "😀")
    }

    @Test func inArraysTheElementIndexIsInThePointer() {
        #expect(duplicate(#"{"x": [1, {"k": 1}, {"k": 1, "k": [true]}]}"#)?.pointer == "/x/2/k")
    }

    @Test(arguments: [
        #"{"a": 1, "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}"#,
        #"{"a": "\"a\": 1, \"a\""}"#,
        #"[{"x": 1}, {"x": 2}]"#,
        #"{}"#, #"[]"#, #""a""#, #"12.5e3"#,
        #"{"a": 1, "b""#, #"{"a" 1}"#, #"{"a": 1}}"#,  // not JSON: left to the parser
    ])
    func noDuplicateIsNil(_ text: String) {
        #expect(duplicate(text) == nil, "\(text)")
    }

    /// Depth is the attacker's (a policy may come from anywhere): an explicit stack, no recursion.
    @Test func deepNestingDoesNotRecurse() {
        let depth = 200_000
        let text = String(repeating: "[", count: depth) + #"{"a":1,"a":2}"# + String(repeating: "]", count: depth)
        #expect(duplicate(text)?.pointer.hasSuffix("/0/a") == true)
    }

    @Test func aPolicyWithADuplicateIsRefusedAtTheSecondMember() {
        #expect(throws: PolicyError(.duplicateKey, path: "/allow", "")) {
            try Policy.load(json: Array(#"{"allow": ["foundation"], "allow": ["*"]}"#.utf8))
        }
        do {
            _ = try Policy.load(json: Array(#"{"allow": ["*"], "inspection": false, "inspection": true}"#.utf8))
            Issue.record("loaded")
        } catch {
            #expect(error.path == "/inspection")
            #expect(error.message.contains("'inspection'"))
        }
    }
}
