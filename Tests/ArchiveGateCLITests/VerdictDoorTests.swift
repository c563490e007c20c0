import ArchiveGateCore
import ArchiveGateTestSupport
import Foundation
import Testing

/// The door table: the same inputs through every CLI door — `validate`, `convert`, `sanitize`,
/// batch JSON Lines (`validate`, `convert`), `validate --out`, `scan-db`, `validate --url` and
/// `convert --url` from a loopback origin (and the `fetch` alias), and `encode` of the archive's
/// typed JSON — give the same verdict and the exit status docs/CLI.md documents for it (0 accepted,
/// redacted, plist; 1 rejected, acceptedWithFindings; 2 malformed; 3 inconclusive).
@Suite struct VerdictDoorTests {
    struct Row: CustomStringConvertible, Sendable {
        var name: String
        var bytes: @Sendable () throws -> [UInt8]
        var flags: [String]
        var verdict: String
        /// `encode`'s verdict on the re-encoded archive (it never redacts); nil: not an encode row.
        var encodeVerdict: String?
        var description: String { name }
    }

    static let exitStatus: [String: Int32] = ["accepted": 0, "redacted": 0, "plist": 0, "rejected": 1,
                                              "acceptedWithFindings": 1, "malformed": 2, "inconclusive": 3]

    static func redactPolicy() throws -> String {
        let path = try CLIRunner.temporaryDirectory().appendingPathComponent("redact.json")
        try Data(#"{"allow": ["foundation"], "onViolation": "redact"}"#.utf8).write(to: path)
        return path.path
    }

    static func nestedPredicate() -> [UInt8] {
        var outer = KeyedArchiveBuilder()
        let data = outer.add(.data(DangerCommandTests.predicateInArray()))
        outer.setTop("root", outer.array(of: [data]))
        return outer.binary()
    }

    /// `bytes` with "hidden" between the last object and the offset table.
    static func withHiddenBytes(_ bytes: [UInt8]) -> [UInt8] {
        let base = bytes.count - 32
        let tableStart = bytes[(base + 24) ..< (base + 32)].reduce(0) { $0 << 8 | Int($1) }
        let junk = Array("hidden".utf8)
        var trailer = Array(bytes[base...])
        for byte in 0 ..< 8 { trailer[24 + byte] = UInt8(truncatingIfNeeded: (tableStart + junk.count) >> ((7 - byte) * 8)) }
        return Array(bytes[..<tableStart]) + junk + Array(bytes[tableStart ..< base]) + trailer
    }

    static let rows: [Row] = [
        Row(name: "valid", bytes: { try CLITests.archive(["a", "b"] as NSArray) }, flags: [], verdict: "accepted", encodeVerdict: "accepted"),
        Row(name: "custom class", bytes: { try CLITests.archive(Memo(title: "t", count: 1)) }, flags: [], verdict: "rejected", encodeVerdict: "rejected"),
        Row(name: "redacted", bytes: { try CLITests.archive(Memo(title: "t", count: 1)) },
            flags: ["--policy", (try? redactPolicy()) ?? "missing"], verdict: "redacted", encodeVerdict: "rejected"),
        Row(name: "truncated", bytes: { Array("bplist00garbage".utf8) }, flags: [], verdict: "malformed"),
        Row(name: "danger finding", bytes: { DangerCommandTests.predicateInArray() }, flags: ["--allow-any-class"],
            verdict: "acceptedWithFindings", encodeVerdict: "acceptedWithFindings"),
        Row(name: "danger under the gate", bytes: { DangerCommandTests.predicateInArray() }, flags: [], verdict: "rejected", encodeVerdict: "rejected"),
        Row(name: "nested archive", bytes: { nestedPredicate() }, flags: ["--allow-any-class"], verdict: "inconclusive", encodeVerdict: "inconclusive"),
        Row(name: "limit hit", bytes: { try CLITests.archive([[["deep"]]] as NSArray) }, flags: ["--limit", "maxDepth=2"],
            verdict: "inconclusive"),
        Row(name: "plain plist", bytes: {
            Array(try PropertyListSerialization.data(fromPropertyList: ["name": "Ada", "tags": ["x"]], format: .binary, options: 0))
        }, flags: [], verdict: "plist"),
        Row(name: "trailing bytes", bytes: { withHiddenBytes(try CLITests.archive(["a", "b"] as NSArray)) }, flags: [],
            verdict: "inconclusive"),
    ]

    /// The `"verdict"` of the first JSON record on stdout.
    static func verdict(_ stdout: String) -> String? {
        guard let line = stdout.split(separator: "\n").first,
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["verdict"] as? String
    }

    @Test(arguments: rows)
    func everyDoorGivesTheSameVerdict(_ row: Row) throws {
        let directory = try CLIRunner.temporaryDirectory()
        let bytes = try row.bytes()
        let file = try CLIRunner.write(bytes, named: "input.archive", in: directory)
        let status = try #require(Self.exitStatus[row.verdict])

        let validate = try CLIRunner.run(["validate"] + row.flags + [file])
        #expect(Self.verdict(validate.stdout) == row.verdict, "validate: \(validate.stdout) \(validate.stderr)")
        #expect(validate.status == status, "validate: \(validate.stderr)")

        let convert = try CLIRunner.run(["convert"] + row.flags + [file])
        #expect(convert.status == status, "convert: \(convert.stderr)")
        #expect(!convert.stdout.isEmpty == Verdict.names.filter { ["accepted", "acceptedWithFindings", "redacted", "plist", "inconclusive"].contains($0) }
            .contains(row.verdict) || row.name == "limit hit", "convert output: \(convert.stdout.prefix(200))")

        let sanitize = try CLIRunner.run(["sanitize"] + row.flags + ["--out", directory.appendingPathComponent("clean").path, file])
        #expect(sanitize.status == status, "sanitize: \(sanitize.stderr)")

        for command in ["validate", "convert"] {
            let batch = try CLIRunner.run([command, "--jobs", "1"] + row.flags + [file])
            #expect(Self.verdict(batch.stdout) == row.verdict, "\(command) batch: \(batch.stdout.prefix(300))")
            #expect(batch.status == status, "\(command) batch: \(batch.stderr)")
        }

        let out = directory.appendingPathComponent("out")
        let mirrored = try CLIRunner.run(["validate", "--out", out.path] + row.flags + [directory.path])
        let record = try String(contentsOf: out.appendingPathComponent("input.archive.json"), encoding: .utf8)
        #expect(Self.verdict(record) == row.verdict, "validate --out: \(record.prefix(300))")
        #expect(mirrored.status == status, "validate --out: \(mirrored.stderr)")

        let database = directory.appendingPathComponent("evidence.sqlite").path
        let writer = try ScanDBCommandTests.Writer(path: database)
        try writer.exec("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB)")
        try writer.insert("INSERT INTO blobs (id, body) VALUES (?, ?)", [1, bytes])
        let scan = try CLIRunner.run(["scan-db"] + row.flags + [database])
        #expect(Self.verdict(scan.stdout) == row.verdict, "scan-db: \(scan.stdout.prefix(300)) \(scan.stderr)")
        #expect(scan.status == status, "scan-db: \(scan.stderr)")

        let origin = try TestHTTPServer { _ in .response(status: 200, body: bytes) }
        defer { origin.stop() }
        let url = origin.url("/input.archive")
        let fromURL = try CLIRunner.run(["validate", "--url", url, "--allow-range", "127.0.0.0/8"] + row.flags)
        #expect(Self.verdict(fromURL.stdout) == row.verdict, "validate --url: \(fromURL.stdout.prefix(300)) \(fromURL.stderr)")
        #expect(fromURL.status == status, "validate --url: \(fromURL.stderr)")
        let convertURL = try CLIRunner.run(["convert", "--url", url, "--allow-range", "127.0.0.0/8"] + row.flags)
        #expect(convertURL.status == status, "convert --url: \(convertURL.stderr)")
        #expect(convertURL.stdout == convert.stdout, "convert --url prints what convert prints")
        let fetch = try CLIRunner.run(["fetch", "--allow-range", "127.0.0.0/8"] + row.flags + [url])
        #expect(Self.verdict(fetch.stdout) == row.verdict, "fetch: \(fetch.stdout.prefix(300)) \(fetch.stderr)")
        #expect(fetch.status == status, "fetch: \(fetch.stderr)")

        guard let encodeVerdict = row.encodeVerdict else { return }
        let typed = try CLIRunner.run(["convert", "--allow-any-class", "--mode", "typed", file])
        let json = try CLIRunner.write(Array(typed.stdout.utf8), named: "typed.json", in: directory)
        let written = directory.appendingPathComponent("encoded.archive").path
        let encode = try CLIRunner.run(["encode", "--out", written] + row.flags + [json])
        #expect(encode.stderr.contains("verdict \(encodeVerdict)"), "encode: \(encode.stderr)")
        #expect(encode.status == Self.exitStatus[encodeVerdict], "encode: \(encode.stderr)")
        #expect(FileManager.default.fileExists(atPath: written) == ["accepted", "acceptedWithFindings"].contains(encodeVerdict))
    }

