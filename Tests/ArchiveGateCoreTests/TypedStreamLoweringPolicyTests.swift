import Foundation
import Testing
@testable import ArchiveGateCore

/// A typedstream goes through the same policy as a keyed archive: class lists, violation pointers
/// into the plain JSON, reject and redact, the danger catalogue.
@Suite struct TypedStreamLoweringPolicyTests {
    static let body = TypedStreamBytes.messageBody("Hi \u{1F600}")
    static let bodyClasses = #""NSMutableAttributedString", "NSAttributedString", "NSMutableString", "NSString", "NSDictionary""#

    @Test func aMessageBodyConvertsToRuns() throws {
        let json = try Inspect.json(Self.body, policy: .foundation)
        #expect(json == #"{"root":[{"text":"Hi 😀","attributes":{"__kIMMessagePartAttributeName":0}}]}"#)
        let report = try Inspect.report(Self.body, policy: .foundation)
        #expect(report.verdict == .accepted)
        #expect(report.classes.map(\.name).sorted() == ["NSDictionary", "NSMutableAttributedString", "NSMutableString", "NSNumber", "NSString"])
    }

    /// The class the stream names is the one checked, at the JSON pointer of the plain output.
    @Test func aClassThePolicyDoesNotAllowIsRejectedWithItsPointer() throws {
        let policy = Inspect.policy(#"{"allow": [\#(Self.bodyClasses)]}"#)
        let inspection = try ArchiveInspector(policy: policy).convert(Self.body, mode: .plain)
        #expect(inspection.json == nil)
        #expect(inspection.report.violations.map { "\($0.code) \($0.path) \($0.className ?? "-")" }
            == ["policy.class_not_allowed /root/0/attributes/__kIMMessagePartAttributeName NSNumber"])
    }

    @Test func redactionNullsTheObjectInPlainAndTypedOutput() throws {
        let policy = Inspect.policy(#"{"allow": [\#(Self.bodyClasses)], "onViolation": "redact"}"#)
        let inspection = try ArchiveInspector(policy: policy).convert(Self.body, mode: .plain)
        #expect(inspection.report.verdict == .redacted(violations: 1))
        #expect(inspection.json.map { String(decoding: $0, as: UTF8.self) }
            == #"{"root":[{"text":"Hi 😀","attributes":{"__kIMMessagePartAttributeName":null}}]}"#)
        let conversion = try ArchiveInspector(policy: policy).prepareConversion(ByteStorage(Self.body))
        let lowered = try #require(conversion.typedStream)
        // The NSNumber is the stream's fourth object: the attributed string, its string, the
        // dictionary, the key string, then the number.
        #expect(conversion.redactedStreamObjects(lowered) == [4])
        let numberClass = lowered.graph.objects[4].classIndex
        #expect(lowered.graph.classes[numberClass].name == "NSNumber")
        // Typed mode: the stream with that object redacted, the others as read.
        let typed = try ArchiveInspector(policy: policy).convert(Self.body, mode: .typed)
        let typedJSON = try #require(typed.json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(typedJSON)) as? [String: Any])
        let objects = try #require(document["objects"] as? [[String: Any]])
        #expect(objects.count == 5)
        #expect((objects[4]["$redacted"] as? [String: Any])?["$class"] as? Int == numberClass)
        #expect(objects[0 ..< 4].allSatisfy { $0["$redacted"] == nil && $0["groups"] != nil })
    }

    @Test func aDangerCatalogueClassIsAFinding() throws {
        let bytes = TypedStreamBytes.messageBody("x", valueClass: "NSPredicate")
        let report = try Inspect.report(bytes)
        #expect(report.findings.map { "\($0.code) \($0.path) \($0.className)" }
            == ["danger.predicate /root/0/attributes/__kIMMessagePartAttributeName NSPredicate"])
    }

    /// A reader failure surfaces as the typedstream error with its byte offset.
    @Test func aTruncatedStreamIsATypedStreamError() {
        let truncated = Array(Self.body.dropLast(3))
        #expect(throws: ArchiveGateError.typedStream(TypedStreamError(.truncated, offset: 0, ""))) {
            try ArchiveInspector(policy: .foundation).validate(truncated)
        }
    }
}
