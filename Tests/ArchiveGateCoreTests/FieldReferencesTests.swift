import Testing
@testable import ArchiveGateCore

/// `KeyedArchive.fieldReferences(of:)`: the references an instance holds as stored, whatever its class.
@Suite struct FieldReferencesTests {
    @Test func uidFieldsAndUidElementsOfArrayFieldsInFieldOrder() throws {
        var builder = KeyedArchiveBuilder()
        let text = builder.add("text"), number = builder.add(.integer(7))
        let record = builder.classRecord("Thing")
        let thing = builder.object(class: record, fields: ["name": .uid(text), "mixed": .array([.uid(number), .integer(3), .uid(0), .uid(text)]),
                                                           "count": .integer(2)])
        let list = builder.array(of: [thing, text])
        builder.setTop("root", list)
        let archive = try KeyedArchive(plist: PropertyList.read(builder.binary()))

        let references = archive.fieldReferences(of: Int(thing))
        let index = archive.plistIndex(of: Int(thing))
        let named = references.map { reference in
            (archive.plist.string(at: archive.plist.dictionaryKey(index, pair: reference.pair)) ?? "?", reference.element, reference.target)
        }
        // `$null` (UID 0) is a reference like any other; the inline 3 and the count are not.
        let expected: [(String, Int?, Int)] = [("name", nil, Int(text)), ("mixed", 0, Int(number)), ("mixed", 2, 0), ("mixed", 3, Int(text))]
        #expect(named.count == expected.count)
        for (found, wanted) in zip(named.sorted { ($0.0, $0.1 ?? -1) < ($1.0, $1.1 ?? -1) }, expected.sorted { ($0.0, $0.1 ?? -1) < ($1.0, $1.1 ?? -1) }) {
            #expect(found.0 == wanted.0 && found.1 == wanted.1 && found.2 == wanted.2)
        }
        // An NSArray's elements are an array field like any other at this level.
        #expect(archive.fieldReferences(of: Int(list)).map(\.target) == [Int(thing), Int(text)])
        // Inline scalars and `$null` hold none.
        #expect(archive.fieldReferences(of: Int(text)).isEmpty && archive.fieldReferences(of: 0).isEmpty)
    }
}
