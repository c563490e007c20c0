import Testing
@testable import ArchiveGateCore

/// The policy walk works out the shape of a collection or dictionary from its layout memo
/// (`PolicyEvaluator.shape(of:)`) instead of `KeyedArchive.shape(of:)`; the renderers reuse what it
/// recorded. The two must agree for every object, well-formed or not.
@Suite struct WalkShapeTests {
    @Test func theWalksShapesAreKeyedArchiveShapes() throws {
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

        let archive = try KeyedArchive(plist: PropertyList.read(builder.binary()))
        var evaluator = PolicyEvaluator(archive: archive, policy: .inspection)
        let shapes = try evaluator.evaluate().shapes
        var compared = 0
        for uid in 1 ..< archive.objectCount {
            guard let walked = shapes.known(uid) else { continue }
            #expect(walked == (try archive.shape(of: uid)), "UID \(uid)")
            compared += 1
        }
        // Every root above and the array holding them were read by the walk.
        #expect(compared >= roots.count + 1)
        // The malformed ones have no shape (they render as `{"$class": …}`).
        #expect(roots.suffix(5).map { shapes.known(Int($0)) } == [.some(nil), .some(nil), .some(nil), .some(.orderedSet), .some(nil)])
    }
}
