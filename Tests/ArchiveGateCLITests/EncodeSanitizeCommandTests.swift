import Foundation
import Testing

/// `archivegate encode` and `archivegate sanitize`, run as the real binary.
@Suite struct EncodeSanitizeCommandTests {
    static let contact = CLIRunner.packageRoot.appendingPathComponent("examples/contact.archive").path
    static let payload = CLIRunner.packageRoot.appendingPathComponent("examples/payload.archive").path

    @Test func typedJSONEncodesBackToAnArchiveWithTheSameJSON() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let typed = try CLIRunner.run(["convert", "--mode", "typed", Self.contact])
        #expect(typed.status == 0)
        for format in ["binary", "xml"] {
            let output = directory.appendingPathComponent("again.\(format)").path
            let encoded = try CLIRunner.run(["encode", "--format", format, "--out", output, "-"], stdin: Data(typed.stdout.utf8))
            #expect(encoded.status == 0, "\(encoded.stderr)")
            #expect(try CLIRunner.run(["convert", "--mode", "typed", output]).stdout == typed.stdout)
            #expect(try CLIRunner.run(["convert", output]).stdout == CLIRunner.run(["convert", Self.contact]).stdout)
        }
    }

    @Test func badTypedJSONIsATypedErrorWithItsPointer() throws {
        let json = #"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"$objects":["$null",{"$when":1}]}"#
        let result = try CLIRunner.run(["encode", "-"], stdin: Data(json.utf8))
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("encode.unknown_tag at /$objects/1/$when"))
    }

    @Test func sanitizeRedactsAndListsTheViolations() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let policy = directory.appendingPathComponent("redact.json")
        try Data(#"{"allow": ["foundation"], "onViolation": "redact"}"#.utf8).write(to: policy)
        let output = directory.appendingPathComponent("clean.archive").path
        let result = try CLIRunner.run(["sanitize", "--policy", policy.path, "--out", output, Self.payload])
        #expect(result.status == 0)
        #expect(result.stderr.contains("redacted /root: policy.class_not_allowed"))
        #expect(try CLIRunner.run(["convert", output]).stdout == "{\"root\":null}\n")
        let again = directory.appendingPathComponent("again.archive").path
        #expect(try CLIRunner.run(["sanitize", "--policy", policy.path, "--out", again, output]).status == 0)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: output))
    }

    @Test func aRejectingPolicyWritesNothing() throws {
        let result = try CLIRunner.run(["sanitize", Self.payload])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("policy.class_not_allowed"))
    }
}
