import Foundation
import Testing
@testable import ArchiveGateCore

/// The two encodings Foundation's `NSKeyedArchiver` writes; every Foundation fixture is made in both.
enum FixtureFormat: String, CaseIterable, CustomStringConvertible, Sendable {
    case binary, xml

    var description: String { rawValue }

    /// What `ValidationReport.format` says for an archive in this format.
    var plistFormat: PropertyList.Format { self == .binary ? .binary : .xml }
}

/// Archives made at test time by Foundation's own `NSKeyedArchiver`, requiring secure coding.
enum FoundationFixture {
    /// `object` archived as the root object, in `format`.
    static func archive(_ object: Any, as format: FixtureFormat) throws -> [UInt8] {
        switch format {
        case .binary:
            return Array(try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true))
        case .xml:
            return archive(topLevel: [(NSKeyedArchiveRootObjectKey, object)], as: .xml)
        }
    }

    /// Several objects encoded under the given `$top` keys, in order.
    static func archive(topLevel entries: [(String, Any?)], as format: FixtureFormat) -> [UInt8] {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.outputFormat = format == .xml ? .xml : .binary
        for (key, object) in entries { archiver.encode(object, forKey: key) }
        archiver.finishEncoding()
        return Array(archiver.encodedData)
    }
}

/// Runs the inspector and hands back what tests compare.
enum Inspect {
    /// The plain (or typed) JSON of `bytes` under `policy`, nil when the policy rejected it.
    static func json(_ bytes: [UInt8], policy: Policy = .inspection, mode: OutputMode = .plain) throws -> String? {
        let inspection = try ArchiveInspector(policy: policy).convert(bytes, mode: mode)
        return inspection.json.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The report of `bytes` under `policy`.
    static func report(_ bytes: [UInt8], policy: Policy = .inspection) throws -> ValidationReport {
        try ArchiveInspector(policy: policy).validate(bytes)
    }

    /// The decode error's code for `bytes`, or nil when it decodes (and, if it validates, converts).
    static func errorCode(_ bytes: [UInt8], policy: Policy = .inspection) -> String? {
        do {
            _ = try ArchiveInspector(policy: policy).convert(bytes, mode: .plain)
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    /// A policy compiled from JSON text; records an issue and falls back to `.foundation` if invalid.
    static func policy(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> Policy {
        do {
            return try Policy.load(json: Array(json.utf8), name: "test")
        } catch {
            Issue.record("policy does not load: \(error)", sourceLocation: sourceLocation)
            return .foundation
        }
    }
}

/// Asserts the plain JSON of `object` archived by Foundation in both formats.
///
/// XML archives have their dictionary keys sorted, so their JSON is compared byte for byte; binary
/// archives order keys by Swift's per-process hash seed, so theirs is compared after sorting
/// object keys (`CanonicalJSON`). Write `expected` as the XML archive renders: custom objects'
/// keys sorted, as Foundation's XML writer sorts them.
///
/// With `anyKeyOrder`, XML output is compared after sorting too: `NS.keys` of a dictionary with
/// several keys is in hash order in both formats.
func expectFoundationPlain(_ object: Any, _ expected: String, policy: Policy = .inspection, anyKeyOrder: Bool = false,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let wanted = CanonicalJSON.sorted(expected)
    #expect(wanted != nil, "the expected text is not JSON", sourceLocation: sourceLocation)
    for format in FixtureFormat.allCases {
        let bytes = try FoundationFixture.archive(object, as: format)
        let actual = try Inspect.json(bytes, policy: policy)
        switch format {
        case .xml where !anyKeyOrder:
            #expect(actual == expected, "xml", sourceLocation: sourceLocation)
        default:
            #expect(actual != nil && actual.flatMap(CanonicalJSON.sorted) == wanted, "\(format): \(actual ?? "nil")",
                    sourceLocation: sourceLocation)
        }
    }
}
