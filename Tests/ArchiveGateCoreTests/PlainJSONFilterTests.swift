import Testing
@testable import ArchiveGateCore

/// `--class-names drop` and `--nulls drop` on rendered plain JSON.
@Suite struct PlainJSONFilterTests {
    static let both = PlainJSONFilter(dropsClassNames: true, dropsNulls: true)

    @Test(arguments: [
        (#"{"root":{"$class":"Memo","title":"t","note":null}}"#, #"{"root":{"title":"t"}}"#),
        (#"{"root":{"a":null,"b":null}}"#, #"{"root":{}}"#),
        (#"{"root":{"a":null,"$class":"X","b":1}}"#, #"{"root":{"b":1}}"#),
        (#"{"root":[null,{"$class":"X"},null]}"#, #"{"root":[null,{},null]}"#),
        // Strings that look like members are data, not structure.
        (#"{"root":{"s":"\"$class\":\"no\",\"x\":null","t":"a\\"}}"#, #"{"root":{"s":"\"$class\":\"no\",\"x\":null","t":"a\\"}}"#),
        (#"{"root":{"$$class":"user key","n":{"$ref":"/root"}}}"#, #"{"root":{"$$class":"user key","n":{"$ref":"/root"}}}"#),
    ])
    func dropsClassAndNullMembersOnly(input: String, expected: String) {
        #expect(String(decoding: Self.both.apply(Array(input.utf8)), as: UTF8.self) == expected)
    }

    @Test func eachSwitchAlone() {
        let input = Array(#"{"root":{"$class":"X","n":null}}"#.utf8)
        #expect(String(decoding: PlainJSONFilter(dropsClassNames: true).apply(input), as: UTF8.self) == #"{"root":{"n":null}}"#)
        #expect(String(decoding: PlainJSONFilter(dropsNulls: true).apply(input), as: UTF8.self) == #"{"root":{"$class":"X"}}"#)
        #expect(PlainJSONFilter().apply(input) == input)
    }

    @Test func deepNestingCostsNoStack() {
        let depth = 100_000
        let input = Array((String(repeating: #"{"a":"#, count: depth) + "null" + String(repeating: "}", count: depth)).utf8)
        let output = Self.both.apply(input)
        #expect(output.count == input.count - 8)  // only the innermost `"a":null` goes
    }

    /// The indented bytes, spelled out (as the whole-document printer wrote them before it became
    /// the streaming one fed once): `StreamedRenderingTests` compares the two paths with each
    /// other, this pins what both write.
    @Test func indentedOutputIsPinned() {
        let input = Array(#"{"root":{"$class":"Memo","title":"t\"\\","note":null,"e":{},"a":[],"n":[null,{"$class":"X"},null]},"k":{"a":null}}"#.utf8)
        let filtered = """
        {
          "root": {
            "title": "t\\"\\\\",
            "e": {},
            "a": [],
            "n": [
              null,
              {},
              null
            ]
          },
          "k": {}
        }

        """
        let kept = """
        {
          "root": {
            "$class": "Memo",
            "title": "t\\"\\\\",
            "note": null,
            "e": {},
            "a": [],
            "n": [
              null,
              {
                "$class": "X"
              },
              null
            ]
          },
          "k": {
            "a": null
          }
        }

        """
        #expect(String(decoding: Self.both.apply(input, pretty: true), as: UTF8.self) == filtered)
        #expect(String(decoding: PlainJSONFilter().apply(input, pretty: true), as: UTF8.self) == kept)
    }
}
