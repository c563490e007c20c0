import Testing
@testable import ArchiveGateCore

/// `KeyedArchive.entries` is stored as one Int32 code per UID; it must still read as the entry kinds.
@Suite struct EntryTableTests {
    @Test func entriesReadAsNullClassRecordsAndObjects() throws {
        var builder = KeyedArchiveBuilder()
        let post = builder.classRecord("Post", chain: ["Post", "NSObject"])
        let title = builder.add("hi")
        let root = builder.object(class: post, fields: ["title": .uid(title), "likes": 3])
        builder.setTop("root", root)
        let archive = try ArchiveInspector(policy: .inspection).decode(builder.binary())

        #expect(archive.entries.count == archive.objectCount)
        #expect(archive.entries.count == 4)
        #expect(archive.entries[0] == .null)
        #expect(archive.entries[Int(post)] == .classRecord)
        #expect(archive.classIndex(of: 0) == nil)
        #expect(archive.classIndex(of: Int(post)) == nil)
        let titleClass = try #require(archive.classIndex(of: Int(title)))
        let rootClass = try #require(archive.classIndex(of: Int(root)))
        #expect(archive.entries[Int(title)] == .object(classIndex: titleClass))
        #expect(archive.entries[Int(root)] == .object(classIndex: rootClass))
        #expect(archive.classes[titleClass].name == "NSString")
        #expect(archive.classes[rootClass].name == "Post")
        var expected = Array(repeating: KeyedArchive.Entry.null, count: 4)
        expected[Int(post)] = .classRecord
        expected[Int(title)] = .object(classIndex: titleClass)
        expected[Int(root)] = .object(classIndex: rootClass)
        #expect(Array(archive.entries) == expected)
    }

    @Test func numberInstancesAreFlaggedPerClass() {
        #expect(ArchiveClass(name: "NSNumber", claimedChain: [], isInline: false).isInlineOnlyInstance)
        #expect(!ArchiveClass(name: "NSNumber", claimedChain: [], isInline: true).isInlineOnlyInstance)
        #expect(!ArchiveClass(name: "NSString", claimedChain: [], isInline: false).isInlineOnlyInstance)
    }
}
