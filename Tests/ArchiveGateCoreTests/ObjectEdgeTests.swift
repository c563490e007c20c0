import Testing
@testable import ArchiveGateCore

/// `KeyedArchive.edges(of:shape:layouts:)`: the one enumeration of an object's outgoing edges that
/// the policy walk, the plain renderer, the shape check and the DOT export read — each edge's kind,
/// target, site and JSON-pointer step, in document order.
@Suite struct ObjectEdgeTests {
    /// Every event of `cursor`, one line each: `field KEY`, `KIND → TARGET STEP` for an edge,
    /// `entry …` for a dictionary entry, `inline N` for an inline value in an array field.
    private static func lines(_ cursor: inout EdgeCursor, in archive: KeyedArchive) -> [String] {
        var lines: [String] = []
        while let event = cursor.next() {
            switch event {
            case .field(_, let key, _):
                lines.append("field \(archive.plist.string(at: key) ?? "?")")
            case .edge(let edge):
                lines.append("\(edge.kind)\(edge.position >= 0 ? " \(edge.position)" : "") → \(edge.target) \(edge.step.token(in: archive))")
            case .entry(let key, let value):
                lines.append("entry \(key.target) \(key.step.token(in: archive)) → \(value.target) \(value.step.token(in: archive))")
            case .inlineElement(let position, _):
                lines.append("inline \(position)")
            }
        }
        return lines
    }

