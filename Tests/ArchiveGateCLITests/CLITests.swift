import ArchiveGateCore
import Foundation
import Testing

/// A custom class archived with module-qualified name `ArchiveGateCLITests.Memo`.
final class Memo: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let title: String
    let count: Int

    init(title: String, count: Int) {
        self.title = title
        self.count = count
    }

    required init?(coder: NSCoder) {
        title = coder.decodeObject(of: NSString.self, forKey: "title") as String? ?? ""
        count = coder.decodeInteger(forKey: "count")
    }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(count, forKey: "count")
    }
}

@Suite struct CLITests {
    static func archive(_ object: Any) throws -> [UInt8] {
        Array(try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true))
    }

    @Test func convertPrintsPlainJSONAndExitsZero() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(try Self.archive(["a", "b"] as NSArray), named: "list.archive", in: directory)
        let result = try CLIRunner.run(["convert", file])
        #expect(result.status == 0)
        #expect(result.stdout == "{\"root\":[\"a\",\"b\"]}\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func convertReadsStandardInput() throws {
        let result = try CLIRunner.run(["convert", "-"], stdin: Data(try Self.archive("hello" as NSString)))
        #expect(result.status == 0)
        #expect(result.stdout == "{\"root\":\"hello\"}\n")
    }

    @Test func prettyOutputIsIndented() throws {
        let result = try CLIRunner.run(["convert", "--pretty", "-"], stdin: Data(try Self.archive(["k": 1] as NSDictionary)))
        #expect(result.status == 0)
        #expect(result.stdout == "{\n  \"root\": {\n    \"k\": 1\n  }\n}\n")
    }

    @Test func customClassIsRejectedByDefaultWithExitOne() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(try Self.archive(Memo(title: "t", count: 2)), named: "memo.archive", in: directory)
        let result = try CLIRunner.run(["convert", file])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("rejected: policy.class_not_allowed at /root"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func allowAnyClassRendersCustomObjects() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(try Self.archive(Memo(title: "t", count: 2)), named: "memo.archive", in: directory)
        let result = try CLIRunner.run(["convert", "--allow-any-class", file])
        #expect(result.status == 0)
        // Foundation's binary archives order an object's keys differently from run to run.
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]]
        #expect(json?["root"]?["$class"] as? String == "ArchiveGateCLITests.Memo")
        #expect(json?["root"]?["title"] as? String == "t")
        #expect(json?["root"]?["count"] as? Int == 2)
        #expect(json?["root"]?.count == 3)
    }

    @Test func policyFileAcceptsItsClass() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(try Self.archive(Memo(title: "t", count: 2)), named: "memo.archive", in: directory)
        let policy = try CLIRunner.write(Array("""
            {"root": ["ArchiveGateCLITests.Memo"], "classes": {"ArchiveGateCLITests.Memo": {"keys": {"title": "NSString", "count": "integer"}, "required": ["title"]}}}
            """.utf8), named: "memo.json", in: directory)
        let result = try CLIRunner.run(["validate", "--policy", policy, file])
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["file"] as? String == file)
        #expect((report?["report"] as? [String: Any])?["valid"] as? Bool == true)
    }

    @Test func validateReportsEachFileAndTheWorstExitCode() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let good = try CLIRunner.write(try Self.archive("x" as NSString), named: "good.archive", in: directory)
        let custom = try CLIRunner.write(try Self.archive(Memo(title: "t", count: 1)), named: "custom.archive", in: directory)
        let broken = try CLIRunner.write(Array("bplist00garbage".utf8), named: "broken.archive", in: directory)
        let result = try CLIRunner.run(["validate", good, custom, broken])
        #expect(result.status == 2)
        // One record per file, the malformed one included (with its verdict and error).
        let records = result.stdout.split(separator: "\n")
        #expect(records.count == 3)
        #expect(records.map { $0.contains(#""verdict":"accepted""#) } == [true, false, false])
        #expect(records[1].contains(#""verdict":"rejected""#))
        #expect(records[2].contains(#""verdict":"malformed","verdictReason":"plist.truncated","error":{"code":"plist.truncated""#))
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("custom.archive: rejected: policy.class_not_allowed") })
        #expect(lines.contains { $0.contains("broken.archive: malformed: plist.truncated at byte") })
    }

    @Test func usageErrorsExitSixtyFour() throws {
        let both = try CLIRunner.run(["convert", "--allow-any-class", "--policy", "p.json", "x"])
        #expect(both.status == 64)
        let badLimit = try CLIRunner.run(["convert", "--limit", "maxDepth=-3", "x"])
        #expect(badLimit.status == 64)
        let badPolicy = try CLIRunner.run(["convert", "--policy", "/nonexistent.json", "x"])
        #expect(badPolicy.status == 64)
        #expect(badPolicy.stderr.contains("cannot read policy file"))
    }

    @Test func limitOverrideApplies() throws {
        let nested = try Self.archive([[["deep"]]] as NSArray)
        let result = try CLIRunner.run(["convert", "--limit", "maxDepth=2", "-"], stdin: Data(nested))
        #expect(result.status == 3, "a limit hit is inconclusive")
        #expect(result.stderr.contains("archive.depth_limit_exceeded"))
    }

    @Test func shippedExamplePolicyLoads() throws {
        let policy = CLIRunner.packageRoot.appendingPathComponent("config/policies/example.json").path
        let result = try CLIRunner.run(["validate", "--policy", policy, "-"], stdin: Data(try Self.archive("x" as NSString)))
        // A bare string is not among the example's root classes: a policy verdict (1), not a load failure (64).
        #expect(result.status == 1)
        #expect(result.stderr.contains("policy.class_mismatch at /root"))
    }
}