    /// Not a property list at all: one file is malformed; a batch of it found no archive (inconclusive).
    @Test func notAPropertyList() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(Array("hello, world".utf8), named: "note.txt", in: directory)
        let validate = try CLIRunner.run(["validate", file])
        #expect(Self.verdict(validate.stdout) == "malformed")
        #expect(validate.status == 2)
        let batch = try CLIRunner.run(["validate", "--jobs", "1", file])
        #expect(batch.stdout.isEmpty)
        #expect(batch.stderr.contains("skipped (not a property list)"))
        #expect(batch.stderr.contains("inconclusive (batch.no_archive)"))
        #expect(batch.status == 4, "nothing scanned")
    }

    /// The real corpus's plain property lists: `plist`, never `malformed`; their JSON converts.
    static let realPlists = CLIRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/real-corpus/plist-backup")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: realPlists.path), "../shared/real-corpus/plist-backup is absent"))
    func realPlainPropertyListsAreNotMalformed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.realPlists.path)
            .filter { $0.hasPrefix("164c5b9a8398819d_") || $0.hasPrefix("d8cf53ed239a8cef_") }
        #expect(names.count == 2)
        for name in names {
            let path = Self.realPlists.appendingPathComponent(name).path
            let validate = try CLIRunner.run(["validate", path])
            #expect(Self.verdict(validate.stdout) == "plist", "\(name): \(validate.stderr)")
            #expect(validate.status == 0)
            #expect(!validate.stderr.contains("malformed"))
            let convert = try CLIRunner.run(["convert", path])
            #expect(convert.status == 0)
            #expect((try? JSONSerialization.jsonObject(with: Data(convert.stdout.utf8))) != nil, "\(name): \(convert.stdout.prefix(200))")
        }
    }
}
