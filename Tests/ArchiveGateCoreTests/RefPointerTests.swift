import Testing
@testable import ArchiveGateCore

/// `{"$ref": …}` pointers (docs/JSON.md "JSON conventions"): the JSON pointer of the object's first
/// rendering in document order, its tokens escaped (`~` → `~0`, `/` → `~1`), the same from every
/// site and every depth, for references to an open ancestor (cycles) and to an object written
/// earlier.
@Suite struct RefPointerTests {
    /// A chain of `depth` objects, each with `up` (its parent), `next/~` (the level below) and
    /// `shé/d` (one object shared by every level), then `$top` entries referring to that object and
    /// a middle level again. The deepest level writes the shared object first (its `next/~` comes
    /// before `shé/d`), so every shallower one refers down to that deep pointer.
    @Test(arguments: [1, 2, 40, 300])
    func sharedObjectsReferredToFromEveryDepth(depth: Int) throws {
        var builder = KeyedArchiveBuilder()
        let level = builder.classRecord("Level")
        let sharedClass = builder.classRecord("Shared")
        let shared = builder.object(class: sharedClass, fields: ["v": 1])
        let levels = (0 ..< depth).map { _ in builder.reserve() }
        for index in 0 ..< depth {
            var entries = [PropertyListValue.Entry(key: "$class", value: .uid(level)),
                           PropertyListValue.Entry(key: "up", value: .uid(index == 0 ? 0 : levels[index - 1]))]
            if index + 1 < depth { entries.append(.init(key: "next/~", value: .uid(levels[index + 1]))) }
            entries.append(.init(key: "shé/d", value: .uid(shared)))
            builder.set(levels[index], to: .dictionary(entries))
        }
        let middle = depth / 2
        builder.setTop("root", levels[0])
        builder.setTop("other", builder.dictionary(keys: [builder.add("k/1")], values: [shared]))
        builder.setTop("list", builder.array(of: [shared, levels[middle], levels[0]]))

        // The rule, spelled independently: level i is at "/root" + "/next~1~0" × i.
        func levelPointer(_ index: Int) -> String { "/root" + String(repeating: "/next~1~0", count: index) }
        let sharedPointer = levelPointer(depth - 1) + "/sh\u{e9}~1d"
        var json = ""
        for index in (0 ..< depth).reversed() {
            let up = index == 0 ? "null" : #"{"$ref":"\#(levelPointer(index - 1))"}"#
            let next = index + 1 < depth ? #","next/~":\#(json)"# : ""
            let sharedJSON = index == depth - 1 ? #"{"$class":"Shared","v":1}"# : #"{"$ref":"\#(sharedPointer)"}"#
            json = #"{"$class":"Level","up":\#(up)\#(next),"shé/d":\#(sharedJSON)}"#
        }
        let sharedRef = #"{"$ref":"\#(sharedPointer)"}"#
        let expected = #"{"root":\#(json),"other":{"k/1":\#(sharedRef)},"#
            + #""list":[\#(sharedRef),{"$ref":"\#(levelPointer(middle))"},{"$ref":"/root"}]}"#
        #expect(try Inspect.json(builder.binary()) == expected)
    }

    /// Keys that need JSON escaping inside a pointer (a quote, a backslash, a control character)
    /// are escaped once, as the JSON string they are part of.
    @Test func pointerTokensAreEscapedAsJSONStrings() throws {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("Loop")
        let loop = builder.reserve()
        builder.set(loop, to: .dictionary([.init(key: "$class", value: .uid(record)), .init(key: "self", value: .uid(loop))]))
        let holder = builder.object(class: builder.classRecord("Holder"), fields: ["q\"\\\t~/": .uid(loop)])
        builder.setTop("root", holder)
        builder.setTop("again", loop)
        let pointer = #"/root/q\"\\\t~0~1"#
        #expect(try Inspect.json(builder.binary())
            == #"{"root":{"$class":"Holder","q\"\\\t~/":{"$class":"Loop","self":{"$ref":"\#(pointer)"}}},"again":{"$ref":"\#(pointer)"}}"#)
    }
}
