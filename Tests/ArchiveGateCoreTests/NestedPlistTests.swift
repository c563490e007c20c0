import Foundation
import Testing
@testable import ArchiveGateCore

/// `--nested` / `?nested=true` with a plain property list (not a keyed archive) in NSData: plain
/// mode shows it as `{"$plist": …}` by the plain JSON conventions; typed mode keeps the data; the
/// limits count it.
@Suite struct NestedPlistTests {
    /// `{"root": [<NSData holding {"cipherVersion": 1, "when": <date>, "tags": ["a","b"]}>]}`.
    static let archive: [UInt8] = {
        let inner = BinaryPropertyListWriter.write(.dictionary([
            .init(key: "cipherVersion", value: .integer(1)),
            .init(key: "when", value: .date(709479508.623529)),
            .init(key: "tags", value: .array([.string("a"), .string("b")])),
        ]))
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.array(of: [builder.add(.data(inner))]))
        return builder.binary()
    }()

    static func plain(_ bytes: [UInt8], nested: Bool, policy: Policy = .inspection) throws -> String {
        let json = try #require(try ArchiveInspector(policy: policy, decodesNestedArchives: nested).convert(bytes, mode: .plain).json)
        return String(decoding: json, as: UTF8.self)
    }

    @Test func plainModeRendersThePlistInPlace() throws {
        #expect(try Self.plain(Self.archive, nested: true)
            == #"{"root":[{"$plist":{"cipherVersion":1,"when":"2023-06-26T13:38:28.623529Z","tags":["a","b"]}}]}"#)
    }

    @Test func withoutNestedTheDataStaysBase64() throws {
        let json = try Self.plain(Self.archive, nested: false)
        #expect(json.hasPrefix(#"{"root":["YnBsaXN0MDD"#), "\(json)")
    }

    @Test func typedModeKeepsTheData() throws {
        let json = try #require(try ArchiveInspector(policy: .inspection, decodesNestedArchives: true).convert(Self.archive, mode: .typed).json)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#"{"$data":"YnBsaXN0MDD"#) && !text.contains("$plist"), "\(text)")
    }

    @Test func theOutputBudgetCountsThePlist() throws {
        var policy = Policy.inspection
        policy.limits.maxOutputBytes = try Self.plain(Self.archive, nested: true).utf8.count - 1
        #expect { try Self.plain(Self.archive, nested: true, policy: policy) } throws: { error in
            (error as? ArchiveGateError)?.code.rawValue == "archive.output_limit_exceeded"
        }
    }

    @Test func thePlistsObjectsCountAgainstTheObjectLimit() throws {
        var builder = KeyedArchiveBuilder()
        let inner = BinaryPropertyListWriter.write(.array((0 ..< 100).map { .integer(Int128($0)) }))
        builder.setTop("root", builder.array(of: [builder.add(.data(inner))]))
        var policy = Policy.inspection
        // The outer property list holds about 25 objects, the nested one 101.
        policy.limits.maxObjects = 60
        #expect { try Self.plain(builder.binary(), nested: true, policy: policy) } throws: { error in
            (error as? ArchiveGateError)?.code.rawValue == "archive.object_limit_exceeded"
        }
        policy.limits.maxObjects = 200
        #expect(try Self.plain(builder.binary(), nested: true, policy: policy).contains(#"{"$plist":[0,1,2,"#))
    }

    /// A CloudKit record's encryption info, as iOS wrote it (an NSData holding a plain plist).
    @Test(.enabled(if: AppleCorpus.isPresent, Comment(rawValue: AppleCorpus.absent)))
    func aRealPlistInData() throws {
        let json = try Self.plain(try AppleCorpus.bytes("real-corpus/ileapp/919c014dfa0659a8.bplist"), nested: true)
        #expect(json.contains(#"{"$plist":{"cipherVersion":1,"accountKeyIdentifier":"98E55AA7-FDBC-4B0F-9131-C56FFFB12992"}}"#)
                || json.contains(#"{"$plist":{"accountKeyIdentifier":"98E55AA7-FDBC-4B0F-9131-C56FFFB12992","cipherVersion":1}}"#), "\(json)")
    }
}
