import Foundation
import Testing

/// `convert`/`validate` over folders, run as the real binary over a generated tree.
@Suite struct BatchCommandTests {
    /// 2,000 files in nested folders: 500 valid archives, 500 a policy rejects, 250 truncated binary
    /// plists, 250 NSArchiver typedstreams (both malformed) and 500 text files (skipped).
    static func makeTree() throws -> (root: URL, valid: [String: String]) {
        let root = try CLIRunner.temporaryDirectory().appendingPathComponent("tree")
        var valid: [String: String] = [:]
        for index in 0 ..< 2_000 {
            let folder = "d\(index % 7)/s\(index % 3)"
            let bytes: [UInt8]
            let name: String
            switch index % 8 {
            case 0, 1:
                bytes = try CLITests.archive("item \(index)" as NSString)
                name = "\(folder)/v\(index).archive"
                valid[name] = "{\"root\":\"item \(index)\"}\n"
            case 2, 3:
                bytes = try CLITests.archive(Memo(title: "m\(index)", count: index))
                name = "\(folder)/r\(index).archive"
            case 4:
                bytes = Array("bplist00garbage \(index)".utf8)
                name = "\(folder)/t\(index).plist"
            case 5:
                bytes = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03, 0x84, 0x01, 0x40]
                name = "\(folder)/n\(index).typedstream"
            default:
                bytes = Array("just a note \(index)\n".utf8)
                name = "\(folder)/x\(index).txt"
            }
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return (root, valid)
    }

    /// The summary's count lines, e.g. "rejected policy.class_not_allowed" → 500.
    static func codeCounts(_ stderr: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in stderr.split(separator: "\n") where line.hasPrefix("archivegate: summary:   ") {
            let parts = line.dropFirst("archivegate: summary:   ".count).split(separator: " ")
            if parts.count == 3, let count = Int(parts[2]) { counts[parts[0] + " " + parts[1]] = count }
        }
        return counts
    }

