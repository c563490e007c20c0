import Foundation
import Testing
@testable import ArchiveGateCore

/// `PolicyDiff`: the needs the real evaluator's violations and findings stand for.
@Suite struct PolicyDiffTests {
    static func diff(_ policy: String, _ samples: [(String, [UInt8])]) throws -> PolicyDiff {
        let compiled = try Policy.load(json: Array(policy.utf8), name: "live")
        var diff = PolicyDiff(policy: compiled.name)
        let inspector = ArchiveInspector(policy: compiled, decodesNestedArchives: true)
        for (label, bytes) in samples {
            do {
                diff.add(try inspector.validate(bytes), sample: label, nestedArchives: false)
            } catch {
                diff.add(error, sample: label)
            }
        }
        return diff
    }

    @Test func eachViolationBecomesANeedCountedOverTheSamples() throws {
        let policy = #"{"root": ["App.Note"], "allow": ["plist", "App.Note"], "classes": {"App.Note": {"keys": {"title": "NSString", "body": "NSNumber"}, "required": ["title", "body"]}}}"#
        let diff = try Self.diff(policy, [
            ("a", PolicySuggesterTests.note(["title": "x", "body": "y", "colour": "red"])),
            ("b", PolicySuggesterTests.note(["title": "x", "colour": "blue"])),
            ("junk", Array("junk".utf8)),
        ])
        #expect(diff.sampleCount == 3)
        #expect(diff.acceptedCount == 0)
        #expect(diff.failures.map(\.sample) == ["junk"])
        let needs = diff.sortedNeeds.map { "\($0.need.summary) [\($0.need.code)] \($0.samples.joined(separator: ","))" }
        #expect(needs == [
            "accept 'NSString' at key 'body' [policy.class_mismatch] a",
            "add key 'colour' to the schema of 'App.Note' [policy.unknown_key] a,b",
            "stop requiring key 'body' of 'App.Note' [policy.missing_required_key] b",
        ])
        #expect(!diff.isEmpty)
        // The owner of a mismatched key is where the need was first met.
        let mismatch = try #require(diff.sortedNeeds.first?.need)
        #expect(diff.firstPaths[mismatch] == "/root/body")
    }

    @Test func aClassNotAllowedAndAFindingAreNeeds() throws {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("NSSortDescriptor")
        let key = builder.add(.string("date"))
        builder.setTop("root", builder.object(class: record, fields: ["NSKey": .uid(key), "NSAscending": .bool(true)]))
        let diff = try Self.diff(#"{"allow": ["plist"]}"#, [("sort", builder.binary())])
        let needs = diff.sortedNeeds.map(\.need)
        #expect(needs.map(\.summary) == ["acknowledge 'NSSortDescriptor' (danger.sort_descriptor)", "allow 'NSSortDescriptor'"])
    }

    @Test func aPolicyThatFitsHasNoNeed() throws {
        let diff = try Self.diff(#"{"root": "App.Note", "allow": ["plist", "App.Note"]}"#, [("a", PolicySuggesterTests.note(["title": "x"]))])
        #expect(diff.isEmpty)
        #expect(diff.sortedNeeds.isEmpty)
        #expect(diff.acceptedCount == 1)
    }
}
