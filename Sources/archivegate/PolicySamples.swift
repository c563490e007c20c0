import ArchiveGateCore
import ArgumentParser
import Foundation

/// The sample archives of `policy suggest`, `policy diff` and `policy check --samples`: files, and
/// folders walked recursively by the batch walker (sorted, symbolic links never followed), and the
/// archive BLOBs of a SQLite database (`--db`, the `scan-db` reader).
struct PolicySamples {
    /// One sample: its label (the path, or `table.column rowid N` of a database) and its bytes.
    struct Sample {
        var label: String
        var bytes: [UInt8]
    }

    var paths: [String]
    var databases: [String]

    /// Every sample file under `paths`; a path that does not exist is a usage error.
    func files() throws -> [BatchInput] {
        // `dir/` and `dir` name the same samples: `dir/a.plist`, not `dir//a.plist`.
        let trimmed = paths.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        return try BatchInputs.list(trimmed, options: BatchOptions.parse(["--recursive"]))
    }

    /// Calls `body` with each sample in order. A file that cannot be read is reported in one line
    /// (`cannot read 'x': Permission denied`) and skipped; `unreadable` counts them.
    func forEach(limit: Int, unreadable: inout Int, _ body: (Sample) throws -> Void) throws {
        for input in try files() {
            let bytes: [UInt8]
            do {
                bytes = try InputReader.read(input.path, limit: limit)
            } catch CLIFailure.usage(let message) {
                Terminal.error(message)
                unreadable += 1
                continue
            } catch {
                Terminal.error("cannot read '\(input.path)': \(Self.reason(error))")
                unreadable += 1
                continue
            }
            try body(Sample(label: input.path, bytes: bytes))
        }
        for database in databases {
            try DatabaseBlobs.forEach(in: database, limit: limit) { label, bytes in
                try body(Sample(label: "\(database): \(label)", bytes: bytes))
            }
        }
    }

    /// The higher of two exit statuses: a run over several samples exits with its worst.
    static func worse(_ first: ExitCode, _ second: ExitCode) -> ExitCode {
        first.rawValue >= second.rawValue ? first : second
    }

    /// The one-line reason of a file-system error (the POSIX message, never a domain dump).
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}

/// The archive BLOBs of a SQLite database, read as `scan-db` reads them (a private copy when the
/// database is locked or in WAL mode; never written): binary and XML property lists.
enum DatabaseBlobs {
    static func forEach(in path: String, limit: Int, _ body: (String, [UInt8]) throws -> Void) throws {
        guard FileManager.default.isReadableFile(atPath: path), !BatchInputs.isDirectory(path) else {
            throw CLIFailure.usage("cannot open '\(path)'")
        }
        let scanner: DatabaseScanner
        do {
            scanner = try DatabaseScanner(snapshot: try DatabaseSnapshot(path: path), tables: [], columns: [])
        } catch {
            throw CLIFailure.usage("\(path): not a readable SQLite database: \(error)")
        }
        try scanner.forEachCandidate(limit: limit, body)
    }
}
