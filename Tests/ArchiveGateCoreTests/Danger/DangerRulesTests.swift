import Testing
@testable import ArchiveGateCore

/// A catalogue's rules are built once (`DangerRules`) and shared by every archive's matcher; what
/// they keep of the key entries is exactly what can match a key object.
@Suite struct DangerRulesTests {
    /// An entry recognised by keys, as a custom catalogue would have it.
    static let catalogue = DangerCatalogue(version: 1, entries: [
        DangerEntry(code: .predicate, match: .classes(["NSPredicate"]), keys: ["NSLeft", "NSRight", "NS", "Other"],
                    reason: "r", reference: "x"),
        DangerEntry(code: .expression, match: .classes(["NSExpression"]), keys: ["NSOperandKey"], reason: "r", reference: "x"),
    ])

    @Test func onlyKeysThatCanMatchAreKeptInEntryOrder() {
        let rules = DangerRules(catalogue: Self.catalogue)
        #expect(rules.keys.map(\.name) == ["NSLeft", "NSRight", "NSOperandKey"])
        #expect(rules.keys.map(\.entry) == [0, 0, 1])
        #expect(rules.keys.map(\.utf8) == [Array("NSLeft".utf8), Array("NSRight".utf8), Array("NSOperandKey".utf8)])
        #expect(rules.longestKey == "NSOperandKey".utf8.count)
        #expect(rules.keyEntries.map(\.code) == [.predicate, .expression])
    }

    @Test func theBuiltInRulesKeepEveryBuiltInKey() {
        let builtIn = DangerCatalogue.builtIn.keyEntries.flatMap { $0.keys.sorted() }
        #expect(DangerRules.builtIn.keys.map(\.name) == builtIn)
        #expect(DangerRules.builtIn.urlEntry?.code == DangerCatalogue.builtIn.shapeEntry(.urlBookmark)?.code)
        #expect(DangerRules.builtIn.nestedEntry?.code == DangerCatalogue.builtIn.shapeEntry(.nestedArchive)?.code)
    }

    /// A matcher over a catalogue's rules finds a key at the rules' longest length, and not one a
    /// byte longer or shorter.
    @Test func aMatcherFindsKeysThroughItsRules() throws {
        let rules = DangerRules(catalogue: Self.catalogue)
        for (key, expected) in [("NSOperandKey", "NSOperandKey"), ("NSOperandKeys", nil), ("NSOperandKe", nil), ("NSRight", "NSRight")] {
            let bytes = DangerLookupTests.archive("Note") { _ in ["Title": 1, key: 2] }
            let archive = try KeyedArchive(plist: PropertyList.read(bytes))
            let matcher = DangerMatcher(archive: archive, rules: rules)
            let uid = try #require((1 ..< archive.objectCount).first { archive.archiveClass(of: $0)?.name == "Note" })
            let classIndex = try #require(archive.classIndex(of: uid))
            let match = matcher.match(uid, classIndex: classIndex, in: archive)
            #expect(match?.matched == expected, "\(key)")
            #expect(match.map { $0.via == .keys } ?? true, "\(key)")
        }
    }
}
