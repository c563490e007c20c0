import Foundation
import Testing
@testable import ArchiveGateCore

/// Inputs the fuzzers (Fuzz/, scripts/fuzz) kept: minimised crashers, hangs and memory blow-ups
/// once fixed, plus inputs that broke a fuzz invariant. Each runs through the same pipeline its
/// target ran — read, validate, plain and typed convert under the inspection policy — and must end
/// with its expected outcome, quickly. scripts/fuzz also feeds every file here back as a seed.
///
/// A new finding: minimise it (`-minimize_crash=1`), copy it to `Inputs/` named after its target and
/// what it broke, and add a row below.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")

    /// File → expected outcome of the inspection-mode plain convert: "ok" or the error code.
    static let expected: [String: String] = [
        // FuzzArchive, 2026-11-22: the same bytes gave different reports from one call to the next.
        // A mutated DateIntervalFormatter archive (public corpus) where an inline data scalar and a
        // class record are both named NSData; `makeReport` merged them in Dictionary order, so
        // which `claimedClasses` won varied per call.
        "archive-validate-convert-report-differ.bplist": "ok",
    ]

    /// FuzzArchive's strict policy (Fuzz/Support/FuzzPolicies.swift): `plist` + a `NotesKit.Note`
    /// schema, redacting.
    static let strict: Policy = {
        let document = #"""
        {"name": "fuzz-strict", "root": ["NotesKit.Note", "NSArray", "NSDictionary", "NSString"],
         "allow": ["plist", "NSNull", "NSUUID", "NSURL"],
         "classes": {
           "NotesKit.Item": {"keys": {"id": "NSUUID", "created": "NSDate"}, "required": ["id"]},
           "NotesKit.Note": {"extends": "NotesKit.Item",
             "keys": {"title": "NSString", "body": ["NSString", "NSNull"], "pinned": "bool", "revision": "integer",
                      "score": "real", "tags": {"classes": ["NSArray", "NSMutableArray"], "elements": ["NSString"]},
                      "meta": {"classes": ["NSDictionary"], "dictionaryKeys": ["NSString"], "elements": ["plist"]},
                      "link": "NSURL", "children": {"classes": ["NSArray"], "elements": ["NotesKit.Note"]},
                      "parent": "NotesKit.Note"},
             "required": ["title"], "unknownKeys": "reject"}},
         "onViolation": "redact",
         "limits": {"maxInputBytes": 1048576, "maxObjects": 100000, "maxDepth": 64, "maxStringBytes": 262144,
                    "maxDataBytes": 262144, "maxOutputBytes": 1048576, "maxOutputNodes": 100000, "maxViolations": 100}}
        """#
        return try! Policy.load(json: Array(document.utf8), name: "fuzz-strict")
    }()

    /// The fuzz limits on the inspection policy.
    static let inspection: Policy = {
        var policy = Policy.inspection
        policy.limits = strict.limits
        return policy
    }()

    /// Every committed input has a row, and every row has its input.
    @Test func everyInputHasAnExpectation() throws {
        let files = try Self.inputFiles()
        #expect(Set(files) == Set(Self.expected.keys))
    }

    @Test(arguments: expected.keys.sorted())
    func inputEndsWithItsExpectedOutcome(_ name: String) throws {
        let bytes = try Array(Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let inspector = ArchiveInspector(policy: .inspection)
        let started = ContinuousClock.now
        let outcome = Self.outcome { () throws(ArchiveGateError) in _ = try inspector.convert(bytes, mode: .plain) }
        // The other stages the fuzz targets drive must not trap either, whatever they return.
        _ = try? PropertyList.read(bytes)
        _ = try? inspector.validate(bytes)
        _ = try? inspector.convert(bytes, mode: .typed)
        _ = try? ArchiveInspector(policy: .foundation).convert(bytes, mode: .plain, pretty: true)
        #expect(outcome == Self.expected[name], "\(name)")
        #expect(ContinuousClock.now - started < .seconds(2), "\(name) is slow")
    }

    /// FuzzArchive's agreement invariant: when validate and convert both succeed, under the fuzz
    /// policies, they give the same report, and the same bytes give the same report every time
    /// (repeated: an order that depends on Dictionary seeding differs only on some calls).
    @Test(arguments: expected.keys.sorted())
    func validateAndConvertAgree(_ name: String) throws {
        let bytes = try Array(Data(contentsOf: Self.folder.appendingPathComponent(name)))
        for policy in [Self.inspection, Self.strict] {
            let inspector = ArchiveInspector(policy: policy)
            guard let report = try? inspector.validate(bytes) else { continue }
            for _ in 0 ..< 20 {
                #expect(report == (try? inspector.validate(bytes)), "\(name) under \(policy.name): validate again")
            }
            for mode in OutputMode.allCases {
                guard let inspection = try? inspector.convert(bytes, mode: mode) else { continue }
                #expect(inspection.report == report, "\(name) under \(policy.name): validate and \(mode) convert reports differ")
            }
        }
    }

    /// The regression inputs; the folder is part of the repository, so its absence is an error.
    static func inputFiles() throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        guard !files.isEmpty else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path]) }
        return files
    }

    static func outcome(_ body: () throws(ArchiveGateError) -> Void) -> String {
        do throws(ArchiveGateError) {
            try body()
            return "ok"
        } catch {
            return error.code
        }
    }
}
