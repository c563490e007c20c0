import Foundation
import Testing

/// A second custom class, for "an archive with one more class than the samples".
final class Stamp: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let label: String

    init(label: String) { self.label = label }

    required init?(coder: NSCoder) {
        label = coder.decodeObject(of: NSString.self, forKey: "label") as String? ?? ""
    }

    func encode(with coder: NSCoder) { coder.encode(label as NSString, forKey: "label") }
}

/// `archivegate policy suggest` and `policy check`, run as the real binary.
@Suite struct PolicyCommandTests {
    @Test func aSuggestedPolicyAcceptsItsSamplesAndRejectsOneMoreClass() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = try [
            CLIRunner.write(CLITests.archive(Memo(title: "a", count: 1)), named: "one.archive", in: directory),
            CLIRunner.write(CLITests.archive([Memo(title: "b", count: 2)] as NSArray), named: "two.archive", in: directory),
        ]
        let suggested = try CLIRunner.run(["policy", "suggest", "--name", "memos"] + samples)
        #expect(suggested.status == 0, "\(suggested.stderr)")
        let policy = try CLIRunner.write(Array(suggested.stdout.utf8), named: "memos.json", in: directory)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(suggested.stdout.utf8)) as? [String: Any])
        #expect(document["name"] as? String == "memos")

        for sample in samples {
            let result = try CLIRunner.run(["validate", "--policy", policy, sample])
            #expect(result.status == 0, "\(sample): \(result.stdout) \(result.stderr)")
        }
        let extra = try CLIRunner.write(CLITests.archive([Memo(title: "c", count: 3), Stamp(label: "new")] as NSArray),
                                        named: "extra.archive", in: directory)
        let rejected = try CLIRunner.run(["validate", "--policy", policy, extra])
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("policy.class_not_allowed"), "\(rejected.stderr)")
        #expect(rejected.stdout.contains("ArchiveGateCLITests.Stamp"), "the report names the new class")

        let checked = try CLIRunner.run(["policy", "check", policy])
        #expect(checked.status == 0, "the suggested policy passes policy check: \(checked.stderr)")
    }

    @Test func suggestRefusesAnInputThatIsNotAnArchive() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junk = try CLIRunner.write(Array("not a plist".utf8), named: "junk.bin", in: directory)
        let result = try CLIRunner.run(["policy", "suggest", junk])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("junk.bin"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func checkAcceptsTheShippedPolicies() throws {
        for name in ["demo", "example"] {
            let file = CLIRunner.packageRoot.appendingPathComponent("config/policies/\(name).json").path
            let result = try CLIRunner.run(["policy", "check", file])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout.contains("OK"), "\(result.stdout)")
            #expect(result.stderr.isEmpty)
        }
    }

    /// Each kind of unusable policy file: exit 64 and one line naming the code and where.
    @Test(arguments: [
        ("{ not json", "policy.invalid_json"),
        ("[1, 2]", "policy.invalid_json"),
        (#"{"allow": ["NSString"], "colour": "red"}"#, "policy.unknown_field at /colour"),
        (#"{"allow": "NSString", "onViolation": "explode"}"#, "policy.invalid_value at /onViolation"),
        (#"{"allow": ["NSString"], "limits": {"maxDepth": -1}}"#, "policy.invalid_value at /limits/maxDepth"),
        (#"{"allow": ["NSString"], "limits": {"maxSpeed": 1}}"#, "policy.unknown_field at /limits/maxSpeed"),
        (#"{"classes": {"A": {"extends": "Missing"}}}"#, "policy.unknown_superclass at /classes/A/extends"),
        (#"{"classes": {"A": {"extends": "B"}, "B": {"extends": "A"}}}"#, "policy.inheritance_cycle"),
    ])
    func checkRefusesAnUnusablePolicyWithItsCode(document: String, expected: String) throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLIRunner.write(Array(document.utf8), named: "bad.json", in: directory)
        let result = try CLIRunner.run(["policy", "check", file])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func checkOfAMissingFileIsAUsageError() throws {
        let result = try CLIRunner.run(["policy", "check", "/nonexistent/policy.json"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot read policy file"), "\(result.stderr)")
    }
}
