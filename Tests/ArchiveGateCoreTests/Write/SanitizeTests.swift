import Foundation
import Testing
@testable import ArchiveGateCore

/// The properties sanitize promises, over every fixture (and, in `SanitizeCorpusTests`, the corpus):
/// idempotent byte for byte, its output valid under the same policy with no violations, no Foundation
/// field its shape does not decode, the same plain JSON as the original under that policy, and
/// decodable by Foundation.
@Suite struct SanitizeTests {
    static let redactingFoundation = Inspect.policy(#"{"allow": ["foundation"], "onViolation": "redact"}"#)
    static let redactingPlist = Inspect.policy(#"{"allow": ["plist"], "onViolation": "redact"}"#)
    static let policies: [(name: String, policy: Policy)] = [
        ("inspection", .inspection), ("foundation", .foundation),
        ("foundation+redact", redactingFoundation), ("plist+redact", redactingPlist),
    ]

    /// The first property `bytes` breaks under `policy`, or nil. Counts the outputs Foundation decoded.
    static func check(_ name: String, _ bytes: [UInt8], _ policyName: String, _ policy: Policy,
                      foundationDecoded: inout Int) throws -> String? {
        let label = "\(name) under \(policyName)"
        let sanitizer = ArchiveSanitizer(inspector: ArchiveInspector(policy: policy))
        let first = try sanitizer.sanitize(bytes)
        let original = try ArchiveInspector(policy: policy).convert(bytes, mode: .plain)
        guard let output = first.archive else {
            // Refused only where the policy rejects, with convert's report.
            if policy.onViolation == .reject, !first.report.valid, first.report == original.report { return nil }
            return "\(label): no output, report \(first.report.violations.map(\.code))"
        }
        guard first.report == original.report else { return "\(label): sanitize's report differs from convert's" }
        guard try sanitizer.sanitize(output).archive == output else { return "\(label): not idempotent" }
        guard try sanitizer.sanitize(output, format: .xml).archive.map(WriteSamples.typed) == WriteSamples.typed(output) else {
            return "\(label): the XML output has another graph"
        }
        let unkept = try SanitizeFieldFilterTests.unkeptFields(output)
        guard unkept.isEmpty else { return "\(label): Foundation fields its shape does not decode were written: \(unkept.prefix(5))" }
        let report = try ArchiveInspector(policy: policy).validate(output)
        guard report.valid, report.violations.isEmpty else { return "\(label): output has violations \(report.violations.map(\.code))" }
        let again = try ArchiveInspector(policy: policy).convert(output, mode: .plain).json
        // With redactions (violations or unacknowledged danger findings), "equal minus the redacted subtrees": nulls in arrays and null members
        // are left out on both sides (a collection drops a redacted element instead of holding nil),
        // and `$ref` targets are not compared (they are exactly when nothing was redacted).
        let equal = first.report.valid ? again == original.json
            : try Self.withoutNulls(again) == Self.withoutNulls(original.json)
        guard equal else {
            if let left = try Self.withoutNulls(again), let right = try Self.withoutNulls(original.json),
               let index = Array(zip(left, right)).firstIndex(where: { $0 != $1 }) ?? (left.count != right.count ? min(left.count, right.count) : nil) {
                return "\(label): stripped plain JSON differs at \(index): \(String(decoding: left.dropFirst(max(0, index - 80)).prefix(200), as: UTF8.self)) ≠ \(String(decoding: right.dropFirst(max(0, index - 80)).prefix(200), as: UTF8.self))"
            }
            return "\(label): plain JSON \(again.map { String(decoding: $0.suffix(300), as: UTF8.self) } ?? "nil") ≠ \(original.json.map { String(decoding: $0.suffix(300), as: UTF8.self) } ?? "nil")"
        }
        if WriteSamples.isFoundationOnly(output) {
            let decoded = try WriteSamples.foundationGraph(output)
            foundationDecoded += 1
            if first.report.valid, WriteSamples.isFoundationOnly(bytes),
               !WriteSamples.sameGraph(decoded, try WriteSamples.foundationGraph(bytes)) {
                return "\(label): Foundation decodes another graph from the output"
            }
        }
        return nil
    }

    /// `json` with nulls stripped as below, re-serialized with sorted keys, for a byte comparison.
    static func withoutNulls(_ json: [UInt8]?) throws -> Data? {
        guard let json else { return nil }
        func strip(_ value: Any) -> Any? {
            switch value {
            case is NSNull: return nil
            case let array as [Any]:
                // A dictionary with non-string keys renders as [{"key", "value"}]; a pair whose value
                // was redacted is left out of the sanitized archive, and an empty one renders as {}.
                let kept = array.compactMap(strip).filter { ($0 as? [String: Any]).map { Array($0.keys) != ["key"] } ?? true }
                return kept.isEmpty ? [String: Any]() : kept
            // A `$ref` path may shift when an earlier collection element was left out.
            case let object as [String: Any] where object.keys.count == 1 && object["$ref"] != nil: return "$ref"
            case let object as [String: Any]: return object.compactMapValues(strip)
            default: return value
            }
        }
        guard let stripped = strip(try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])) else { return Data("null".utf8) }
        return try JSONSerialization.data(withJSONObject: stripped, options: [.sortedKeys, .fragmentsAllowed])
    }

    @Test func strippingNullsIsAComparisonThatCanFail() throws {
        #expect(try Self.withoutNulls(Array(#"{"a":[1,null],"b":null,"c":{"$ref":"/a"}}"#.utf8)) == Data(#"{"a":[1],"c":"$ref"}"#.utf8))
        #expect(try Self.withoutNulls(Array(#"{"a":1}"#.utf8)) != Self.withoutNulls(Array(#"{"a":2}"#.utf8)))
    }

