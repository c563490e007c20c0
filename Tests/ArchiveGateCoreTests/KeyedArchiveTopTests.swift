import Foundation
import Testing
@testable import ArchiveGateCore

/// `$top` entries that are inline values rather than UIDs: Foundation writes them when a bool,
/// integer, real or data is encoded at the archiver's top level, and they are values of their keys
/// in the report's walk, the plain JSON and the typed JSON. An inline string is shown too, but no
/// Foundation call decodes one (`KeyedArchive.inlineTopProblem`): the report says so.
@Suite struct KeyedArchiveTopTests {
    /// `$top` holding `true`, `7`, `"s"`, 2.5, data and a UID, in that order.
    static func mixedTop() -> [UInt8] {
        BinaryPropertyListWriter.write(.dictionary([
            "$version": 100000, "$archiver": "NSKeyedArchiver",
            "$top": .dictionary(["flag": true, "count": 7, "label": "s", "ratio": 2.5, "blob": .data([1, 2]), "root": .uid(1)]),
            "$objects": ["$null", "x"],
        ]))
    }

    @Test func inlineTopValuesAreValuesOfTheirKeys() throws {
        #expect(try Inspect.json(Self.mixedTop(), policy: .inspection)
                == #"{"flag":true,"count":7,"label":"s","ratio":2.5,"blob":"AQI=","root":"x"}"#)
        let report = try Inspect.report(Self.mixedTop(), policy: .foundation)
        #expect(report.violations.map(\.code.rawValue) == ["archive.shape_mismatch"])
        #expect(report.violations.map(\.path) == ["/label"])
    }

    @Test func typedJSONCarriesInlineTopValues() throws {
        #expect(try Inspect.json(Self.mixedTop(), mode: .typed) == #"{"$archiver":"NSKeyedArchiver","$version":100000,"#
            + #""$top":{"flag":true,"count":7,"label":"s","ratio":{"$real":2.5},"blob":{"$data":"AQI="},"root":{"$uid":1}},"#
            + #""$objects":["$null","x"]}"#)
    }

    @Test func policiesNameKindsForTopKeys() throws {
        let strict = Inspect.policy(#"{"root": ["NSString"], "allow": ["plist"]}"#)
        let report = try Inspect.report(Self.mixedTop(), policy: strict)
        #expect(!report.valid)
        // The inline string is no value Foundation decodes, whatever the policy names.
        #expect(report.violations.map(\.code.rawValue) == ["policy.inline_type_mismatch", "policy.inline_type_mismatch", "archive.shape_mismatch",
                                                           "policy.inline_type_mismatch", "policy.inline_type_mismatch"])
        #expect(report.violations.map(\.path) == ["/flag", "/count", "/label", "/ratio", "/blob"])

        let kinds = Inspect.policy(#"{"root": ["NSString", "bool", "integer", "string", "real", "data"], "allow": ["plist"]}"#)
        #expect(try Inspect.report(Self.mixedTop(), policy: kinds).violations.map(\.path) == ["/label"])

        let redacting = Inspect.policy(#"{"root": ["NSString", "integer"], "allow": ["plist"], "onViolation": "redact"}"#)
        #expect(try Inspect.json(Self.mixedTop(), policy: redacting)
                == #"{"flag":null,"count":7,"label":null,"ratio":null,"blob":null,"root":"x"}"#)
    }

    /// What Foundation's own archiver writes for `encode(true, forKey:)` at the top level.
    @Test(arguments: FixtureFormat.allCases)
    func foundationWrittenInlineTopValues(_ format: FixtureFormat) throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.outputFormat = format == .xml ? .xml : .binary
        archiver.encode("r" as NSString, forKey: "root")
        archiver.encode(true, forKey: "HasUpdatedParentReference")
        archiver.encode(7, forKey: "count")
        archiver.finishEncoding()
        let json = try #require(try Inspect.json(Array(archiver.encodedData), policy: .foundation))
        #expect(CanonicalJSON.sorted(json) == #"{"HasUpdatedParentReference":true,"count":7,"root":"r"}"#)
    }
}
