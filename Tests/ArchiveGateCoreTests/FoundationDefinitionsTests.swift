import Testing
@testable import ArchiveGateCore

/// The definitions table (`FoundationShape+Definitions.swift`) is the one place a Foundation class
/// is described: its case and its definition. These tests hold the properties that make that
/// true: every table ArchiveGate derives from it answers for every class without a row of its own.
@Suite struct FoundationDefinitionsTests {
    /// The root object of `bytes` and the archive.
    private static func rootObject(_ bytes: [UInt8]) throws -> (archive: KeyedArchive, uid: Int) {
        let archive = try KeyedArchive(plist: PropertyList.read(bytes))
        return (archive, try #require(archive.top.first { $0.name == "root" }).uid)
    }

    @Test func everyClassNameOfADefinitionReadsAsItsShape() {
        var seen = Set<String>()
        for shape in FoundationShape.allCases {
            let names = shape.definition.classNames
            #expect(!names.isEmpty, "\(shape) has no class name")
            for name in names {
                #expect(seen.insert(name).inserted, "\(name) is in two definitions")
                #expect(FoundationShape(className: name) == shape, "\(name)")
                // The class tag the archive reader stores (ordinal + 1) gives the shape back.
                #expect(ArchiveClass(name: name, claimedChain: [name, "NSObject"], isInline: false).shape == shape, "\(name)")
            }
        }
        #expect(FoundationShape.byClassName.count == seen.count)
        #expect(ArchiveClass(name: "MyCustomClass", claimedChain: ["MyCustomClass", "NSObject"], isInline: false).shape == nil)
    }

    @Test func ordinalsAreTheDeclarationPositionsAndFitThePerObjectTables() {
        for (position, shape) in FoundationShape.allCases.enumerated() {
            #expect(shape.ordinal == position, "\(shape)")
            #expect(FoundationShape.byOrdinal[shape.ordinal] == shape)
        }
        let count = FoundationShape.allCases.count
        #expect(FoundationShape.definitionsByOrdinal.count == count)
        #expect(FoundationShape.readersByOrdinal.count == count && FoundationShape.rulesByOrdinal.count == count)
        // `ShapeMemo` keeps an ordinal per object in an Int8 (negative codes are its own), and
        // `ArchiveClass.tag` ordinal + 1 in its low byte.
        #expect(count <= Int(Int8.max) + 1)
        #expect(count < 0xFF)
    }

    @Test func theKeysARuleReadsAreDistinctFromTheFieldsAndTheKeysShownElsewhereAreNotKept() {
        for shape in FoundationShape.allCases {
            let definition = shape.definition
            let fieldKeys = Set(definition.fields.map(\.key.description))
            #expect(fieldKeys.count == definition.fields.count, "\(shape) lists a field twice")
            #expect(fieldKeys.isDisjoint(with: definition.ruleKeys), "\(shape) lists a field as a rule key")
            for key in definition.ruleKeys + Array(fieldKeys) {
                #expect(shape.keepsField(key), "\(shape) \(key)")
            }
            // A key sanitize keeps is checked, so it is not merely "shown in another form".
            for key in definition.shownInAnotherForm {
                #expect(!shape.keepsField(key), "\(shape) \(key)")
            }
        }
    }

    /// NSTimeZone's rule lives in `KeyedArchive+TimeZone.swift`; the shape check finds it through
    /// the definition, and reports what it reports, after the fields' checks.
    @Test func aClassRuleIsFoundThroughItsDefinition() throws {
        let (archive, uid) = try Self.rootObject(HandBuilt.root { builder in
            builder.object(class: builder.classRecord("NSTimeZone"),
                           fields: ["NS.name": .uid(builder.add("Nowhere/City")), "NS.data": .uid(0)])
        })
        let rule = try #require(FoundationShape.timeZone.definition.check)
        var object = ShapeCheckObject(uid: uid, shape: .timeZone, className: "NSTimeZone", layouts: LayoutMemo(), problems: [])
        rule(archive, &object)
        #expect(object.problems.map(\.code) == [.invalidValue])
        #expect(object.problems.map(\.key) == ["NS.name"])
        #expect(archive.shapeProblems(of: uid, as: .timeZone).map(\.message) == object.problems.map(\.message))
        // Read with its shape all the same: its `reads` asks only for a name string.
        #expect(try archive.shape(of: uid) == .timeZone)
    }

    /// What must read for an object to take its shape is its definition's `reads`; a definition
    /// without one (NSNull) takes the shape whatever its fields.
    @Test func theShapeDecisionIsTheDefinitionsReader() throws {
        let (archive, uid) = try Self.rootObject(HandBuilt.root { builder in
            let good = builder.object(class: builder.classRecord("NSLocale"), fields: ["NS.identifier": .uid(builder.add("fr_FR"))])
            let bad = builder.object(class: builder.classRecord("NSLocale"), fields: ["NS.identifier": .uid(builder.add(3))])
            let null = builder.object(class: builder.classRecord("NSNull"), fields: ["stray": 1])
            return builder.array(of: [good, bad, null])
        })
        let elements = try #require(archive.collectionElements(uid)).map(\.target)
        let reads = try #require(FoundationShape.locale.definition.reads)
        var layouts = LayoutMemo()
        #expect(elements.prefix(2).map { reads(archive, $0, &layouts) } == [true, false])
        #expect(try elements.map { try archive.shape(of: $0) } == [.locale, nil, .null])
        #expect(FoundationShape.null.definition.reads == nil)
    }
}
