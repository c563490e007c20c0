import ArchiveGateCore
import ArchiveGateTestSupport
import Foundation
import Testing

/// Issue 35 at the CLI's doors: NSArchiver typedstreams (iMessage `attributedBody`) through
/// `convert`, `validate` and `sanitize`, folder batches, `--nested` and `scan-db` over a
/// `chat.db`-shaped database built here. The files are other projects' fixtures
/// (`../shared/typedstream-corpus`, whose SOURCES.md gives each message's text).
@Suite(.enabled(if: TypedStreamSamples.isPresent, Comment(rawValue: TypedStreamSamples.absent)))
struct TypedStreamCommandTests {
    static func json(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func file(_ name: String) throws -> String {
        let corpusFile = TypedStreamSamples.root.appendingPathComponent(name)
        return try CLIRunner.write(try TypedStreamSamples.bytes(name), named: corpusFile.lastPathComponent, in: try CLIRunner.temporaryDirectory())
    }

    /// `convert` of an attributedBody file: the plain JSON's runs carry the message text; validate
    /// accepts it under the default `foundation` policy; typed mode is the lossless stream.
    @Test(arguments: TypedStreamSamples.messages)
    func convertShowsTheMessageText(_ message: TypedStreamSamples.Message) throws {
        let path = try Self.file(message.file)
        let converted = try CLIRunner.run(["convert", path])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(TypedStreamSamples.text(ofRuns: try Self.json(converted.stdout)["root"]) == message.text, "\(converted.stdout)")

        let validated = try CLIRunner.run(["validate", path])
        #expect(validated.status == 0, "\(validated.stdout) \(validated.stderr)")
        let report = try #require(try Self.json(validated.stdout)["report"] as? [String: Any], "\(validated.stdout)")
        #expect(report["verdict"] as? String == "accepted")
        let classes = Set((report["classes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect(classes.isSuperset(of: ["NSDictionary", "NSNumber"]) && !classes.isDisjoint(with: ["NSAttributedString", "NSMutableAttributedString"]),
                "the stream's own class names: \(classes)")

        let typed = try CLIRunner.run(["convert", "--mode", "typed", path])
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typed.stdout.contains("AttributedString"), "the typed JSON names the stream's classes: \(typed.stdout.prefix(300))")
    }

    /// The long message other tools cut short: 2,359 UTF-8 bytes behind 2-byte length prefixes.
    @Test func aLongMessageIsWhole() throws {
        let converted = try CLIRunner.run(["convert", try Self.file(TypedStreamSamples.longMessage)])
        let text = try #require(TypedStreamSamples.text(ofRuns: try Self.json(converted.stdout)["root"]), "\(converted.stdout.prefix(300))")
        #expect(text.hasPrefix(TypedStreamSamples.longMessageStart))
        #expect(text.utf8.count == TypedStreamSamples.longMessageUTF8Count)
    }

    /// A nib's AppKit classes: rejected under `foundation`, rendered in inspection mode, redacted
    /// (exit 0, each redaction on stderr) under a redact policy, as for a keyed archive.
    @Test func theClassPolicyAppliesToATypedstream() throws {
        let path = try Self.file(TypedStreamSamples.nib)
        let rejected = try CLIRunner.run(["validate", path])
        #expect(rejected.status == 1)
        let report = try #require(try Self.json(rejected.stdout)["report"] as? [String: Any], "\(rejected.stdout.prefix(300))")
        #expect(report["verdict"] as? String == "rejected")
        let violations = (report["violations"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "") \($0["path"] ?? "")" }
        #expect(violations.first == "policy.class_not_allowed /root", "\(violations.prefix(3))")
        #expect(rejected.stderr.contains("rejected: policy.class_not_allowed at /root: class 'NSIBObjectData' is not allowed by policy 'foundation'"),
                "\(rejected.stderr)")

        // Inspection renders every class, positional values under "0", "1", … (the custom object's
        // first value is an NSCustomObject whose first value is its class name).
        let inspected = try CLIRunner.run(["convert", "--allow-any-class", path])
        let root = try #require(try Self.json(inspected.stdout)["root"] as? [String: Any], "\(inspected.stdout.prefix(300))")
        #expect(root["$class"] as? String == "NSIBObjectData")
        #expect((root["0"] as? [String: Any])?["0"] as? String == "FinkWarningDialog", "\(inspected.stdout.prefix(300))")

        let policy = try CLIRunner.write(Array(#"{"allow": ["foundation"], "onViolation": "redact"}"#.utf8), named: "redact.json",
                                         in: try CLIRunner.temporaryDirectory())
        let redacted = try CLIRunner.run(["convert", "--policy", policy, path])
        #expect(redacted.status == 0, "\(redacted.stderr)")
        #expect(redacted.stdout == #"{"root":null}"# + "\n", "the root object is the disallowed NSIBObjectData: \(redacted.stdout.prefix(300))")
        #expect(redacted.stderr.contains("redacted /root"), "\(redacted.stderr)")
    }

    /// `sanitize` writes the keyed archive the typedstream lowers to: converting that archive gives
    /// exactly the typedstream's plain JSON.
    @Test func sanitizeWritesAnEquivalentKeyedArchive() throws {
        let message = TypedStreamSamples.messages[2]
        let path = try Self.file(message.file)
        let folder = try CLIRunner.temporaryDirectory()
        let clean = folder.appendingPathComponent("clean.archive").path
        let sanitized = try CLIRunner.run(["sanitize", "--out", clean, path])
        #expect(sanitized.status == 0, "\(sanitized.stderr)")
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: clean)))
        #expect(written.starts(with: Array("bplist00".utf8)))
        let fromStream = try CLIRunner.run(["convert", path])
        let fromArchive = try CLIRunner.run(["convert", clean])
        #expect(fromArchive.status == 0, "\(fromArchive.stderr)")
        #expect(fromArchive.stdout == fromStream.stdout)
        #expect(TypedStreamSamples.text(ofRuns: try Self.json(fromArchive.stdout)["root"]) == message.text)
    }

