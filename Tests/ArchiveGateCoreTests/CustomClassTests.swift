import Foundation
import Testing
@testable import ArchiveGateCore

/// Custom `NSSecureCoding` classes archived by Foundation: `{"$class": …}` objects with their keys,
/// inheritance, optional keys, shared objects expanded at each site, and cycles as `$ref`.
@Suite struct CustomClassTests {
    static let post = "ArchiveGateCoreTests.SamplePost"
    static let imagePost = "ArchiveGateCoreTests.SampleImagePost"
    static let author = "ArchiveGateCoreTests.SampleAuthor"
    static let node = "ArchiveGateCoreTests.SampleNode"
    static let pair = "ArchiveGateCoreTests.SamplePair"

    @Test func aCustomObjectRendersItsClassAndKeys() throws {
        let post = SamplePost(title: "Hello", likes: 3, subtitle: "sub", tags: ["a", "b"], author: SampleAuthor(name: "Ann"))
        try expectFoundationPlain(post, #"{"root":{"$class":"\#(Self.post)","#
            + #""author":{"$class":"\#(Self.author)","name":"Ann"},"likes":3,"subtitle":"sub","tags":["a","b"],"title":"Hello"}}"#)
    }

    @Test func optionalKeysAreAbsentOrNull() throws {
        // `subtitle` is skipped when nil; `author` is encoded as nil, which archives as `$null`.
        let post = SamplePost(title: "T", likes: 0)
        try expectFoundationPlain(post, #"{"root":{"$class":"\#(Self.post)","author":null,"likes":0,"tags":[],"title":"T"}}"#)
    }

    @Test func aSubclassRendersUnderItsOwnNameWithInheritedKeys() throws {
        let post = SampleImagePost(title: "Pic", likes: -1, image: Data([0xCA, 0xFE]), width: 0.5)
        try expectFoundationPlain(post, #"{"root":{"$class":"\#(Self.imagePost)","#
            + #""author":null,"image":"yv4=","likes":-1,"tags":[],"title":"Pic","width":0.5}}"#)
    }

    @Test func reportsListTheClaimedChainWithoutTrustingIt() throws {
        let post = SampleImagePost(title: "Pic", likes: 1, image: Data(), width: 1)
        for format in FixtureFormat.allCases {
            let report = try Inspect.report(FoundationFixture.archive(post, as: format))
            #expect(report.valid)
            let entry = report.classes.first { $0.name == Self.imagePost }
            #expect(entry?.claimedClasses == [Self.imagePost, Self.post, "NSObject"])
            #expect(entry?.count == 1)
            // The foundation policy does not accept the subclass, whatever it claims.
            let strict = try Inspect.report(FoundationFixture.archive(post, as: format), policy: .foundation)
            #expect(!strict.valid)
            #expect(strict.classes.first { $0.name == Self.imagePost }?.allowed == false)
        }
    }

    @Test func userKeysStartingWithDollarKeepTheArchiversEscape() throws {
        let box = SampleBox(.object("v"), extras: [("$class", "not the class"), ("$$twice", 1 as NSNumber)])
        try expectFoundationPlain(box, #"{"root":{"$class":"ArchiveGateCoreTests.SampleBox","#
            + #""$$$twice":1,"$$class":"not the class","value":"v"}}"#)
    }

    @Test func fieldsRenderInArchiveKeyOrder() throws {
        let bytes = HandBuilt.root { builder in
            let record = builder.classRecord("Thing")
            let text = builder.add("t")
            return builder.object(class: record, fields: ["zeta": 1, "alpha": .uid(text), "$$x": 2.5, "mid": [1, "two"]])
        }
        #expect(try Inspect.json(bytes) == #"{"root":{"$class":"Thing","zeta":1,"alpha":"t","$$x":2.5,"mid":[1,"two"]}}"#)
    }

    @Test func inlineScalarsOfEveryKindRender() throws {
        try expectFoundationPlain(SampleBox(.integer(Int.min)), #"{"root":{"$class":"ArchiveGateCoreTests.SampleBox","value":-9223372036854775808}}"#)
        try expectFoundationPlain(SampleBox(.real(-0.75)), #"{"root":{"$class":"ArchiveGateCoreTests.SampleBox","value":-0.75}}"#)
        try expectFoundationPlain(SampleBox(.real(.nan)), #"{"root":{"$class":"ArchiveGateCoreTests.SampleBox","value":"NaN"}}"#)
        try expectFoundationPlain(SampleBox(.bool(false)), #"{"root":{"$class":"ArchiveGateCoreTests.SampleBox","value":false}}"#)
    }

    // MARK: - Sharing

    /// A shared object is written at its first site and referenced at the others (docs/JSON.md "JSON
    /// conventions"); an empty collection (`tags`) is a value and expands at both.
    @Test func aSharedObjectIsWrittenOnceThenReferenced() throws {
        let ann = SampleAuthor(name: "Ann")
        let posts = [SamplePost(title: "1", likes: 1, author: ann), SamplePost(title: "2", likes: 2, author: ann)] as NSArray
        let annJSON = #"{"$class":"\#(Self.author)","name":"Ann"}"#
        try expectFoundationPlain(posts, #"{"root":[{"$class":"\#(Self.post)","author":\#(annJSON),"likes":1,"tags":[],"title":"1"},"#
            + #"{"$class":"\#(Self.post)","author":{"$ref":"/root/0/author"},"likes":2,"tags":[],"title":"2"}]}"#)
        // …while the archive holds the author once.
        let report = try Inspect.report(FoundationFixture.archive(posts, as: .xml))
        #expect(report.classes.first { $0.name == Self.author }?.count == 1)
    }

    /// The key first in archive order (the binary archiver and the XML one order them differently)
    /// holds the object; the other refers to it.
    @Test(arguments: FixtureFormat.allCases)
    func anObjectSharedByTwoKeysOfOneObjectIsReferencedAtTheSecond(format: FixtureFormat) throws {
        let ann = SampleAuthor(name: "Ann")
        let json = try Inspect.json(FoundationFixture.archive(SamplePair(first: ann, second: ann), as: format))
        let annJSON = #"{"$class":"\#(Self.author)","name":"Ann"}"#
        let firstThenSecond = #"{"root":{"$class":"\#(Self.pair)","first":\#(annJSON),"second":{"$ref":"/root/first"}}}"#
        let secondThenFirst = #"{"root":{"$class":"\#(Self.pair)","second":\#(annJSON),"first":{"$ref":"/root/second"}}}"#
        #expect(json == firstThenSecond || json == secondThenFirst, "\(json ?? "nil")")
    }

    @Test func sharingIsBoundedByTheOutputBudget() throws {
        // Ten levels of doubly-shared arrays: 2^10 leaves in the expansion from 12 objects.
        let bytes = HandBuilt.root { builder in
            var current = builder.add("leaf")
            for _ in 0 ..< 10 { current = builder.array(of: [current, current]) }
            return current
        }
        // Each level is written once: the one below, then a `$ref` to it (the strings expand).
        var expected = #"["leaf","leaf"]"#
        for level in 2 ... 10 { expected = #"[\#(expected),{"$ref":"/root\#(String(repeating: "/0", count: 11 - level))"}]"# }
        #expect(try Inspect.json(bytes) == #"{"root":\#(expected)}"#)
        let tight = Inspect.policy(#"{"allow": ["*"], "limits": {"maxOutputNodes": 20}}"#)
        #expect(Inspect.errorCode(bytes, policy: tight) == "archive.output_limit_exceeded")
        let small = Inspect.policy(#"{"allow": ["*"], "limits": {"maxOutputBytes": 100}}"#)
        #expect(Inspect.errorCode(bytes, policy: small) == "archive.output_limit_exceeded")
    }

    // MARK: - Cycles

    @Test func aChildPointingAtItsParentIsARef() throws {
        let top = SampleNode(name: "top")
        top.adopt(SampleNode(name: "leaf"))
        try expectFoundationPlain(top, #"{"root":{"$class":"\#(Self.node)","children":["#
            + #"{"$class":"\#(Self.node)","children":[],"name":"leaf","parent":{"$ref":"/root"}}],"name":"top","parent":null}}"#)
    }

    @Test func aGrandchildRefersToTheNearestAncestorsPointer() throws {
        let top = SampleNode(name: "top")
        let middle = top.adopt(SampleNode(name: "mid"))
        middle.adopt(SampleNode(name: "low"))
        let low = #"{"$class":"\#(Self.node)","children":[],"name":"low","parent":{"$ref":"/root/children/0"}}"#
        let mid = #"{"$class":"\#(Self.node)","children":[\#(low)],"name":"mid","parent":{"$ref":"/root"}}"#
        try expectFoundationPlain(top, #"{"root":{"$class":"\#(Self.node)","children":[\#(mid)],"name":"top","parent":null}}"#)
    }

    @Test func anObjectContainingItselfIsARef() throws {
        let loop = SampleNode(name: "loop")
        loop.parent = loop
        try expectFoundationPlain(loop, #"{"root":{"$class":"\#(Self.node)","children":[],"name":"loop","parent":{"$ref":"/root"}}}"#)
    }

    @Test func siblingsSharingAParentAreNotCycles() throws {
        // Both children point at `top`: two refs, and the second child is fully expanded.
        let top = SampleNode(name: "top")
        top.adopt(SampleNode(name: "a"))
        top.adopt(SampleNode(name: "b"))
        let child = { (name: String) in #"{"$class":"\#(Self.node)","children":[],"name":"\#(name)","parent":{"$ref":"/root"}}"# }
        try expectFoundationPlain(top, #"{"root":{"$class":"\#(Self.node)","children":[\#(child("a")),\#(child("b"))],"name":"top","parent":null}}"#)
    }

    @Test func refPointersEscapeTopKeys() throws {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("Loop")
        let loop = builder.reserve()
        builder.set(loop, to: ["$class": .uid(record), "self": .uid(loop)])
        builder.setTop("a/b~c", loop)
        #expect(try Inspect.json(builder.binary()) == #"{"a/b~c":{"$class":"Loop","self":{"$ref":"/a~1b~0c"}}}"#)
    }

    @Test func aCycleThroughACollectionAndAnObjectIsARef() throws {
        let loop = SampleNode(name: "loop")
        loop.adopt(loop)
        try expectFoundationPlain(loop, #"{"root":{"$class":"\#(Self.node)","children":[{"$ref":"/root"}],"#
            + #""name":"loop","parent":{"$ref":"/root"}}}"#)
    }

    /// No decoder can build collections that contain only each other: an error, not a `$ref`.
    @Test func aCycleOfCollectionsAloneIsAnError() throws {
        // An array holding a dictionary whose value is the array again.
        let bytes = HandBuilt.root { builder in
            let array = builder.reserve()
            let key = builder.add("back")
            let dictionary = builder.dictionary(keys: [key], values: [array])
            let record = builder.classRecord("NSMutableArray")
            builder.set(array, to: ["$class": .uid(record), "NS.objects": [.uid(dictionary)]])
            return array
        }
        #expect(Inspect.errorCode(bytes) == "archive.collection_cycle")
        #expect(throws: ArchiveGateError.archive(ArchiveError(.collectionCycle, path: "", ""))) {
            try ArchiveInspector(policy: .inspection).validate(bytes)
        }
    }
}
