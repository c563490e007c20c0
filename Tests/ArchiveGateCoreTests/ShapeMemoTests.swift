import Testing
@testable import ArchiveGateCore

/// `ShapeMemo`: one rule (`KeyedArchive.shape(of:layouts:)`) worked out once per object, for the
/// policy walk and the renderers alike. A collection or dictionary has its shape exactly when its
/// layout reads; malformed ones are read as `{"$class": …}`.
@Suite struct ShapeMemoTests {
    /// The collections of `theShapesOfCollectionsAreWhetherTheirLayoutReads`, and the archive.
    private static func collections() throws -> (archive: KeyedArchive, roots: [UInt32]) {
        var builder = KeyedArchiveBuilder()
        let one = builder.add("one"), two = builder.add("two"), number = builder.add(.integer(2))
        var roots: [UInt32] = []
        roots.append(builder.array(of: [one, two]))
        roots.append(builder.array(of: [one, two], className: "NSSet"))
        roots.append(builder.dictionary(keys: [one, two], values: [number, number]))
        roots.append(builder.dictionary(keys: [number], values: [one]))
        // Malformed: an element that is no reference, counts that differ, no NS.keys, and
        // corelibs' numbered layout (read only by NSOrderedSet, and with a gap).
        roots.append(builder.object(class: builder.classRecord("NSArray"), fields: ["NS.objects": .array([.uid(one), .integer(3)])]))
        roots.append(builder.object(class: builder.classRecord("NSDictionary"),
                                    fields: ["NS.keys": .array([.uid(one), .uid(two)]), "NS.objects": .array([.uid(number)])]))
        roots.append(builder.object(class: builder.classRecord("NSDictionary"), fields: ["NS.objects": .array([.uid(number)])]))
        roots.append(builder.object(class: builder.classRecord("NSOrderedSet"), fields: ["NS.object.0": .uid(one), "NS.object.1": .uid(two)]))
        roots.append(builder.object(class: builder.classRecord("NSOrderedSet"), fields: ["NS.object.0": .uid(one), "NS.object.2": .uid(two)]))
        builder.setTop("root", builder.array(of: roots))
        return (try KeyedArchive(plist: PropertyList.read(builder.binary())), roots)
    }

    @Test func theShapesOfCollectionsAreWhetherTheirLayoutReads() throws {
        let (archive, roots) = try Self.collections()
        let expected: [FoundationShape?] = [.array, .set, .dictionary, .dictionary, nil, nil, nil, .orderedSet, nil]
        #expect(try roots.map { try archive.shape(of: Int($0)) } == expected)
        var memo = ShapeMemo(objectCount: archive.objectCount)
        #expect(roots.map { memo.entry(Int($0)) } == Array(repeating: .unknown, count: roots.count))
        #expect(try roots.map { try memo.shape(of: Int($0), in: archive) } == expected)
        #expect(roots.map { memo.entry(Int($0)) } == expected.map { .known($0) })
    }

    @Test func theWalkHandsTheShapesItReadToTheRenderer() throws {
        let (archive, roots) = try Self.collections()
        var evaluator = PolicyEvaluator(archive: archive, policy: .inspection)
        let shapes = try evaluator.evaluate().shapes
        #expect(shapes.entry(Int(roots[0])) == .known(.array))
        #expect(shapes.entry(Int(roots[4])) == .known(nil))
    }

    @Test func aDictionaryLayoutSaysWhetherEveryKeyIsAString() throws {
        let (archive, roots) = try Self.collections()
        var layouts = LayoutMemo()
        #expect(layouts.dictionary(Int(roots[2]), in: archive)?.stringKeys == true)
        #expect(layouts.dictionary(Int(roots[3]), in: archive)?.stringKeys == false)
        #expect(layouts.dictionary(Int(roots[5]), in: archive) == nil)
        #expect(layouts.collection(Int(roots[7]), in: archive)?.count == 2)
        #expect(layouts.collection(Int(roots[4]), in: archive) == nil)
    }
}