    /// A malformed typedstream: one stderr line with the `typedstream.*` code and the byte offset,
    /// exit 2, nothing on stdout.
    @Test func aTruncatedTypedstreamIsMalformedWithItsOffset() throws {
        let bytes = try TypedStreamSamples.bytes(TypedStreamSamples.messages[0].file)
        let path = try CLIRunner.write(Array(bytes.prefix(100)), named: "cut.typedstream", in: try CLIRunner.temporaryDirectory())
        for command in ["convert", "validate", "sanitize"] {
            let result = try CLIRunner.run([command, path])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(path): malformed: typedstream.truncated at byte "), "\(command): \(result.stderr)")
            if command != "validate" { #expect(result.stdout.isEmpty) }
        }
        let validated = try CLIRunner.run(["validate", path])
        let error = try #require(try Self.json(validated.stdout)["error"] as? [String: Any], "\(validated.stdout)")
        #expect(error["code"] as? String == "typedstream.truncated")
        let location = try #require(error["location"] as? String)
        let offset = try #require(Int(location.dropFirst("at byte ".count)), "\(location)")
        #expect((16 ... 100).contains(offset), "the offset is inside the 100 bytes, past the header: \(location)")
    }

    /// A folder batch over the whole corpus: one JSON Lines record per typedstream file (the empty
    /// file and the corpus' SOURCES.md and manifest.json are not archives: skipped); every file no
    /// source project calls malformed converts in inspection mode; every malformed record names a
    /// `typedstream.*` code and a byte offset.
    @Test func aFolderBatchGivesOneRecordPerTypedstream() throws {
        let result = try CLIRunner.runToFiles(["convert", "--allow-any-class", "--recursive", "--jobs", "2", TypedStreamSamples.root.path])
        let records = try result.stdout.split(separator: "\n").map { try Self.json($0) }
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: TypedStreamSamples.root.appendingPathComponent("manifest.json"))) as? [[String: Any]])
        let withHeader = manifest.filter { ($0["header"] as? String)?.hasPrefix("v4 ") == true }
        #expect(records.count == withHeader.count, "\(result.stderr.suffix(300))")
        let negative = Set(manifest.filter { $0["negative"] is String }.compactMap { $0["file"] as? String })
        var statuses: [String: Int] = [:]
        for record in records {
            let file = try #require(record["file"] as? String)
            let status = try #require(record["status"] as? String)
            statuses[status, default: 0] += 1
            if !negative.contains(file) {
                #expect(status == "converted", "\(file): \(record["error"] ?? "")")
            }
            if status == "malformed" {
                #expect(negative.contains(file), "\(file) is malformed, and no source project says so: \(record["error"] ?? "")")
                let error = try #require(record["error"] as? [String: Any])
                #expect((error["code"] as? String)?.hasPrefix("typedstream.") == true, "\(file): \(error)")
                #expect((error["location"] as? String)?.hasPrefix("at byte ") == true, "\(file): \(error)")
            }
        }
        #expect(result.stderr.contains("\(records.count + 3) files"), "\(result.stderr.suffix(300))")
        #expect(result.stderr.contains("3 skipped (not a property list)"), "\(result.stderr.suffix(300))")
        #expect(statuses["converted", default: 0] >= withHeader.count - negative.count)
    }

    /// `--nested`: a keyed archive whose NSData holds an attributedBody typedstream renders it in
    /// place as `{"$archive": <its runs>}`; without `--nested` it stays data and leaves the verdict
    /// inconclusive (`danger.nested_archive`), as a nested keyed archive does. A typedstream that
    /// cannot be read stays data (a finding still), as bytes that are no property list do.
    @Test func aTypedstreamInsideNSDataDecodesUnderNested() throws {
        let message = TypedStreamSamples.messages[0]
        let body = try TypedStreamSamples.bytes(message.file)
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.array(of: [builder.add(.data(body)), builder.add(.data(Array(body.prefix(100))))]))
        let path = try CLIRunner.write(builder.binary(), named: "outer.archive", in: try CLIRunner.temporaryDirectory())

        let nested = try CLIRunner.run(["convert", "--allow-any-class", "--nested", path])
        #expect(nested.status == 1, "inspection: accepted with the nested-archive finding: \(nested.stderr)")
        #expect(nested.stderr.contains("accepted with 2 unacknowledged findings"), "\(nested.stderr)")
        let root = try #require(try Self.json(nested.stdout)["root"] as? [Any], "\(nested.stdout.prefix(300))")
        #expect(root.count == 2)
        let inner = try #require((root.first as? [String: Any])?["$archive"] as? [String: Any], "\(nested.stdout.prefix(300))")
        #expect(TypedStreamSamples.text(ofRuns: inner["root"]) == message.text)
        let cut = try #require(root.last as? String, "the cut stream stays data (base64): \(nested.stdout.prefix(400))")
        #expect(Data(base64Encoded: cut) == Data(body.prefix(100)))

        let validated = try CLIRunner.run(["validate", "--allow-any-class", "--nested", path])
        let report = try #require(try Self.json(validated.stdout)["report"] as? [String: Any], "\(validated.stdout.prefix(300))")
        #expect(report["verdict"] as? String == "acceptedWithFindings")
        let findings = report["findings"] as? [[String: Any]] ?? []
        #expect(findings.map { "\($0["code"] ?? "") \($0["path"] ?? "")" } == ["danger.nested_archive /root/0", "danger.nested_archive /root/1"],
                "\(validated.stdout.prefix(400))")

        let flat = try CLIRunner.run(["validate", "--allow-any-class", path])
        #expect(flat.status == 3, "\(flat.stdout.prefix(300))")
        #expect(try Self.json(flat.stdout)["verdict"] as? String == "inconclusive")
        #expect(try Self.json(flat.stdout)["verdictReason"] as? String == "danger.nested_archive")
        #expect(flat.stderr.contains("danger.nested_archive"), "\(flat.stderr)")
    }

    /// `scan-db` over a `chat.db`-shaped database: exactly one record per `attributedBody`, each
    /// with its message's text and row; the NULL body, the plain-text column and the non-archive
    /// BLOB give none. The database file is left byte-identical.
    @Test func scanDBGivesOneRecordPerAttributedBody() throws {
        let folder = try CLIRunner.temporaryDirectory()
        let path = folder.appendingPathComponent("chat.db").path
        let writer = try ScanDBCommandTests.Writer(path: path)
        try writer.exec("""
            CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT,
                handle_id INTEGER DEFAULT 0, attributedBody BLOB, payload_data BLOB, date INTEGER, is_from_me INTEGER DEFAULT 0)
            """)
        try writer.exec("CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, service TEXT)")
        try writer.insert("INSERT INTO handle (id, service) VALUES (?, ?)", ["+15555550100", "iMessage"])
        var expected: [Int: String] = [:]
        let bodies = TypedStreamSamples.messages.map { ($0.file, Optional($0.text)) } + [(TypedStreamSamples.longMessage, nil)]
        for (index, (file, text)) in bodies.enumerated() {
            // Since macOS 13 `text` is usually NULL and the message lives only in attributedBody.
            try writer.insert("INSERT INTO message (guid, text, attributedBody, date) VALUES (?, ?, ?, ?)",
                              ["guid-\(index)", nil, try TypedStreamSamples.bytes(file), 700_000_000_000_000_000 + index])
            expected[index + 1] = text ?? ""
        }
        try writer.insert("INSERT INTO message (guid, text, attributedBody, date) VALUES (?, ?, ?, ?)", ["guid-null", "sent before attributedBody", nil, 1])
        try writer.insert("INSERT INTO message (guid, text, attributedBody, payload_data) VALUES (?, ?, ?, ?)",
                          ["guid-png", nil, nil, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8]])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let result = try CLIRunner.runToFiles(["scan-db", path])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        let records = try result.stdout.split(separator: "\n").map { try Self.json($0) }
        #expect(records.count == bodies.count)
        #expect(records.allSatisfy { $0["table"] as? String == "message" && $0["column"] as? String == "attributedBody" })
        #expect(records.compactMap { $0["rowid"] as? Int } == Array(1 ... bodies.count))
        for record in records {
            let rowid = try #require(record["rowid"] as? Int)
            #expect(record["status"] as? String == "converted", "row \(rowid): \(record["error"] ?? "")")
            let text = try #require(TypedStreamSamples.text(ofRuns: (record["json"] as? [String: Any])?["root"]), "row \(rowid)")
            if rowid == bodies.count {
                #expect(text.hasPrefix(TypedStreamSamples.longMessageStart) && text.utf8.count == TypedStreamSamples.longMessageUTF8Count)
            } else {
                #expect(text == expected[rowid])
            }
        }
        #expect(result.stderr.contains("\(bodies.count) converted"), "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("1 skipped (not a property list)"), "the PNG payload: \(result.stderr.suffix(400))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
