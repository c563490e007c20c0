import Foundation
import Testing
@testable import ArchiveGateCore

/// Typed mode renders the archive graph itself: `$top`, the `$objects` table, `{"$uid": n}` edges and
/// tagged reals, data and dates — exactly, and the same every time.
@Suite struct TypedModeTests {
    static func everyKind() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("Post", chain: ["Post", "NSObject"])
        let title = builder.add("hi")
        let wide = builder.add("日本")
        let root = builder.object(class: record, fields: [
            "title": .uid(title), "likes": 3, "ratio": 1.0, "half": 0.5, "nan": .real(.nan), "blob": .data([1, 2, 3]),
            "when": .date(0), "flag": true, "list": [.uid(title), 1], "none": .uid(0), "wide": .uid(wide),
        ])
        builder.setTop("root", root)
        builder.setTop("again", title)
        return builder.binary()
    }

    @Test func everyPlistKindHasItsTypedForm() throws {
        #expect(try Inspect.json(Self.everyKind(), mode: .typed) == #"{"$archiver":"NSKeyedArchiver","$version":100000,"#
            + #""$top":{"root":{"$uid":4},"again":{"$uid":2}},"$objects":["$null","#
            + #"{"$classname":"Post","$classes":["Post","NSObject"]},"hi","日本","#
            + #"{"$class":{"$uid":1},"title":{"$uid":2},"likes":3,"ratio":{"$real":1},"half":{"$real":0.5},"#
            + #""nan":{"$real":"NaN"},"blob":{"$data":"AQID"},"when":{"$date":0},"flag":true,"list":[{"$uid":2},1],"#
            + #""none":{"$uid":0},"wide":{"$uid":3}}]}"#)
    }

    @Test func plainModeRendersTheSameArchiveNaturally() throws {
        #expect(try Inspect.json(Self.everyKind()) == #"{"root":{"$class":"Post","title":"hi","likes":3,"ratio":1,"half":0.5,"#
            + #""nan":"NaN","blob":"AQID","when":"2001-01-01T00:00:00.000Z","flag":true,"list":["hi",1],"none":null,"wide":"日本"},"#
            + #""again":"hi"}"#)
    }

    @Test func foundationXMLArchivesRenderTheirObjectsTable() throws {
        let bytes = try FoundationFixture.archive(NSDate(timeIntervalSinceReferenceDate: 0), as: .xml)
        #expect(try Inspect.json(bytes, mode: .typed) == #"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"#
            + #""$objects":["$null",{"$class":{"$uid":2},"NS.time":{"$real":0}},{"$classes":["NSDate","NSObject"],"$classname":"NSDate"}]}"#)
        let array = try FoundationFixture.archive(["a", 5 as NSNumber] as NSArray, as: .xml)
        #expect(try Inspect.json(array, mode: .typed) == #"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"#
            + #""$objects":["$null",{"$class":{"$uid":4},"NS.objects":[{"$uid":2},{"$uid":3}]},"a",5,"#
            + #"{"$classes":["NSArray","NSObject"],"$classname":"NSArray"}]}"#)
    }

    @Test func binaryArchivesHaveTheSameGraphAsXML() throws {
        let post = SamplePost(title: "T", likes: 1, tags: ["x"], author: SampleAuthor(name: "A"))
        let xml = try Inspect.json(FoundationFixture.archive(post, as: .xml), mode: .typed)
        let binary = try Inspect.json(FoundationFixture.archive(post, as: .binary), mode: .typed)
        // UIDs follow encoding order in both; only dictionary key order differs.
        #expect(xml != nil)
        #expect(binary.flatMap(CanonicalJSON.sorted) == xml.flatMap(CanonicalJSON.sorted))
        let objects = try JSONSerialization.jsonObject(with: Data((xml ?? "").utf8)) as? [String: Any]
        // $null, post, "T", tags, "x", NSArray record, author, "A", and the two custom class records.
        #expect((objects?["$objects"] as? [Any])?.count == 10)
    }

    @Test func outputIsStableAndPrettyIsTheSameDocument() throws {
        for format in FixtureFormat.allCases {
            let top = SampleNode(name: "top")
            top.adopt(SampleNode(name: "leaf"))
            let bytes = try FoundationFixture.archive(top, as: format)
            for mode in OutputMode.allCases {
                let inspector = ArchiveInspector(policy: .inspection)
                let compact = try inspector.convert(bytes, mode: mode).json
                #expect(compact != nil)
                #expect(try inspector.convert(bytes, mode: mode).json == compact, "\(format) \(mode)")
                let pretty = try inspector.convert(bytes, mode: mode, pretty: true).json
                #expect(pretty != compact, "\(format) \(mode)")
                let prettyText = pretty.map { String(decoding: $0, as: UTF8.self) }
                #expect(prettyText?.contains("\n") == true)
                #expect(prettyText.flatMap(CanonicalJSON.sorted) == compact.flatMap { CanonicalJSON.sorted(String(decoding: $0, as: UTF8.self)) },
                        "\(format) \(mode)")
            }
        }
    }

    @Test func redactedSitesPointAtNullAndRedactedObjectsAreNull() throws {
        let shared = "text" as NSString
        let bytes = try FoundationFixture.archive(SamplePair(first: shared, second: shared), as: .xml)
        let pair = "ArchiveGateCoreTests.SamplePair"
        let policy = Inspect.policy(#"""
            {"root": ["\#(pair)"], "allow": ["plist"], "onViolation": "redact",
             "classes": {"\#(pair)": {"keys": {"first": "NSString", "second": "NSNumber"}}}}
            """#)
        #expect(try Inspect.json(bytes, policy: policy, mode: .typed) == #"{"$archiver":"NSKeyedArchiver","$version":100000,"#
            + #""$top":{"root":{"$uid":1}},"$objects":["$null",{"$class":{"$uid":3},"first":{"$uid":2},"second":{"$uid":0}},"text","#
            + #"{"$classes":["\#(pair)","NSObject"],"$classname":"\#(pair)"}]}"#)

        let required = Inspect.policy(#"""
            {"root": ["\#(pair)"], "allow": ["plist"], "onViolation": "redact",
             "classes": {"\#(pair)": {"keys": {"first": "NSString", "second": "NSString", "third": "NSString"}, "required": ["third"]}}}
            """#)
        #expect(try Inspect.json(bytes, policy: required, mode: .typed) == #"{"$archiver":"NSKeyedArchiver","$version":100000,"#
            + #""$top":{"root":{"$uid":1}},"$objects":["$null",null,"text","#
            + #"{"$classes":["\#(pair)","NSObject"],"$classname":"\#(pair)"}]}"#)
    }

    @Test func aRejectedArchiveHasNoJSONInEitherMode() throws {
        let bytes = try FoundationFixture.archive(SampleAuthor(name: "x"), as: .binary)
        for mode in OutputMode.allCases {
            let inspection = try ArchiveInspector(policy: .foundation).convert(bytes, mode: mode)
            #expect(inspection.json == nil)
            #expect(!inspection.report.valid)
        }
    }
}
