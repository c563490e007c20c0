@testable import archivegate
import CSQLite3
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31: `scan-db` copies a `-wal` that shrinks during the copy (a checkpoint empties it into
/// the database) without spinning, and never pairs a database copied before the checkpoint with the
/// emptied log. The log is shrunk at a chosen offset by `DatabaseCopy`'s chunk observer — by a
/// second real SQLite connection's checkpoint, or by a plain truncate — so no timing decides it.
@Suite(.timeLimit(.minutes(1))) struct ShrinkingLogTests {
    static let rows = 100
    /// Small chunks, so the log (~420 KB) is copied in several and can shrink between two of them.
    static let chunkBytes = 64 << 10

    /// A WAL-mode database whose `rows` rows (4 KiB each) are all still in its log: automatic
    /// checkpoints are off and the writer stays open (closing it would checkpoint and delete the log).
    static func walDatabase() throws -> (writer: ScanDBCommandTests.Writer, path: String, folder: URL) {
        let folder = try CLIRunner.temporaryDirectory()
        let path = folder.appendingPathComponent("evidence.sqlite").path
        let writer = try ScanDBCommandTests.Writer(path: path)
        try writer.exec("PRAGMA journal_mode = WAL")
        try writer.exec("PRAGMA wal_autocheckpoint = 0")
        try writer.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)")
        for index in 0 ..< rows {
            try writer.insert("INSERT INTO t (b) VALUES (?)", [[UInt8](repeating: UInt8(index), count: 4096)])
        }
        return (writer, path, folder)
    }

    /// `SELECT count(*) FROM t` on a copy, opened read-only as a reader of the evidence would.
    static func rowCount(_ path: String) throws -> Int {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw Failure(path) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, "SELECT count(*) FROM t", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW else { throw Failure(String(cString: sqlite3_errmsg(handle))) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func size(_ path: String) -> Int { DatabaseCopy.Stamp(path: path)?.size ?? -1 }

    /// A checkpoint (TRUNCATE: the log is moved into the database and emptied) after the first
    /// chunk of the log: the copy ends, and it is the pair after the checkpoint — every row, read
    /// from the database copy alone — not the database from before it with an empty log.
    @Test func aCheckpointDuringTheLogsCopyGivesTheConsistentPairAfterIt() throws {
        let (writer, path, folder) = try Self.walDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = path + "-wal"
        #expect(Self.size(log) > 4 * Self.chunkBytes)
        let copy = folder.appendingPathComponent("copy.sqlite").path
        var checkpoints = 0
        let hasLog = try DatabaseCopy.copyPair(path, to: copy, chunkBytes: Self.chunkBytes) { source, _ in
            guard source == log, checkpoints == 0 else { return }
            checkpoints += 1
            try? writer.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        #expect(checkpoints == 1)
        #expect(Self.size(log) == 0, "the checkpoint emptied the log")
        #expect(!hasLog)
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"), "no log from before the checkpoint is left beside the copy")
        #expect(try Self.rowCount(copy) == Self.rows)
    }

    /// A log cut at a chosen offset (not a checkpoint: the database does not change): the copy
    /// ends and holds the log as it is after the cut, byte for byte, which SQLite reads as the
    /// commits it still holds.
    @Test func aLogCutDuringItsCopyIsCopiedAsItIsAfterTheCut() throws {
        let (writer, path, folder) = try Self.walDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        defer { withExtendedLifetime(writer) {} }  // open until the copy is done: its close would checkpoint
        let log = path + "-wal"
        let cut = 40_000
        let copy = folder.appendingPathComponent("copy.sqlite").path
        var cuts = 0
        let hasLog = try DatabaseCopy.copyPair(path, to: copy, chunkBytes: Self.chunkBytes) { source, copiedThrough in
            guard source == log, cuts == 0 else { return }
            #expect(copiedThrough == Self.chunkBytes)
            cuts += 1
            #expect(truncate(log, off_t(cut)) == 0)
        }
        #expect(cuts == 1)
        #expect(hasLog)
        #expect(FileManager.default.contents(atPath: copy + "-wal") == FileManager.default.contents(atPath: log))
        #expect(Self.size(copy + "-wal") == cut)
        let rows = try Self.rowCount(copy)
        #expect(rows >= 0 && rows < Self.rows, "\(rows) rows from a log cut to \(cut) bytes")
    }

    /// A log that shrinks during every attempt: a typed refusal after `DatabaseCopy.attempts`,
    /// not a loop.
    @Test func aLogThatKeepsShrinkingIsRefusedAfterTheAttempts() throws {
        let (writer, path, folder) = try Self.walDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        defer { withExtendedLifetime(writer) {} }  // open until the copy is done: its close would checkpoint
        let log = path + "-wal"
        let copy = folder.appendingPathComponent("copy.sqlite").path
        var cuts = 0
        #expect {
            try DatabaseCopy.copyPair(path, to: copy, chunkBytes: Self.chunkBytes) { source, copiedThrough in
                guard source == log else { return }
                cuts += 1
                _ = truncate(log, off_t(copiedThrough - 4096))
            }
        } throws: { error in
            (error as? DatabaseCopy.Refusal)?.code == "scan.file_changed" && (error as? DatabaseCopy.Refusal)?.path == log
        }
        #expect(cuts == DatabaseCopy.attempts)
    }
}
