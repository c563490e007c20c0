import Foundation
import Testing

/// `--format sarif` of `validate` and `scan-db`, read back as JSON: rules, levels, locations and the
/// run-level "nothing scanned" notice. (scripts/test-python loads the same output in a SARIF 2.1.0
/// model from PyPI and runs `sarif summary` on it.)
@Suite struct SarifOutputTests {
    struct Log {
        var document: [String: Any]
        var run: [String: Any] { ((document["runs"] as? [[String: Any]]) ?? [])[0] }
        var rules: [[String: Any]] { ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? [] }
        var ruleIDs: [String] { rules.compactMap { $0["id"] as? String } }
        var results: [[String: Any]] { run["results"] as? [[String: Any]] ?? [] }
        var invocation: [String: Any] { ((run["invocations"] as? [[String: Any]]) ?? [[:]])[0] }
        var notifications: [[String: Any]] { invocation["toolExecutionNotifications"] as? [[String: Any]] ?? [] }

        init(_ stdout: String) throws {
            document = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        }

        static func location(_ result: [String: Any]) -> [String: Any] { ((result["locations"] as? [[String: Any]]) ?? [[:]])[0] }
        static func uri(_ result: [String: Any]) -> String? {
            ((location(result)["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        }
        static func logicalNames(_ result: [String: Any]) -> [String] {
            (location(result)["logicalLocations"] as? [[String: Any]] ?? []).compactMap { $0["fullyQualifiedName"] as? String }
        }
        static func region(_ result: [String: Any]) -> [String: Any]? {
            (location(result)["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        }
    }

    static let examples = CLIRunner.packageRoot.appendingPathComponent("examples")
    static let examplePolicy = CLIRunner.packageRoot.appendingPathComponent("config/policies/example.json").path

    /// A folder batch: a rejected archive, an accepted one, a truncated binary plist and a text file.
    @Test func folderBatchListsEachProblemWithItsFileAndPointer() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("payload.archive"), to: folder.appendingPathComponent("payload.archive"))
        _ = try CLIRunner.write(try CLITests.archive(["a", "b"] as NSArray), named: "clean.archive", in: folder)
        _ = try CLIRunner.write(Array("bplist00cut".utf8), named: "cut.plist", in: folder)
        _ = try CLIRunner.write(Array("hello".utf8), named: "note.txt", in: folder)
        let result = try CLIRunner.run(["validate", "--format", "sarif", "--policy", Self.examplePolicy, "--jobs", "2", folder.path])
        #expect(result.status == 2, "the worst verdict is malformed: \(result.stderr)")
        let log = try Log(result.stdout)
        #expect(log.document["version"] as? String == "2.1.0")
        #expect(log.ruleIDs == ["plist.truncated", "policy.class_mismatch"])
        #expect(log.rules.allSatisfy { ($0["helpUri"] as? String)?.hasPrefix("https://archivegate.dev/docs/GATES.md#") == true })
        #expect((log.rules[1]["shortDescription"] as? [String: Any])?["text"] as? String == "Policy violation: class mismatch")
        #expect(log.results.count == 2, "no result for the clean archive or the skipped text file")
        let cut = try #require(log.results.first { $0["ruleId"] as? String == "plist.truncated" })
        #expect(cut["level"] as? String == "error")
        #expect(cut["ruleIndex"] as? Int == 0)
        #expect(Log.uri(cut) == "file://" + folder.appendingPathComponent("cut.plist").path)
        #expect(Log.region(cut)?["byteOffset"] as? Int == 11)
        let payload = try #require(log.results.first { $0["ruleId"] as? String == "policy.class_mismatch" })
        #expect(payload["level"] as? String == "error")
        #expect(Log.uri(payload)?.hasSuffix("/payload.archive") == true)
        #expect(Log.logicalNames(payload) == ["/root"])
        #expect(log.invocation["exitCode"] as? Int == 2 && log.invocation["executionSuccessful"] as? Bool == true)
        #expect(log.notifications.isEmpty)
        #expect(result.stderr.contains("summary: 4 files"), "the stderr summary stays: \(result.stderr)")
    }

    /// Inspection mode shows a predicate archive with its finding: a warning, not an error.
    @Test func anInspectionFindingIsAWarning() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CLIRunner.write(DangerCommandTests.predicateInArray(), named: "predicate archive.plist", in: folder)
        let result = try CLIRunner.run(["validate", "--format", "sarif", "--allow-any-class", file])
        #expect(result.status == 1)
        let log = try Log(result.stdout)
        #expect(log.ruleIDs == ["danger.expression", "danger.predicate"], "the predicate and its key-path expression")
        let rule = try #require(log.rules.first { $0["id"] as? String == "danger.predicate" })
        #expect(((rule["fullDescription"] as? [String: Any])?["text"] as? String)?.contains("expression program") == true)
        #expect(log.results.allSatisfy { $0["level"] as? String == "warning" })
        let finding = try #require(log.results.first { $0["ruleId"] as? String == "danger.predicate" })
        #expect(Log.logicalNames(finding) == ["/root/0"])
        #expect(Log.uri(finding)?.hasSuffix("/predicate%20archive.plist") == true, "a space is percent-encoded")
        // Under a gate policy the same finding refuses the archive: an error.
        let gated = try Log(try CLIRunner.run(["validate", "--format", "sarif", file]).stdout)
        #expect(gated.results.contains { $0["ruleId"] as? String == "danger.predicate" && $0["level"] as? String == "error" })
    }

    @Test func anAcceptedFileHasNoResult() throws {
        let file = try DangerCommandTests.file(try CLITests.archive(["fine"] as NSArray), "fine.archive")
        let result = try CLIRunner.run(["validate", "--format", "sarif", file])
        #expect(result.status == 0, "\(result.stderr)")
        let log = try Log(result.stdout)
        #expect(log.results.isEmpty && log.rules.isEmpty)
        #expect(log.invocation["exitCode"] as? Int == 0)
    }

    /// Nothing scanned: exit 4 in both formats; SARIF says so at run level.
    @Test func nothingScannedIsARunLevelError() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try CLIRunner.write(Array("hello".utf8), named: "note.txt", in: folder)
        let plain = try CLIRunner.run(["validate", folder.path])
        #expect(plain.status == 4 && plain.stdout.isEmpty)
        let result = try CLIRunner.run(["validate", "--format", "sarif", folder.path])
        #expect(result.status == 4)
        let log = try Log(result.stdout)
        #expect(log.results.isEmpty)
        #expect(log.invocation["executionSuccessful"] as? Bool == false && log.invocation["exitCode"] as? Int == 4)
        let notice = try #require(log.notifications.first)
        #expect((notice["descriptor"] as? [String: Any])?["id"] as? String == "batch.no_archive")
        #expect(notice["level"] as? String == "error")
        #expect((notice["message"] as? [String: Any])?["text"] as? String == "inconclusive (batch.no_archive): no archive or property list among the files")
    }

    @Test func scanDBResultsNameTheCellAndThePointer() throws {
        let (path, _) = try ScanDBCommandTests.makeDatabase()
        let result = try CLIRunner.runToFiles(["scan-db", "--format", "sarif", "--jobs", "2", path])
        #expect(result.status == 2, "\(result.stderr.suffix(300))")
        let log = try Log(result.stdout)
        #expect(log.ruleIDs == ["plist.truncated", "policy.class_not_allowed", "typedstream.truncated"])
        // The 15 rejected memos (one violation each), 5 truncated plists, 5 truncated typedstreams.
        #expect(log.results.count == 25)
        let cut = try #require(log.results.first { $0["ruleId"] as? String == "typedstream.truncated" })
        #expect(Log.region(cut)?["byteOffset"] as? Int == 19, "where the root object's class was due")
        #expect(log.results.allSatisfy { Log.uri($0) == "file://" + path && $0["level"] as? String == "error" })
        let memo = try #require(log.results.first { $0["ruleId"] as? String == "policy.class_not_allowed" })
        #expect(Log.logicalNames(memo) == ["attachments.meta rowid -", "/root"])
        let properties = try #require(memo["properties"] as? [String: Any])
        #expect(properties["table"] as? String == "attachments" && properties["column"] as? String == "meta")
        #expect(properties.keys.contains("rowid") && properties["rowid"] is NSNull, "a WITHOUT ROWID table has none")
        // The same order for any --jobs: the database's.
        let one = try CLIRunner.runToFiles(["scan-db", "--format", "sarif", "--jobs", "1", path])
        #expect(one.stdout == result.stdout)
    }

    @Test func scanDBWithNoArchiveExitsFour() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("empty.sqlite").path
        let writer = try ScanDBCommandTests.Writer(path: path)
        try writer.exec("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB)")
        try writer.insert("INSERT INTO blobs (id, body) VALUES (?, ?)", [1, [0xFF, 0xD8, 0xFF, 0x00] as [UInt8]])
        let plain = try CLIRunner.run(["scan-db", path])
        #expect(plain.status == 4, "\(plain.stderr)")
        #expect(plain.stderr.contains("summary: inconclusive (batch.no_archive): no archive or property list among the BLOBs"))
        let sarif = try CLIRunner.run(["scan-db", "--format", "sarif", path])
        #expect(sarif.status == 4)
        let log = try Log(sarif.stdout)
        #expect(log.notifications.compactMap { ($0["descriptor"] as? [String: Any])?["id"] as? String } == ["batch.no_archive"])
    }

    @Test func sarifDoesNotGoWithOut() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run(["validate", "--format", "sarif", "--out", folder.appendingPathComponent("out").path, Self.examples.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--format sarif writes one log on stdout"))
    }
}
