import ArchiveGateCore
@testable import ArchiveGateServer
import Foundation
import Testing

/// The core's report writer (`ValidationReport.json`, every HTTP report body) writes exactly the bytes `JSONEncoder.sorted` writes.
@Suite struct ReportJSONTests {
    /// Every field of every nested type set, strings that need every kind of escape.
    static let awkward = "quote \" backslash \\ slash / controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F} del \u{7F} "
        + "line separator \u{2028} é 😀 nbsp \u{A0}"

    static func sampleReport() throws -> ValidationReport {
        let text = try String(decoding: JSONEncoder().encode(awkward), as: UTF8.self)
        let json = """
        {"verdict": "inconclusive", "verdictReason": "danger.nested_archive", "valid": false, "policy": \(text), "format": "xml", "objectCount": -9223372036854775808,
         "classes": [{"name": \(text), "count": 9223372036854775807, "allowed": true, "claimedClasses": [\(text), "NSObject"],
                      "admittedBy": ["allow", \(text)]},
                     {"name": "B", "count": 0, "allowed": false, "claimedClasses": [], "admittedBy": []}],
         "violations": [{"code": "policy.class_not_allowed", "message": \(text), "path": "/a~1b/0", "uid": 7,
                         "class": \(text), "key": \(text)},
                        {"code": "policy.class_not_allowed", "message": "m", "path": ""}],
         "violationsTruncated": true,
         "limits": {"maxInputBytes": 1, "maxObjects": 2, "maxDepth": 3, "maxStringBytes": 4, "maxDataBytes": 5,
                    "maxOutputBytes": 6, "maxOutputNodes": 7, "maxViolations": 8, "maxDecodeMilliseconds": 9},
         "findings": [{"code": "danger.predicate", "class": \(text), "path": "/x", "reason": \(text),
                       "reference": "https://example.invalid/a", "acknowledged": true, "via": "keys",
                       "matched": \(text), "functions": [\(text), "now"], "selectors": ["compare:"],
                       "keyPaths": [\(text)], "classConstants": ["NSString"]}],
         "findingsTruncated": true, "dangerCatalogueVersion": 3}
        """
        return try JSONDecoder().decode(ValidationReport.self, from: Data(json.utf8))
    }

    @Test func awkwardReportMatchesJSONEncoder() throws {
        let report = try Self.sampleReport()
        let expected = try Array(JSONEncoder.sorted.encode(report))
        #expect(String(decoding: report.json, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    /// The sample sets every optional and fills every array, in the report and the types it holds:
    /// a field added to `ValidationReport` then shows in `JSONEncoder`'s bytes above, and this
    /// test names the sample to extend.
    @Test func sampleLeavesNoFieldUnset() throws {
        let report = try Self.sampleReport()
        var unset: [String] = []
        Self.collectUnset(report, path: "report", into: &unset)
        #expect(unset.isEmpty, "unset in ReportJSONTests.sampleReport: \(unset)")
    }

    static func collectUnset(_ value: Any, path: String, into unset: inout [String]) {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { unset.append(path); return }
            collectUnset(wrapped, path: path, into: &unset)
            return
        }
        if mirror.displayStyle == .collection {
            // The first element of each array is the fully set one.
            guard let first = mirror.children.first else { unset.append(path); return }
            collectUnset(first.value, path: "\(path)[0]", into: &unset)
            return
        }
        guard mirror.displayStyle == .struct, !(value is String) else { return }
        for child in mirror.children {
            collectUnset(child.value, path: "\(path).\(child.label ?? "?")", into: &unset)
        }
    }

    /// Reports of real archives, valid and not, under the load policy and an allow-all one.
    @Test(arguments: ["config/load/policy.json", nil])
    func realReportsMatchJSONEncoder(policyFile: String?) throws {
        let policyJSON: [UInt8]
        if let policyFile {
            policyJSON = Array(try Data(contentsOf: Self.repositoryRoot.appendingPathComponent(policyFile)))
        } else {
            policyJSON = Array(#"{"allow":["*"],"inspection":true}"#.utf8)
        }
        let inspector = ArchiveInspector(policy: try Policy.load(json: policyJSON))
        let loadArchive = Array(try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("config/load/archives/notebook-1k.archive")))
        for archive in [try Fixtures.plainArchive(), try Fixtures.noteArchive(), loadArchive] {
            let report = try inspector.validate(archive)
            #expect(report.json == Array(try JSONEncoder.sorted.encode(report)))
        }
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func integersAtTheEdges() {
        for value in [0, 1, -1, 9, 10, -10, 1_000_000, Int.max, Int.min] {
            var json = JSONDocumentWriter(capacity: 0)
            json.integer(value)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(value))
        }
    }
}
