import ArchiveGateSQLiteRead
import Foundation

/// Decides how to read a database without touching it, and opens it.
///
/// The original is opened `mode=ro` only when that cannot write anything beside it: a rollback-
/// journal database with no journal waiting to be rolled back, that no one holds locked. A WAL
/// database (whose readers need a `-shm` file, which SQLite would create), a hot journal, or a lock
/// another process holds send the scan to a private copy instead (the database and its `-wal`,
/// copied into a temporary folder), which is opened read-only and deleted afterwards.
final class DatabaseSnapshot {
    let database: ReadOnlyDatabase
    /// Why the scan reads a copy, or nil when it reads the original.
    let copyReason: String?
    private let copyFolder: URL?

    init(path: String) throws {
        // Each file SQLite may open beside the database must be a regular file (or absent): a FIFO
        // would block the scan for ever, a device would be read without end.
        try DatabaseCopy.requireRegularFile(path)
        for suffix in ["-wal", "-shm", "-journal"] { try DatabaseCopy.requireRegularFile(path + suffix, mayBeMissing: true) }
        if let reason = Self.reasonToCopy(path) {
            (database, copyFolder) = try Self.openCopy(of: path)
            copyReason = reason
            return
        }
        do {
            let original = try ReadOnlyDatabase(path: path, immutable: false)
            try original.query("SELECT count(*) FROM sqlite_schema") { _ in false }
            database = original
            copyReason = nil
            copyFolder = nil
        } catch let failure as ReadOnlyDatabase.Failure where failure.isBusy {
            (database, copyFolder) = try Self.openCopy(of: path)
            copyReason = "the database is locked by another process"
        }
    }

    deinit {
        if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) }
    }

    /// Why opening the original read-only could still write beside it, or nil when it cannot.
    private static func reasonToCopy(_ path: String) -> String? {
        let manager = FileManager.default
        if manager.fileExists(atPath: path + "-wal") || manager.fileExists(atPath: path + "-shm") {
            return "the database has a -wal/-shm file beside it"
        }
        if manager.fileExists(atPath: path + "-journal") { return "the database has a rollback journal beside it" }
        // Header bytes 18 and 19 are the read and write format versions: 2 means WAL mode.
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            if let header = try? handle.read(upToCount: 20), header.count == 20, header.starts(with: Array("SQLite format 3\u{0}".utf8)),
               header[header.startIndex + 18] == 2 || header[header.startIndex + 19] == 2 {
                return "the database is in WAL mode"
            }
        }
        return nil
    }

    /// Copies the database and its `-wal` into a new temporary folder and opens the copy
    /// (`DatabaseCopy.copyPair`: regular files only, holes kept, a `-wal` without a WAL header left
    /// out, the two from one moment).
    private static func openCopy(of path: String) throws -> (ReadOnlyDatabase, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("archivegate-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("copy.sqlite")
        do {
            if try DatabaseCopy.copyPair(path, to: copy.path) {
                // Read through the copied WAL (SQLite makes the -shm it needs in our folder).
                return (try ReadOnlyDatabase(path: copy.path, immutable: false), folder)
            }
            return (try ReadOnlyDatabase(path: copy.path, immutable: true), folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }
}
