import Foundation
import Testing
@testable import ArchiveGateCore

/// `--nested` / `?nested=true`: a keyed archive inside NSData is rendered in place as
/// `{"$archive": …}` in the same mode; without it the data stays base64.
@Suite struct NestedRenderingTests {
    /// `{"root": "hello"}` wrapped twice in NSData.
    static let twoLevels: [UInt8] = {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.add("hello"))
        return DangerArchives.nested(builder.binary(), levels: 2)
    }()

    static func convert(_ bytes: [UInt8], mode: OutputMode, nested: Bool, pretty: Bool = false) throws -> Any {
        let inspector = ArchiveInspector(policy: .inspection, decodesNestedArchives: nested)
        let json = try #require(try inspector.convert(bytes, mode: mode, pretty: pretty).json)
        return try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
    }

    /// `object["root"][0]["$archive"]`.
    static func archiveInFirstElement(_ object: Any) -> [String: Any]? {
        ((object as? [String: Any])?["root"] as? [Any])?.first.flatMap { ($0 as? [String: Any])?["$archive"] as? [String: Any] }
    }

    /// The first `{"$archive": …}` among typed `$objects`.
    static func firstArchive(in objects: [Any]) -> [String: Any]? {
        for object in objects {
            if let archive = (object as? [String: Any])?["$archive"] as? [String: Any] { return archive }
        }
        return nil
    }

    @Test(arguments: [false, true])
    func plainRendersNestedArchivesInPlace(pretty: Bool) throws {
        let outer = try Self.convert(Self.twoLevels, mode: .plain, nested: true, pretty: pretty)
        let middle = try #require(Self.archiveInFirstElement(outer), "\(outer)")
        let inner = try #require(Self.archiveInFirstElement(middle), "\(middle)")
        #expect(inner["root"] as? String == "hello")
    }

    @Test func plainKeepsBase64WithoutNested() throws {
        let outer = try Self.convert(Self.twoLevels, mode: .plain, nested: false)
        let first = ((outer as? [String: Any])?["root"] as? [Any])?.first
        #expect(first is String)
    }

    @Test func typedRendersNestedArchivesInPlace() throws {
        let outer = try #require(try Self.convert(Self.twoLevels, mode: .typed, nested: true) as? [String: Any])
        let objects = try #require(outer["$objects"] as? [Any])
        let nested = try #require(Self.firstArchive(in: objects), "\(objects)")
        #expect(nested["$archiver"] as? String == "NSKeyedArchiver")
        let innerObjects = try #require(nested["$objects"] as? [Any])
        let innermost = try #require(Self.firstArchive(in: innerObjects))
        #expect((innermost["$objects"] as? [Any])?.contains { $0 as? String == "hello" } == true)
    }

    @Test func typedKeepsTaggedDataWithoutNested() throws {
        let outer = try #require(try Self.convert(Self.twoLevels, mode: .typed, nested: false) as? [String: Any])
        let objects = try #require(outer["$objects"] as? [Any])
        #expect(objects.contains { ($0 as? [String: Any])?["$data"] is String })
        #expect(!objects.contains { ($0 as? [String: Any])?["$archive"] != nil })
    }

    /// Bytes that start like a property list but are none stay data (a plain property list is
    /// `{"$plist": …}`: NestedPlistTests).
    @Test func dataThatIsNotAnArchiveStaysData() throws {
        let inner = Array("bplist00 but no property list".utf8)
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.array(of: [builder.add(.data(inner))]))
        let outer = try Self.convert(builder.binary(), mode: .plain, nested: true)
        #expect(((outer as? [String: Any])?["root"] as? [Any])?.first is String)
    }

    @Test func nestedOutputCountsAgainstTheByteBudget() throws {
        var policy = Policy.inspection
        let plain = try #require(try ArchiveInspector(policy: policy, decodesNestedArchives: true).convert(Self.twoLevels, mode: .plain).json)
        policy.limits.maxOutputBytes = plain.count - 1
        #expect(throws: ArchiveGateError.self) {
            _ = try ArchiveInspector(policy: policy, decodesNestedArchives: true).convert(Self.twoLevels, mode: .plain)
        }
    }
}