    @Test func everyFixtureKeepsTheProperties() throws {
        var foundationDecoded = 0
        for (name, bytes) in try WriteSamples.fixtures() {
            for (policyName, policy) in Self.policies {
                let problem = try Self.check(name, bytes, policyName, policy, foundationDecoded: &foundationDecoded)
                #expect(problem == nil)
            }
        }
        #expect(foundationDecoded >= 40)
    }

    @Test func onlyReachableObjectsSharedOnceInBreadthFirstOrder() throws {
        var builder = KeyedArchiveBuilder()
        builder.add("unreferenced")
        let shared = builder.add("shared")
        let root = builder.array(of: [shared, shared])
        builder.add("also unreferenced")
        builder.setTop("root", root)
        let output = try #require(try ArchiveSanitizer(inspector: ArchiveInspector(policy: .foundation)).sanitize(builder.binary()).archive)
        #expect(try WriteSamples.typed(output).map { String(decoding: $0, as: UTF8.self) } == #"{"$archiver":"NSKeyedArchiver","$version":100000,"#
            + #""$top":{"root":{"$uid":1}},"$objects":["$null",{"$class":{"$uid":2},"NS.objects":[{"$uid":3},{"$uid":3}]},"#
            + #"{"$classname":"NSArray","$classes":["NSArray","NSObject"]},"shared"]}"#)
    }

    /// FuzzWrite found it: an inline value of the wrong type (data where the schema says `real`)
    /// was written back as it was, so the sanitized archive still broke the policy. It is `$null` now.
    @Test func aRefusedInlineValueIsNulled() throws {
        let policy = Inspect.policy(#"""
            {"allow": ["foundation", "Sample.Note"], "onViolation": "redact",
             "classes": {"Sample.Note": {"keys": {"score": "real", "revision": "integer"}}}}
            """#)
        let bytes = HandBuilt.object("Sample.Note", ["score": .data([1, 2, 3]), "revision": 7])
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(bytes)
        #expect(result.report.violations.map(\.code.rawValue) == ["policy.inline_type_mismatch"])
        let output = try #require(result.archive)
        let again = try ArchiveInspector(policy: policy).validate(output)
        #expect(again.valid && again.violations.isEmpty, "\(again.violations)")
        let json = try #require(try Inspect.json(output, policy: policy))
        #expect(json.contains(#""score":null"#) && json.contains(#""revision":7"#), "\(json)")
    }

    /// FuzzWrite found it: nulling a broken NSUUID under a required `id` left its Note without the
    /// key, which only a second evaluation saw, so sanitizing the output again nulled the Note too
    /// (not idempotent). The holders are now nulled in further rounds within one call, and the
    /// report lists both rounds' violations.
    @Test func aHolderLeftWithoutARequiredKeyIsNulledToo() throws {
        let policy = Inspect.policy(#"""
            {"allow": ["foundation", "Sample.Note", "Sample.Folder"], "onViolation": "redact",
             "classes": {"Sample.Note": {"keys": {"id": "NSUUID", "title": "NSString"}, "required": ["id"]},
                         "Sample.Folder": {"keys": {"note": "Sample.Note", "name": "NSString"}}}}
            """#)
        var builder = KeyedArchiveBuilder()
        let brokenID = builder.object(class: builder.classRecord("NSUUID"), fields: [:])
        let title = builder.add("t")
        let note = builder.object(class: builder.classRecord("Sample.Note"), fields: ["id": .uid(brokenID), "title": .uid(title)])
        let name = builder.add("inbox")
        let folder = builder.object(class: builder.classRecord("Sample.Folder"), fields: ["note": .uid(note), "name": .uid(name)])
        builder.setTop("root", folder)
        let sanitizer = ArchiveSanitizer(inspector: ArchiveInspector(policy: policy))
        let result = try sanitizer.sanitize(builder.binary())
        #expect(result.report.violations.map(\.code.rawValue) == ["archive.missing_field", "policy.missing_required_key"])
        #expect(result.report.violations.map(\.path) == ["/root/note/id", "/root/note"])
        let output = try #require(result.archive)
        #expect(try sanitizer.sanitize(output).archive == output)
        let again = try ArchiveInspector(policy: policy).validate(output)
        #expect(again.valid && again.violations.isEmpty, "\(again.violations)")
        let json = try #require(try Inspect.json(output, policy: policy))
        #expect(json.contains(#""note":null"#) && json.contains(#""name":"inbox""#), "\(json)")
    }

    @Test func aRejectingPolicyGivesNoArchive() throws {
        let bytes = try FoundationFixture.archive(SampleAuthor(name: "x"), as: .binary)
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: .foundation)).sanitize(bytes)
        #expect(result.archive == nil)
        #expect(result.report.violations.map(\.code.rawValue) == ["policy.class_not_allowed"])
    }
}

@Suite(.enabled(if: SharedMaterial.hasCorpus, Comment(rawValue: SharedMaterial.corpusAbsent)))
struct SanitizeCorpusTests {
    @Test func everyCorpusArchiveKeepsTheProperties() throws {
        var foundationDecoded = 0
        for (name, bytes) in try WriteSamples.corpus() {
            for (policyName, policy) in SanitizeTests.policies {
                let problem = try SanitizeTests.check(name, bytes, policyName, policy, foundationDecoded: &foundationDecoded)
                #expect(problem == nil)
            }
        }
        #expect(foundationDecoded >= 50)
    }
}
