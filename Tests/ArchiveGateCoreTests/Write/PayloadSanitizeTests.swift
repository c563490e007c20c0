import Foundation
import Testing
@testable import ArchiveGateCore

/// What `Sneaky.Payload` (examples/make-examples.swift) decodes to in these tests: Foundation maps
/// the archived class name to this class with `setClass(_:forClassName:)`.
final class DecodedPayload: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let contact: NSDictionary?
    let command: NSString?

    required init?(coder: NSCoder) {
        // Decoding an absent key is an error under `.setErrorAndReturn`; ask first.
        contact = coder.containsValue(forKey: "contact") ? coder.decodeObject(forKey: "contact") as? NSDictionary : nil
        command = coder.containsValue(forKey: "command") ? coder.decodeObject(forKey: "command") as? NSString : nil
    }

    func encode(with coder: NSCoder) {}
}

/// The issue's "done when": `examples/payload.archive` sanitized under a redact policy, and the
/// result decoded by Foundation's own `NSKeyedUnarchiver`.
@Suite struct PayloadSanitizeTests {
    static let payload = WriteSamples.packageRoot.appendingPathComponent("examples/payload.archive")

    @Test func theDisallowedRootBecomesNil() throws {
        let bytes = try Array(Data(contentsOf: Self.payload))
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: SanitizeTests.redactingFoundation)).sanitize(bytes)
        #expect(result.report.violations.map(\.code.rawValue) == ["policy.class_not_allowed"])
        let output = try #require(result.archive)
        #expect(WriteSamples.isFoundationOnly(output))
        let graph = try WriteSamples.foundationGraph(output)
        #expect(graph.keys.sorted() == ["root"])
        #expect(graph["root"] as? NSObject == nil)
        #expect(output.count < bytes.count / 2)
    }

    @Test func theCommandFieldIsGoneAndTheContactStays() throws {
        let bytes = try Array(Data(contentsOf: Self.payload))
        let policy = Inspect.policy(#"""
            {"allow": ["foundation", "Sneaky.Payload"], "onViolation": "redact",
             "classes": {"Sneaky.Payload": {"keys": {"contact": "NSDictionary"}, "unknownKeys": "reject"}}}
            """#)
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(bytes)
        #expect(result.report.violations.map(\.key) == ["command"])
        let output = try #require(result.archive)
        let json = try #require(try WriteSamples.typed(output).map { String(decoding: $0, as: UTF8.self) })
        #expect(!json.contains("command"))
        #expect(!json.contains("rm -rf"))
        let report = try ArchiveInspector(policy: policy).validate(output)
        #expect(report.valid && report.violations.isEmpty)
        #expect(try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(output).archive == output)

        let graph = try WriteSamples.foundationGraph(output, classNames: ["Sneaky.Payload": DecodedPayload.self])
        let decoded = try #require(graph["root"] as? DecodedPayload)
        #expect(decoded.command == nil)
        let original = try Array(Data(contentsOf: WriteSamples.packageRoot.appendingPathComponent("examples/contact.archive")))
        let contact = try #require(try WriteSamples.foundationGraph(original)["root"] as? NSDictionary)
        #expect(decoded.contact == contact)
    }
}
