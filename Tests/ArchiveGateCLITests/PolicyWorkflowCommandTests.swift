import Foundation
import Testing

/// The policy workflow at the shell: `policy suggest` over folders and databases with `--explain`,
/// `policy diff`, and `policy check`'s typo and syntax reports, run as the real binary.
@Suite struct PolicyWorkflowCommandTests {
    static let memoClass = "ArchiveGateCLITests.Memo"

    /// A folder of samples: `one.archive`, `nested/two.archive` (one level down) and, if asked, junk.
    static func sampleFolder(junk: Bool) throws -> URL {
        let directory = try CLIRunner.temporaryDirectory()
        let nested = directory.appendingPathComponent("nested")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        _ = try CLIRunner.write(CLITests.archive(Memo(title: "a", count: 1)), named: "one.archive", in: directory)
        _ = try CLIRunner.write(CLITests.archive([Memo(title: "b", count: 2)] as NSArray), named: "two.archive", in: nested)
        if junk { _ = try CLIRunner.write(Array("not a plist".utf8), named: "junk.bin", in: directory) }
        return directory
    }

    @Test func suggestWalksAFolderAndAcceptsEverySampleInIt() throws {
        let directory = try Self.sampleFolder(junk: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLIRunner.run(["policy", "suggest", "--explain", directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["root"] as? [String] == [Self.memoClass, "NSArray"])
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("archivegate: explain /root \"NSArray\": at $top in 1 sample (\(directory.path)/nested/two.archive)"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("archivegate: explain /classes/\(Self.memoClass)/keys/title [\"NSString\"]: set in 2 of 2 instances; required") })
        #expect(!lines.contains { $0.contains("not accepted") })

        let policy = try CLIRunner.write(Array(result.stdout.utf8), named: "fit.json", in: directory)
        let validated = try CLIRunner.run(["validate", "--policy", policy, "--recursive", directory.path, "--exclude", "fit.json"])
        #expect(validated.status == 0, "\(validated.stderr)")
    }

    /// A folder with a file that is no archive: one typed line for it (never a Cocoa error dump),
    /// the policy from the others, exit 2.
    @Test func aFolderWithJunkReportsItInOneTypedLine() throws {
        let directory = try Self.sampleFolder(junk: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLIRunner.run(["policy", "suggest", directory.path])
        #expect(result.status == 2)
        #expect(result.stderr == "archivegate: \(directory.path)/junk.bin: malformed: plist.not_a_property_list at byte 0: the data is neither a binary nor an XML property list\n"
                || (result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("junk.bin: malformed: plist.")), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        #expect(result.stdout.contains(Self.memoClass))
    }

    @Test func aFolderWithNoArchiveIsNothingScanned() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLIRunner.run(["policy", "suggest", directory.path])
        #expect(result.status == 4)  // inconclusive, batch.no_archive: nothing scanned, as a batch
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "archivegate: no sample archive found: batch.no_archive\n")
    }

    @Test func suggestReadsTheArchiveBlobsOfADatabase() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path
        do {
            let writer = try ScanDBCommandTests.Writer(path: path)
            try writer.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body BLOB)")
            try writer.insert("INSERT INTO notes (id, body) VALUES (?, ?)", [1, try CLITests.archive(Memo(title: "db", count: 3))])
            try writer.insert("INSERT INTO notes (id, body) VALUES (?, ?)", [2, [0x89, 0x50, 0x4E, 0x47] as [UInt8]])
        }
        let result = try CLIRunner.run(["policy", "suggest", "--explain", "--db", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""root": ["\#(Self.memoClass)"]"#), "\(result.stdout)")
        #expect(result.stderr.contains("in 1 sample (\(path): notes.body rowid 1)"), "\(result.stderr)")
    }

    @Test func diffListsWhatTheSamplesNeedAndExitsOne() throws {
        let directory = try Self.sampleFolder(junk: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = try CLIRunner.write(Array(#"{"name": "live", "root": "\#(Self.memoClass)", "allow": ["plist", "\#(Self.memoClass)"]}"#.utf8),
                                         named: "live.json", in: directory)
        let samples = [directory.appendingPathComponent("one.archive").path, directory.appendingPathComponent("nested").path]
        let text = try CLIRunner.run(["policy", "diff", policy] + samples)
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout == """
            policy 'live' accepts 1 of 2 samples; the samples need:
              accept 'NSArray' at the root — policy.class_mismatch at /root, 1 sample (\(directory.path)/nested/two.archive)

            """, "\(text.stdout)")

        let json = try CLIRunner.run(["policy", "diff", "--format", "json", policy] + samples)
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["samples"] as? Int == 2)
        #expect(document["accepted"] as? Int == 1)
        let needs = try #require(document["needs"] as? [[String: Any]])
        #expect(needs.count == 1)
        #expect(needs.first?["need"] as? String == "accept")
        #expect(needs.first?["accept"] as? String == "NSArray")
        #expect(needs.first?["code"] as? String == "policy.class_mismatch")
        #expect(needs.first?["samples"] as? [String] == ["\(directory.path)/nested/two.archive"])
        #expect(needs.first?["path"] as? String == "/root")

        let fits = try CLIRunner.run(["policy", "diff", policy, directory.appendingPathComponent("one.archive").path])
        #expect(fits.status == 0)
        #expect(fits.stdout == "policy 'live' accepts 1 of 1 sample\n")
    }

    @Test func checkReportsASyntaxErrorWithLineAndColumn() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLIRunner.write(Array("{\n  \"allow\": [\"plist\",]\n}".utf8), named: "bad.json", in: directory)
        let result = try CLIRunner.run(["policy", "check", file])
        #expect(result.status == 64)
        #expect(result.stderr == "archivegate: \(file): policy.invalid_json at line 2, column 21: not valid JSON: expected a value, found ']' (a trailing comma?)\n")
    }

    @Test func checkRefusesAMisspeltGroupAndWarnsOfAMisspeltClass() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let group = try CLIRunner.write(Array(#"{"allow": ["fundation"]}"#.utf8), named: "group.json", in: directory)
        let refused = try CLIRunner.run(["policy", "check", "--strict", group])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("archivegate: \(group): policy.unknown_group at /allow/0: 'fundation' is no group"), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("did you mean 'foundation'?\n"))

        let typo = try CLIRunner.write(Array(#"{"allow": ["foundation", "NSStrnig"]}"#.utf8), named: "typo.json", in: directory)
        let warned = try CLIRunner.run(["policy", "check", typo])
        #expect(warned.status == 0)
        #expect(warned.stderr == "archivegate: \(typo): warning: lint.unknown_class at /allow/1: 'NSStrnig' is not a known class, has no schema here and no sample uses it; did you mean 'NSString'?\n")
        let strict = try CLIRunner.run(["policy", "check", "--strict", typo])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("lint.unknown_class at /allow/1"))
        #expect(strict.stderr.contains("1 lint finding"))

        // A class a sample uses is no typo.
        let custom = try CLIRunner.write(Array(#"{"allow": ["plist", "\#(Self.memoClass)"]}"#.utf8), named: "custom.json", in: directory)
        let unknown = try CLIRunner.run(["policy", "check", "--strict", custom])
        #expect(unknown.status == 1)
        let sample = try CLIRunner.write(CLITests.archive(Memo(title: "a", count: 1)), named: "memo.archive", in: directory)
        let known = try CLIRunner.run(["policy", "check", "--strict", "--samples", sample, custom])
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stderr.isEmpty)
    }
}
