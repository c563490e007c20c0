import CSQLite3
import Foundation
import Testing

/// `scan-db` over a real SQLite file built here with the system SQLite.
@Suite struct ScanDBCommandTests {
    /// A small writer for the test database (the CLI itself only ever reads).
    final class Writer {
        private var handle: OpaquePointer?

        init(path: String) throws {
            guard sqlite3_open(path, &handle) == SQLITE_OK else { throw Failure(message: "open \(path)") }
        }

        deinit { sqlite3_close_v2(handle) }

        struct Failure: Error { var message: String }

        func exec(_ sql: String) throws {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw Failure(message: String(cString: sqlite3_errmsg(handle))) }
        }

        /// Inserts one row whose values are BLOBs ([UInt8]), TEXT (String), INTEGER (Int) or NULL (nil).
        func insert(_ sql: String, _ values: [Any?]) throws {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure(message: String(cString: sqlite3_errmsg(handle))) }
            defer { sqlite3_finalize(statement) }
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case let bytes as [UInt8]: _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), csqlite3_transient()) }
                case let text as String: sqlite3_bind_text(statement, position, text, -1, csqlite3_transient())
                case let number as Int: sqlite3_bind_int64(statement, position, Int64(number))
                default: sqlite3_bind_null(statement, position)
                }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw Failure(message: String(cString: sqlite3_errmsg(handle))) }
        }
    }

    /// messages(id, body BLOB, note TEXT): 40 archives, 20 PNG-like BLOBs, text everywhere.
    /// attachments(id, meta BLOB, thumb BLOB) WITHOUT ROWID: 15 archives a policy rejects, 5 truncated
    /// bplists, 5 truncated typedstreams, 10 non-archive BLOBs. Returns the database path and the expected hits.
    static func makeDatabase(journal: String = "DELETE") throws -> (path: String, expected: [String: Int]) {
        let folder = try CLIRunner.temporaryDirectory()
        let path = folder.appendingPathComponent("evidence.sqlite").path
        let writer = try Writer(path: path)
        try writer.exec("PRAGMA journal_mode = \(journal)")
        try writer.exec("CREATE TABLE messages (id INTEGER PRIMARY KEY, body BLOB, note TEXT)")
        try writer.exec("CREATE TABLE attachments (id TEXT PRIMARY KEY, meta BLOB, thumb BLOB) WITHOUT ROWID")
        try writer.exec("BEGIN")
        for index in 0 ..< 60 {
            let body: [UInt8] = index < 40 ? try CLITests.archive(["message \(index)", index] as NSArray) : [0x89, 0x50, 0x4E, 0x47] + Array(repeating: UInt8(index), count: 32)
            try writer.insert("INSERT INTO messages (id, body, note) VALUES (?, ?, ?)", [index + 1, body, "bplist00 looks like one but is TEXT \(index)"])
        }
        for index in 0 ..< 25 {
            let meta: [UInt8] = switch index {
            case ..<15: try CLITests.archive(Memo(title: "a\(index)", count: index))
            case ..<20: Array("bplist00cut".utf8)
            default: [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03, 0x84, 0x01, 0x40]  // cut inside the root object
            }
            try writer.insert("INSERT INTO attachments (id, meta, thumb) VALUES (?, ?, ?)", ["att-\(index)", meta, index < 10 ? [0xFF, 0xD8, 0xFF, UInt8(index)] as [UInt8] : nil])
        }
        try writer.exec("COMMIT")
        return (path, ["messages.body converted": 40, "attachments.meta rejected": 15, "attachments.meta malformed": 10])
    }

    static func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func records(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func findsEveryArchiveBlobAndLeavesTheFileByteIdentical() throws {
        let (path, expected) = try Self.makeDatabase()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let before = try Self.digest(path)
        let listingBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let result = try CLIRunner.runToFiles(["scan-db", path])
        #expect(result.status == 2, "worst is malformed: \(result.stderr.suffix(400))")
        let records = try Self.records(result.stdout)
        var hits: [String: Int] = [:]
        for record in records {
            hits["\(record["table"] ?? "?").\(record["column"] ?? "?") \(record["status"] ?? "?")", default: 0] += 1
        }
        #expect(hits == expected)
        let messages = records.filter { $0["table"] as? String == "messages" }
        #expect(Set(messages.compactMap { $0["rowid"] as? Int }) == Set(1 ... 40))
        for record in messages {
            let rowid = try #require(record["rowid"] as? Int)
            #expect((record["json"] as? [String: Any])?["root"] as? [AnyHashable] == ["message \(rowid - 1)", rowid - 1])
            #expect((record["report"] as? [String: Any])?["valid"] as? Bool == true)
        }
        // WITHOUT ROWID: no rowid to report.
        #expect(records.filter { $0["table"] as? String == "attachments" }.allSatisfy { $0["rowid"] is NSNull })
        let codes = records.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes.filter { $0 == "typedstream.truncated" }.count == 5)
        #expect(codes.filter { $0 == "plist.truncated" }.count == 5)
        #expect(result.stderr.contains("scanned 85 rows in 2 tables"))
        #expect(result.stderr.contains("summary: 95 BLOBs, "), "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains(": 40 converted, 15 rejected, 10 malformed, 30 skipped (not a property list)"))
        #expect(!result.stderr.contains("private copy"))
        #expect(try Self.digest(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listingBefore)
    }

    @Test func tableAndColumnFiltersNarrowTheScan() throws {
        let (path, _) = try Self.makeDatabase()
        let result = try CLIRunner.runToFiles(["scan-db", "--allow-any-class", "--table", "attachments", "--column", "meta", path])
        let records = try Self.records(result.stdout)
        #expect(records.count == 25)
        #expect(records.filter { $0["status"] as? String == "converted" }.count == 15)
        #expect(result.status == 2)
        let missing = try CLIRunner.runToFiles(["scan-db", "--table", "nope", path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no table 'nope'"))
    }

    /// Parallel decoding keeps the database's order: the same records, byte for byte, for any --jobs.
    @Test func jobsDoNotChangeTheOutput() throws {
        let (path, _) = try Self.makeDatabase()
        let one = try CLIRunner.runToFiles(["scan-db", "--jobs", "1", path])
        let four = try CLIRunner.runToFiles(["scan-db", "--jobs", "4", path])
        #expect(one.status == 2 && four.status == 2)
        #expect(try Self.records(one.stdout).count == 65)
        #expect(one.stdout == four.stdout)
        #expect(four.stderr.contains(": 40 converted, 15 rejected, 10 malformed, 30 skipped (not a property list)"))
        let zero = try CLIRunner.runToFiles(["scan-db", "--jobs", "0", path])
        #expect(zero.status != 0 && zero.stderr.contains("--jobs takes a positive number"))
    }

    /// convert's output switches apply to each record's JSON.
    @Test func outputSwitchesApplyToTheJSON() throws {
        let (path, _) = try Self.makeDatabase()
        let kept = try CLIRunner.runToFiles(["scan-db", "--allow-any-class", "--table", "attachments", "--column", "meta", path])
        let dropped = try CLIRunner.runToFiles(["scan-db", "--allow-any-class", "--class-names", "drop", "--table", "attachments", "--column", "meta", path])
        func memos(_ stdout: String) throws -> [[String: Any]] {
            try Self.records(stdout).compactMap { ($0["json"] as? [String: Any])?["root"] as? [String: Any] }
        }
        let withClass = try memos(kept.stdout)
        let withoutClass = try memos(dropped.stdout)
        #expect(withClass.count == 15 && withoutClass.count == 15)
        #expect(withClass.allSatisfy { $0["$class"] != nil })
        #expect(withoutClass.allSatisfy { $0["$class"] == nil && $0["title"] != nil })
        let typed = try CLIRunner.runToFiles(["scan-db", "--mode", "typed", "--nulls", "drop", path])
        #expect(typed.status != 0 && typed.stderr.contains("plain mode only"))
    }

    @Test func aLockedDatabaseIsScannedThroughACopy() throws {
        let (path, _) = try Self.makeDatabase()
        let before = try Self.digest(path)
        let holder = try Writer(path: path)
        try holder.exec("BEGIN EXCLUSIVE")
        let result = try CLIRunner.runToFiles(["scan-db", "--table", "messages", path])
        try holder.exec("COMMIT")
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        // Locked (or, if SQLite made its journal at BEGIN, next to a journal): either way, a copy.
        #expect(result.stderr.contains("reading a private copy: the database is"))
        #expect(try Self.records(result.stdout).count == 40)
        #expect(try Self.digest(path) == before)
    }

    @Test func aWALDatabaseIsScannedThroughACopyWithItsLog() throws {
        let (path, _) = try Self.makeDatabase(journal: "WAL")
        // A connection left open keeps the -wal file (and its committed rows) beside the database.
        let writer = try Writer(path: path)
        try writer.exec("PRAGMA wal_autocheckpoint = 0")
        try writer.insert("INSERT INTO messages (id, body, note) VALUES (?, ?, ?)", [1_000, try CLITests.archive("late" as NSString), "in the WAL only"])
        let before = try Self.digest(path)
        let wal = try Self.digest(path + "-wal")
        let result = try CLIRunner.runToFiles(["scan-db", "--table", "messages", path])
        #expect(result.status == 0, "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("reading a private copy"))
        let records = try Self.records(result.stdout)
        #expect(records.count == 41)
        #expect(records.contains { $0["rowid"] as? Int == 1_000 })
        #expect(try Self.digest(path) == before)
        #expect(try Self.digest(path + "-wal") == wal)
    }
}