    static func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(next).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(next)
            }
        }
        return files.sorted()
    }

    @Test func convertMirrorsTheTreeAndSummarisesTwoThousandFiles() throws {
        let (root, valid) = try Self.makeTree()
        let out = root.deletingLastPathComponent().appendingPathComponent("out")
        let result = try CLIRunner.runToFiles(["convert", "--recursive", "--jobs", "2", "--out", out.path, root.path])
        #expect(result.status == 2, "worst code is malformed: \(result.stderr.suffix(500))")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(
            "archivegate: summary: 2000 files, ") && result.stderr.contains(": 500 converted, 500 rejected, 500 malformed, 500 skipped (not a property list)\n"),
            "\(result.stderr.suffix(600))")
        #expect(Self.codeCounts(result.stderr) == [
            "rejected policy.class_not_allowed": 500,
            "malformed plist.truncated": 250,
            "malformed typedstream.truncated": 250,
        ])
        let written = Self.files(under: out)
        #expect(written == valid.keys.map { $0 + ".json" }.sorted())
        for (name, json) in valid {
            let contents = try String(contentsOf: out.appendingPathComponent(name + ".json"), encoding: .utf8)
            #expect(contents == json, "\(name)")
        }
        // One line per rejected or malformed file, each naming it.
        #expect(result.stderr.split(separator: "\n").filter { $0.contains(": rejected: policy.class_not_allowed") }.count == 500)
        #expect(result.stderr.split(separator: "\n").filter { $0.contains(": malformed: typedstream.truncated at byte 19: ") }.count == 250)
    }

    @Test func validateWritesOneJSONLineEachExceptSkippedFiles() throws {
        let (root, _) = try Self.makeTree()
        let result = try CLIRunner.runToFiles(["validate", "--recursive", root.path])
        #expect(result.status == 2)
        var statuses: [String: Int] = [:]
        var files = Set<String>()
        for line in result.stdout.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            statuses[record["status"] as? String ?? "?", default: 0] += 1
            files.insert(record["file"] as? String ?? "")
            if record["status"] as? String == "malformed" {
                #expect((record["error"] as? [String: Any])?["code"] != nil)
            } else {
                #expect((record["report"] as? [String: Any])?["valid"] != nil)
            }
        }
        #expect(statuses == ["valid": 500, "rejected": 500, "malformed": 500])
        #expect(files.count == 1_500)
        #expect(result.stderr.contains(": 500 valid, 500 rejected, 500 malformed, 500 skipped"))
    }

    /// Records spell their strings as `JSONEncoder` (`.withoutEscapingSlashes`) does — quotes,
    /// backslashes, control characters and non-ASCII in a file name, an error's fields in sorted
    /// order — and every record reaches stdout, though they are written in batches.
    @Test func recordsSpellAwkwardNamesAsJSONEncoderDoes() throws {
        let root = try CLIRunner.temporaryDirectory().appendingPathComponent("awkward")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let names = ["quote\"d.plist", "back\\slash.plist", "tab\there.plist", "new\nline.plist", "caf\u{e9} \u{1F600}.plist",
                     "bell\u{7}.plist"]
        for name in names {
            try Data(Array("bplist00garbage".utf8)).write(to: root.appendingPathComponent(name))
        }
        let result = try CLIRunner.runToFiles(["validate", "--jobs", "2", root.path])
        #expect(result.status == 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == names.count)
        for name in names {
            let file = String(decoding: try encoder.encode(name), as: UTF8.self)
            let line = try #require(lines.first { $0.hasPrefix("{\"file\":\(file),") }, "no record for \(file)")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let error = try #require(record["error"] as? [String: String])
            let spelled = String(decoding: try encoder.encode(error), as: UTF8.self)
            #expect(line.hasSuffix(",\"error\":\(spelled)}"))
            #expect(record["status"] as? String == "malformed")
        }
    }

    @Test func globsAndDepthSelectFiles() throws {
        let (root, _) = try Self.makeTree()
        // Without --recursive a folder's own files only: this tree keeps every file in sub-folders.
        let flat = try CLIRunner.runToFiles(["validate", root.path])
        #expect(flat.status == 4, "a batch that found no archive checked nothing: inconclusive, exit 4")
        #expect(flat.stdout.isEmpty)
        #expect(flat.stderr.contains("summary: 0 files"))
        #expect(flat.stderr.contains("summary: inconclusive (batch.no_archive)"))
        // Includes match the file name or the relative path; excludes win.
        let selected = try CLIRunner.runToFiles(["convert", "--recursive", "--include", "*.archive", "--exclude", "d0/*", "--exclude", "r*", root.path])
        #expect(selected.status == 0, "\(selected.stderr.suffix(300))")
        let lines = selected.stdout.split(separator: "\n")
        let expected = (0 ..< 2_000).filter { $0 % 8 < 2 && $0 % 7 != 0 }.count
        #expect(lines.count == expected)
        #expect(lines.allSatisfy { $0.contains("\"status\":\"converted\",\"json\":{\"root\":\"item ") && !$0.contains("\"file\":\"d0/") })
        #expect(selected.stderr.contains("summary: \(expected) files"))
    }

    @Test func aMissingFolderIsAUsageError() throws {
        let result = try CLIRunner.runToFiles(["convert", "--recursive", "/nonexistent/folder"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot open '/nonexistent/folder'"))
    }

    @Test func severalFilesWithoutABatchFlagAreAUsageError() throws {
        let result = try CLIRunner.runToFiles(["convert", "a.archive", "b.archive"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("several inputs make a batch"))
    }

    static let peerCorpus = CLIRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/peer-corpus")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: peerCorpus.path), "../shared/peer-corpus is absent"))
    func convertsThePeerCorpusWithASummaryAndNoCrash() throws {
        let out = try CLIRunner.temporaryDirectory().appendingPathComponent("out")
        let result = try CLIRunner.runToFiles(["convert", "--recursive", "--out", out.path, Self.peerCorpus.path])
        #expect([0, 1, 2, 3].contains(result.status), "exit \(result.status): \(result.stderr.suffix(500))")
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("archivegate: summary: ") })
        let inputs = Self.files(under: Self.peerCorpus)
        #expect(summary.hasPrefix("archivegate: summary: \(inputs.count) files, "), "\(summary)")
        let converted = try #require(summary.split(separator: ": ").last?.split(separator: " ").first.flatMap { Int($0) })
        #expect(converted > 0)
        // Every verdict that releases content is mirrored: converted, redacted, shown with findings, plain plists.
        func count(_ label: String) -> Int {
            guard let range = summary.range(of: " " + label) else { return 0 }
            return Int(summary[..<range.lowerBound].split(separator: " ").last ?? "") ?? 0
        }
        let plain = count("plain property lists")
        #expect(plain > 0, "the peer corpus holds plain property lists: \(summary)")
        #expect(!result.stderr.contains("archive.not_a_keyed_archive"))
        #expect(Self.files(under: out).count == converted + count("redacted") + count("accepted with findings") + plain)
    }
}
