import ArchiveGateCore
import CSQLite3
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The CLI on hostile forensic inputs (issue 31): scan-db reads every table, refuses FIFOs and
/// copies sparse logs without their holes; `--out` never renames over a device, FIFO or link;
/// input-derived text cannot reach the terminal as escapes; a closed stdout exits 74.
@Suite(.serialized) struct HostileForensicInputTests {
    static func fileType(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    /// The real /dev/null is never a target; every test checks it is still a character device.
    static func expectDevNullIntact() {
        #expect(fileType("/dev/null") == S_IFCHR, "/dev/null is no longer a character device")
    }

    @Test func scanDBReadsTablesNamedLikeSQLitesAndGeneratedColumns() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let writer = try ScanDBCommandTests.Writer(path: path)
        try writer.exec("CREATE TABLE SQLiteStore (id INTEGER PRIMARY KEY, b BLOB)")
        try writer.exec("CREATE TABLE sqlite1 (id INTEGER PRIMARY KEY, b BLOB)")
        try writer.exec("CREATE TABLE derived (id INTEGER PRIMARY KEY, t TEXT, g BLOB GENERATED ALWAYS AS (CAST(t AS BLOB)) STORED)")
        let archive = try CLITests.archive(["hidden"] as NSArray)
        try writer.insert("INSERT INTO SQLiteStore (b) VALUES (?)", [archive])
        try writer.insert("INSERT INTO sqlite1 (b) VALUES (?)", [archive])
        // An XML keyed archive as text; the stored generated column holds it as a BLOB.
        let xml = try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: Data(archive), format: nil), format: .xml, options: 0)
        try writer.insert("INSERT INTO derived (t) VALUES (?)", [String(decoding: xml, as: UTF8.self)])
        let result = try CLIRunner.run(["scan-db", "--allow-any-class", path])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try ScanDBCommandTests.records(result.stdout)
        let origins = Set(records.map { "\($0["table"] ?? "").\($0["column"] ?? "") \($0["status"] ?? "")" })
        #expect(origins == ["SQLiteStore.b converted", "sqlite1.b converted", "derived.g converted"], "\(result.stderr)")
    }

    @Test func scanDBRefusesAFIFODatabaseOrLog() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("evidence.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let refused = try CLIRunner.run(["scan-db", "--allow-any-class", fifo])
        #expect(refused.status == 2)
        #expect(refused.stderr == "archivegate: scan.not_a_regular_file: '\(fifo)' is not a regular file (a FIFO)\n")

        let (database, _) = try ScanDBCommandTests.makeDatabase()
        #expect(mkfifo(database + "-wal", 0o600) == 0)
        let log = try CLIRunner.run(["scan-db", "--allow-any-class", database])
        #expect(log.status == 2)
        #expect(log.stderr == "archivegate: scan.not_a_regular_file: '\(database)-wal' is not a regular file (a FIFO)\n")
        #expect(log.stdout.isEmpty)
    }

    @Test func aSparseLogIsNotCopiedAsBytes() throws {
        let (database, expected) = try ScanDBCommandTests.makeDatabase()
        let log = database + "-wal"
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        #expect(truncate(log, 2 << 30) == 0)  // 2 GiB of hole: no WAL header
        let started = Date()
        let result = try CLIRunner.run(["scan-db", "--allow-any-class", "--jobs", "1", database])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.stderr.contains("reading a private copy: the database has a -wal/-shm file beside it"))
        let records = try ScanDBCommandTests.records(result.stdout)
        #expect(records.count == expected.values.reduce(0, +))
        #expect(seconds < 30, "copying 2 GiB of zeros takes longer; this took \(seconds) s")
        try FileManager.default.removeItem(atPath: log)
    }

    @Test func outWritesThroughAFIFOAndALinkInsteadOfReplacingThem() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try CLIRunner.write(try CLITests.archive(["a", 1] as NSArray), named: "in.archive", in: folder)
        // A new path is written atomically (no temporary left beside it): the bytes to expect.
        let regular = folder.appendingPathComponent("out.archive").path
        #expect(try CLIRunner.run(["sanitize", "--out", regular, input]).status == 0)
        let expected = try #require(FileManager.default.contents(atPath: regular))
        #expect(expected.starts(with: Array("bplist00".utf8)))

        // A FIFO with a reader (`cat` copying it to a file): written through, still a FIFO.
        let fifo = folder.appendingPathComponent("pipe").path
        let captured = folder.appendingPathComponent("captured").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Bounded: a CLI that renames over the FIFO never opens it, and the reader gives up.
        reader.arguments = ["-c", "timeout 20 cat \"$0\" > \"$1\"", fifo, captured]
        try reader.run()
        let throughFIFO = try CLIRunner.run(["sanitize", "--out", fifo, input])
        reader.waitUntilExit()
        #expect(throughFIFO.status == 0, "\(throughFIFO.stderr)")
        #expect(Self.fileType(fifo) == S_IFIFO)
        #expect(FileManager.default.contents(atPath: captured) == expected)

        // A symbolic link: its target is written, the link stays a link.
        let target = folder.appendingPathComponent("target").path
        let link = folder.appendingPathComponent("link").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        #expect(symlink(target, link) == 0)
        let throughLink = try CLIRunner.run(["sanitize", "--out", link, input])
        #expect(throughLink.status == 0, "\(throughLink.stderr)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(FileManager.default.contents(atPath: target) == expected)

        // An existing regular file is replaced atomically; a directory is refused.
        #expect(FileManager.default.createFile(atPath: regular, contents: Data("old".utf8)))
        #expect(try CLIRunner.run(["sanitize", "--out", regular, input]).status == 0)
        #expect(FileManager.default.contents(atPath: regular) == expected)
        let directory = try CLIRunner.run(["sanitize", "--out", folder.path, input])
        #expect(directory.status == 64)
        #expect(directory.stderr == "archivegate: cannot write '\(folder.path)': it is a directory\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".archivegate-") }
        #expect(left.isEmpty)
        Self.expectDevNullIntact()
    }

    @Test func encodeOutWritesThroughAFIFO() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = try CLIRunner.write(try CLITests.archive(["x"] as NSArray), named: "in.archive", in: folder)
        let typed = try CLIRunner.run(["convert", "--mode", "typed", archive])
        let json = try CLIRunner.write(Array(typed.stdout.utf8), named: "in.json", in: folder)
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "timeout 20 cat \"$0\" > /dev/null", fifo]  // the shell's redirection only writes
        try reader.run()
        let result = try CLIRunner.run(["encode", "--out", fifo, json])
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fileType(fifo) == S_IFIFO)
        Self.expectDevNullIntact()
    }

    @Test func encodeRefusesADangerousArchiveUnderAGatePolicy() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var builder = KeyedArchiveBuilder()
        let sort = builder.object(class: builder.classRecord("Innocent", chain: ["Innocent", "NSSortDescriptor", "NSObject"]),
                                  fields: ["NSKey": .uid(builder.add("name"))])
        builder.setTop("root", sort)
        let bytes = builder.binary()
        let input = try CLIRunner.write(bytes, named: "in.archive", in: folder)
        let typed = try CLIRunner.run(["convert", "--allow-any-class", "--mode", "typed", input])
        let json = try CLIRunner.write(Array(typed.stdout.utf8), named: "in.json", in: folder)
        let out = folder.appendingPathComponent("out.archive").path
        let refused = try CLIRunner.run(["encode", "--out", out, json])
        // Checked like any archive read: the class is not admitted and the finding is not acknowledged.
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("finding danger.sort_descriptor (Innocent)"))
        #expect(refused.stderr.contains("verdict rejected"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Inspection writes it and reports the finding: acceptedWithFindings, not valid (exit 1).
        let inspected = try CLIRunner.run(["encode", "--allow-any-class", "--out", out, json])
        #expect(inspected.status == 1)
        #expect(inspected.stderr.contains("finding danger.sort_descriptor (Innocent)"))
        #expect(inspected.stderr.contains("verdict acceptedWithFindings"), "\(inspected.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func inputTextCannotReachTheTerminalAsEscapes() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var builder = KeyedArchiveBuilder()
        let name = "Evil\u{1B}[2J\u{9B}31m\narchivegate: summary: 0 rejected\u{202E}"
        let evil = builder.object(class: builder.classRecord(name), fields: ["k": 1])
        builder.setTop("root", builder.array(of: [evil]))
        let input = try CLIRunner.write(builder.binary(), named: "in\u{1B}]0;title\u{7}.archive", in: folder)
        let result = try CLIRunner.run(["convert", input])
        #expect(result.status == 1)
        #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F ... 0x9F).contains($0.value) || $0.value == 0x202E })
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line, not a forged second one: \(result.stderr)")
        #expect(result.stderr.contains("Evil\\e[2J\\u{9B}31m\\narchivegate: summary: 0 rejected\\u{202E}"))
        #expect(result.stderr.contains("in\\e]0;title\\u{7}.archive"))
    }

    @Test(arguments: [["sanitize"], ["convert"], ["convert", "--pretty"]])
    func aClosedStdoutExits74(command: [String]) throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try CLIRunner.write(try CLITests.archive(Array(repeating: "row", count: 20_000) as NSArray), named: "big.archive", in: folder)
        try expectExit74(arguments: command + [input])
    }

    /// Help, the version and hash-key print through the same stdout writer as the rest.
    @Test(arguments: [["--help"], ["--version"], ["validate", "--help"], ["hash-key", "a-key"]])
    func aClosedStdoutExits74WithoutInput(command: [String]) throws {
        try expectExit74(arguments: command)
    }

    private func expectExit74(arguments: [String]) throws {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try out.fileHandleForReading.close()  // nobody will ever read stdout
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 74, "\(stderr)")
        #expect(stderr.contains("Broken pipe"))
    }
}
