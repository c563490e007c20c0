import Foundation
import Testing
@testable import ArchiveGateCore

@Suite struct KeyedArchiveBuilderTests {
    static let foundationClasses: [AnyClass] = [NSArray.self, NSString.self, NSDictionary.self, NSNumber.self]

    @Test func buildsTheShapeNSKeyedArchiverWrites() throws {
        var archive = KeyedArchiveBuilder()
        let post = archive.classRecord("Post", chain: ["Post", "NSObject"])
        let title = archive.add("hi")
        let root = archive.object(class: post, fields: ["title": .uid(title), "likes": 3])
        archive.setTop("root", root)

        let expected: PropertyListValue = [
            "$version": 100_000,
            "$archiver": "NSKeyedArchiver",
            "$top": ["root": .uid(3)],
            "$objects": [
                "$null",
                ["$classname": "Post", "$classes": ["Post", "NSObject"]],
                "hi",
                ["$class": .uid(1), "title": .uid(2), "likes": 3],
            ],
        ]
        #expect(try WriterTestSupport.readBack(archive.binary()) == expected)
    }

    @Test func classRecordsAreSharedByNameAndChain() {
        var archive = KeyedArchiveBuilder()
        let first = archive.classRecord("Post", chain: ["Post", "NSObject"])
        #expect(archive.classRecord("Post", chain: ["Post", "NSObject"]) == first)
        #expect(archive.classRecord("Post") == first)
        #expect(archive.classRecord("Post", chain: ["Post", "Base", "NSObject"]) != first)
        let list = archive.array(of: [])
        let other = archive.array(of: [list])
        #expect(archive.objects.count == 6)  // $null, 2 Post records, NSArray record, 2 arrays
        #expect(archive.classRecord("NSArray") == 3)
        #expect(other == 5)
    }

    @Test func topKeysAreReplacedAndReservedObjectsFilledLater() throws {
        var archive = KeyedArchiveBuilder()
        let node = archive.classRecord("Node")
        let looping = archive.reserve()
        archive.set(looping, to: ["$class": .uid(node), "next": .uid(looping)])  // a cycle
        archive.setTop("root", KeyedArchiveBuilder.null)
        archive.setTop("root", looping)
        #expect(archive.top == [.init(key: "root", value: .uid(looping))])

        let plist = try PropertyList.read(archive.binary())
        let tree = try WriterTestSupport.tree(plist)
        guard case .dictionary(let entries) = tree, case .array(let objects)? = entries.first(where: { $0.key == "$objects" })?.value else {
            Issue.record("no $objects in \(tree)")
            return
        }
        #expect(objects[Int(looping)] == ["$class": .uid(node), "next": .uid(looping)])
    }

    @Test func foundationUnarchivesArraysStringsNumbersAndDictionaries() throws {
        var archive = KeyedArchiveBuilder()
        let alpha = archive.add("alpha")
        let beta = archive.add("béta 🎉")
        let strings = archive.array(of: [alpha, beta])
        let count = archive.add("count")
        let fortyTwo = archive.add(42)
        let name = archive.add("name")
        let info = archive.dictionary(keys: [count, name], values: [fortyTwo, alpha])
        let root = archive.array(of: [strings, info, alpha])
        archive.setTop("root", root)

        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.foundationClasses, from: Data(archive.binary()))
        let expected: NSArray = [["alpha", "béta 🎉"], ["count": 42, "name": "alpha"], "alpha"]
        #expect(decoded as? NSArray == expected)
    }

    @Test func foundationUnarchivesMutableCollections() throws {
        var archive = KeyedArchiveBuilder()
        let one = archive.add(1)
        let two = archive.add(2.5)
        let key = archive.add("k")
        let list = archive.array(of: [one, two], className: "NSMutableArray")
        let root = archive.dictionary(keys: [key], values: [list], className: "NSMutableDictionary")
        archive.setTop("root", root)

        let decoded = try NSKeyedUnarchiver.unarchivedObject(
            ofClasses: Self.foundationClasses + [NSMutableArray.self, NSMutableDictionary.self], from: Data(archive.binary()))
        let dictionary = try #require(decoded as? NSMutableDictionary)
        #expect(dictionary == ["k": [1, 2.5]] as NSDictionary)
        #expect(String(describing: type(of: dictionary)) == "NSMutableDictionary")
    }

    @Test func manyObjectsAreBuiltAndReadBack() throws {
        let objectCount = 50_000
        var archive = KeyedArchiveBuilder(capacity: 2 * objectCount + 2)
        let post = archive.classRecord("Post")
        var posts = [UInt32]()
        posts.reserveCapacity(objectCount)
        for index in 0 ..< objectCount {
            let title = archive.add(.string("post number \(index)"))
            posts.append(archive.object(class: post, fields: ["title": .uid(title), "likes": .integer(Int128(index % 100))]))
        }
        archive.setTop("root", archive.array(of: posts))
        let bytes = archive.binary()

        let plist = try PropertyList.read(bytes)
        // Per post: its title, its dictionary, and (as Apple writes them) one UID object per
        // reference: `$class`, `title`, and its place in the root array. Keys, class names and
        // the 100 `likes` values are shared.
        #expect(plist.objects.count > 5 * objectCount)
        #expect(plist.objects.count < 5 * objectCount + 150)
        #expect(bytes[bytes.count - 25] == 4)  // 4-byte references
    }
}