    @Test func aCustomObjectsEdgesAreItsUIDFieldsAndTheReferencesInItsInlineArrays() throws {
        var builder = KeyedArchiveBuilder()
        let text = builder.add("text"), number = builder.add(.integer(7))
        let thing = builder.object(class: builder.classRecord("Thing"), fields: [
            "name": .uid(text), "mixed": .array([.uid(number), .integer(3)]), "tags": .array([.uid(text)]), "count": .integer(2),
        ])
        builder.setTop("root", thing)
        let archive = try KeyedArchive(plist: PropertyList.read(builder.binary()))

        var edges = archive.fieldEdges(of: Int(thing))
        #expect(Self.lines(&edges, in: archive) == [
            "field name", "field → \(text) /name",
            "field mixed", "fieldElement → \(number) /mixed/0", "inline 1",
            "field tags", "fieldElement → \(text) /tags/0",
            "field count",
        ])
        // The DOT export's view of the same edges.
        #expect(archive.fieldReferences(of: Int(thing)).map { "\($0.pair) \($0.element ?? -1) \($0.target)" }
            == ["1 -1 \(text)", "2 0 \(number)", "3 0 \(text)"])

        // A reader that deals with a field itself (the walk refusing its key) skips its references.
        var skipping = archive.fieldEdges(of: Int(thing))
        var seen: [String] = []
        while let event = skipping.next() {
            switch event {
            case .field(let pair, _, _): skipping.skipField(); seen.append("field \(pair)")
            case .edge(let edge): seen.append("edge \(edge.target)")
            default: seen.append("other")
            }
        }
        #expect(seen == ["field 1", "field 2", "field 3", "field 4"])
    }

    @Test func aDictionarysEntriesCarryTheStepsOfTheirPlainJSON() throws {
        var builder = KeyedArchiveBuilder()
        let one = builder.add("one"), two = builder.add("t/wo"), number = builder.add(.integer(2))
        let named = builder.dictionary(keys: [one, two], values: [number, one])
        let numbered = builder.dictionary(keys: [number], values: [one])
        builder.setTop("root", builder.array(of: [named, numbered]))
        let archive = try KeyedArchive(plist: PropertyList.read(builder.binary()))
        var layouts = LayoutMemo()

        // String keys: the key renders as the member name, the value under it.
        var edges = archive.edges(of: Int(named), shape: .dictionary, layouts: &layouts)
        #expect(Self.lines(&edges, in: archive) == ["entry \(one)  → \(number) /one", "entry \(two)  → \(one) /t~1wo"])
        // Other keys: `[{"key","value"}]`.
        edges = archive.edges(of: Int(numbered), shape: .dictionary, layouts: &layouts)
        #expect(Self.lines(&edges, in: archive) == ["entry \(number) /0/key → \(one) /0/value"])
        #expect(edges.count == 1 && edges.reads)
    }

    @Test func aFoundationObjectsEdgesAreItsShapesReferenceFieldsThatHoldAUID() throws {
        var builder = KeyedArchiveBuilder()
        let relative = builder.add("https://example.com/")
        let url = builder.object(class: builder.classRecord("NSURL"), fields: ["NS.relative": .uid(relative), "NS.base": .uid(0)])
        let components = builder.object(class: builder.classRecord("NSPersonNameComponents"),
                                        fields: ["NS.givenName": .uid(relative), "NS.familyName": .integer(1)])
        builder.setTop("root", builder.array(of: [url, components]))
        let archive = try KeyedArchive(plist: PropertyList.read(builder.binary()))
        var layouts = LayoutMemo()

        // In table order, not archive order; NSURL's parts render inside its value (no step).
        var edges = archive.edges(of: Int(url), shape: .url, layouts: &layouts)
        #expect(Self.lines(&edges, in: archive) == ["referenceField 0 → 0 ", "referenceField 1 → \(relative) "])
        // A member form's reference fields step to their member; an inline value there is no edge.
        edges = archive.edges(of: Int(components), shape: .personNameComponents, layouts: &layouts)
        #expect(Self.lines(&edges, in: archive) == ["referenceField 2 → \(relative) /givenName"])
        #expect(archive.referenceFieldEdge(of: Int(components), shape: .personNameComponents, index: 4) == nil)
    }

    @Test func anAttributedStringsEdgesAreItsTextThenEachRunsAttributes() throws {
        let bytes = AttributedRunsTests.attributed("abc", dictionaries: ["x", "y"], info: AttributedRunsTests.varints([1, 0, 2, 1]))
        let archive = try KeyedArchive(plist: PropertyList.read(bytes))
        let uid = archive.top[0].uid
        #expect(try archive.shape(of: uid) == .attributedString)
        var layouts = LayoutMemo()
        var edges = archive.edges(of: uid, shape: .attributedString, layouts: &layouts)
        #expect(edges.attributedText == Array("abc".utf16) && edges.count == 2)
        var kinds: [String] = []
        while let event = edges.next() {
            guard case .edge(let edge) = event else { continue }
            let run = edge.kind == .runAttributes ? edges.run(Int(edge.position)) : (start: -1, length: -1)
            kinds.append("\(edge.kind) \(edge.position) \(run.start)+\(run.length) \(edge.step.token(in: archive))")
            if case .runAttributes = edge.kind { #expect(archive.classShape(of: edge.target) == .dictionary) }
        }
        #expect(kinds == ["referenceField 0 -1+-1 ", "runAttributes 0 0+1 /0/attributes", "runAttributes 1 1+2 /1/attributes"])
    }

    @Test func aCollectionWhoseLayoutDoesNotReadHasNoEdges() throws {
        var builder = KeyedArchiveBuilder()
        let one = builder.add("one")
        let broken = builder.object(class: builder.classRecord("NSArray"), fields: ["NS.objects": .array([.uid(one), .integer(3)])])
        let list = builder.array(of: [one, 0, one], className: "NSSet")
        builder.setTop("root", builder.array(of: [broken, list]))
        let archive = try KeyedArchive(plist: PropertyList.read(builder.binary()))
        var layouts = LayoutMemo()

        var edges = archive.edges(of: Int(broken), shape: .array, layouts: &layouts)
        #expect(!edges.reads && Self.lines(&edges, in: archive).isEmpty)
        edges = archive.edges(of: Int(list), shape: .set, layouts: &layouts)
        #expect(Self.lines(&edges, in: archive) == ["element 0 → \(one) /0", "element 1 → 0 /1", "element 2 → \(one) /2"])
    }
}
