import Foundation
import Testing
@testable import ArchiveGateCore

/// The rules `PolicySuggester` writes, on hand-built archives, each checked by the real evaluator.
@Suite struct PolicySuggesterTests {
    /// An `App.Note` root with the given fields (string values, or a plain array of references
    /// written in place for `NS.objects`).
    static func note(_ fields: [String: String], inlineArray: Bool = false) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("App.Note")
        var entries: [PropertyListValue.Entry] = []
        for key in fields.keys.sorted() {
            entries.append(.init(key: key, value: .uid(builder.add(.string(fields[key]!)))))
        }
        if inlineArray {
            let element = builder.add(.string("in place"))
            entries.append(.init(key: "NS.objects", value: .array([.uid(element)])))
        }
        builder.setTop("root", builder.object(class: record, entries: entries))
        return builder.binary()
    }

    static func suggest(_ samples: [(String, [UInt8])]) throws -> (PolicySuggester, Policy) {
        var suggester = PolicySuggester()
        for (label, bytes) in samples { _ = try suggester.addSample(ByteStorage(bytes), label: label) }
        return (suggester, try Policy.load(json: Array(suggester.policyJSON(name: "s").utf8), name: "s"))
    }

    @Test func aKeyIsRequiredOnlyWhenEverySampleHasIt() throws {
        let samples = [("both.plist", Self.note(["title": "a", "body": "b"])), ("title.plist", Self.note(["title": "c"])),
                       ("body.plist", Self.note(["body": "d", "title": "e"]))]
        let (suggester, policy) = try Self.suggest(samples)
        #expect(policy.classes["App.Note"]?.required == ["title"])
        for (label, bytes) in samples {
            #expect(try ArchiveInspector(policy: policy).validate(bytes).verdict == .accepted, "\(label)")
        }
        let explanation = suggester.explanation()
        #expect(explanation.contains(#"/classes/App.Note/keys/body ["NSString"]: set in 2 of 3 instances; not required: absent or nil in title.plist"#),
                "\(explanation)")
        #expect(explanation.contains(#"/classes/App.Note/keys/title ["NSString"]: set in 3 of 3 instances; required: every instance has it"#))
    }

    @Test func aKeyFirstSeenInALaterSampleIsNotRequired() throws {
        let (suggester, policy) = try Self.suggest([("first.plist", Self.note(["title": "a"])),
                                                    ("second.plist", Self.note(["title": "b", "body": "c"]))])
        #expect(policy.classes["App.Note"]?.required == ["title"])
        #expect(suggester.explanation().contains { $0.hasPrefix("/classes/App.Note/keys/body") && $0.hasSuffix("absent or nil in first.plist") })
    }

    /// A plain array written in place under a key can be named by no expectation: the key stays out
    /// of `keys` and the schema lets unknown keys through, so the sample is accepted.
    @Test func aPlainArrayInPlaceLetsUnknownKeysThrough() throws {
        let bytes = Self.note(["title": "a"], inlineArray: true)
        let (suggester, policy) = try Self.suggest([("inline.plist", bytes)])
        #expect(policy.classes["App.Note"]?.unknownKeys == .allow)
        #expect(policy.classes["App.Note"]?.keys["NS.objects"] == nil)
        #expect(try ArchiveInspector(policy: policy).validate(bytes).verdict == .accepted)
        #expect(suggester.explanation().contains { $0.hasPrefix(#"/classes/App.Note/unknownKeys "allow": NS.objects"#) })
    }

    /// A danger finding of a sample is acknowledged by name and explained; without acknowledging,
    /// the sample is not accepted.
    @Test func findingsAreAcknowledgedByNameOrLeftToReject() throws {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("NSSortDescriptor")
        let key = builder.add(.string("date"))
        builder.setTop("root", builder.object(class: record, fields: ["NSKey": .uid(key), "NSAscending": .bool(true)]))
        let bytes = builder.binary()
        let (suggester, policy) = try Self.suggest([("sorted.plist", bytes)])
        #expect(policy.acknowledged == ["NSSortDescriptor"])
        #expect(try ArchiveInspector(policy: policy).validate(bytes).verdict == .accepted)
        #expect(suggester.explanation().contains { $0.hasPrefix(#"/acknowledge "NSSortDescriptor": danger.sort_descriptor in 1 sample (sorted.plist)"#) })

        var strict = PolicySuggester()
        strict.acknowledgesFindings = false
        _ = try strict.addSample(ByteStorage(bytes), label: "sorted.plist")
        let unacknowledged = try Policy.load(json: Array(strict.policyJSON(name: "s").utf8))
        #expect(unacknowledged.acknowledged.isEmpty)
        #expect(try ArchiveInspector(policy: unacknowledged).validate(bytes).verdict == .rejected(violations: 1))
    }

    @Test func aSampleThatIsNoArchiveAddsNothing() throws {
        var suggester = PolicySuggester()
        #expect(throws: ArchiveGateError.self) { try suggester.addSample(ByteStorage(Array("not a plist".utf8)), label: "junk") }
        #expect(suggester.samples.isEmpty)
    }
}
