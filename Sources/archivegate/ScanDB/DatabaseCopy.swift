#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files `scan-db` reads of a forensic image — the database and its `-wal`, `-journal` and
/// `-shm` — are hostile input like any archive: each must be a regular file (a FIFO would hang the
/// scan, a device would stream forever), and a copy is bounded and checked:
/// - it reads only the data extents (`SEEK_DATA`/`SEEK_HOLE`) and leaves holes as holes, so a
///   sparse 2 GB `-wal` costs no 2 GB of disk or reading;
/// - a `-wal` whose header is not a WAL header is not copied at all (SQLite ignores such a log);
/// - it copies at most the size the file had when the copy started and stops at end of file, so a
///   `-wal` that shrinks meanwhile (a checkpoint) ends the copy instead of spinning; a file whose
///   size or modification time changed during the copy is copied again, at most `attempts` times;
/// - a database and its `-wal` are copied as a pair (`copyPair`): when the database changed while
///   its log was copied (a checkpoint moves the log into it and empties the log), both are copied
///   again, so the copy never pairs an old database with a log already moved out of it.
enum DatabaseCopy {
    /// A `scan-db` input that cannot be read safely, with a stable code for the one-line error.
    struct Refusal: Error, CustomStringConvertible {
        var code: String
        var path: String
        var reason: String
        var description: String { "\(code): '\(path)' \(reason)" }
    }

    static let attempts = 3

    /// How many bytes one read copies.
    static let chunkBytes = 1 << 20

    /// Told after each chunk is copied: the source path and the offset copied through. Tests shrink
    /// the file there, deterministically, as a checkpoint would; nil in the CLI.
    typealias ChunkObserver = (_ path: String, _ copiedThrough: Int) -> Void

    /// A file's size and modification time: a copy is good when they did not change during it.
    struct Stamp: Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int

        init(_ info: stat) {
            size = Int(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }

        /// `path`'s stamp now, or nil when it cannot be read.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }
    }

    #if os(Linux)
    /// `SEEK_DATA` and `SEEK_HOLE` (Glibc exports them only under _GNU_SOURCE).
    private static let seekData: Int32 = 3
    private static let seekHole: Int32 = 4
    #else
    private static let seekData = SEEK_DATA
    private static let seekHole = SEEK_HOLE
    #endif

    /// Throws unless `path` is a regular file (following a symbolic link) or, when `mayBeMissing`, absent.
    static func requireRegularFile(_ path: String, mayBeMissing: Bool = false) throws(Refusal) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if mayBeMissing, errno == ENOENT { return }
            throw Refusal(code: "scan.unreadable_file", path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(code: "scan.not_a_regular_file", path: path, reason: "is not a regular file (\(kind(info.st_mode)))")
        }
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }

    /// Whether the first 4 bytes of `path` are a WAL header's magic (0x377f0682 or 0x377f0683).
    static func hasWALHeader(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        guard pread(descriptor, &magic, 4, 0) == 4 else { return false }
        return magic[0] == 0x37 && magic[1] == 0x7F && magic[2] == 0x06 && (magic[3] == 0x82 || magic[3] == 0x83)
    }

    /// Copies the database at `database` to `destination`, and its `-wal` (when it has a WAL
    /// header) to `destination-wal`, as one consistent pair; returns whether a log was copied.
    static func copyPair(_ database: String, to destination: String, chunkBytes: Int = chunkBytes,
                         observer: ChunkObserver? = nil) throws(Refusal) -> Bool {
        let log = database + "-wal"
        for _ in 0 ..< attempts {
            unlink(destination + "-wal")
            let stamp = try copy(database, to: destination, chunkBytes: chunkBytes, observer: observer)
            let hasLog = access(log, F_OK) == 0 && hasWALHeader(log)
            if hasLog { _ = try copy(log, to: destination + "-wal", chunkBytes: chunkBytes, observer: observer) }
            if Stamp(path: database) == stamp { return hasLog }
        }
        throw Refusal(code: "scan.file_changed", path: database,
                      reason: "changed during \(attempts) attempts to copy it with its -wal (the database is being written)")
    }

    /// Copies `source` (which must stay a regular file) to the new file `destination`; returns the
    /// stamp the source had throughout the copy.
    @discardableResult
    static func copy(_ source: String, to destination: String, chunkBytes: Int = chunkBytes,
                     observer: ChunkObserver? = nil) throws(Refusal) -> Stamp {
        for _ in 0 ..< attempts {
            if let stamp = try copyOnce(source, to: destination, chunkBytes: chunkBytes, observer: observer) { return stamp }
        }
        throw Refusal(code: "scan.file_changed", path: source, reason: "changed during \(attempts) attempts to copy it (the database is being written)")
    }

    /// One copy; the source's stamp, or nil when it changed meanwhile.
    private static func copyOnce(_ source: String, to destination: String, chunkBytes: Int,
                                 observer: ChunkObserver?) throws(Refusal) -> Stamp? {
        // O_NONBLOCK: a FIFO swapped in after the check must not block the open.
        let input = open(source, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw failure(source, errno) }
        defer { close(input) }
        var before = stat()
        guard fstat(input, &before) == 0 else { throw failure(source, errno) }
        guard before.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(code: "scan.not_a_regular_file", path: source, reason: "is not a regular file (\(kind(before.st_mode)))")
        }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure(destination, errno) }
        defer { close(output) }
        let size = Int(before.st_size)
        var buffer = [UInt8](repeating: 0, count: max(1, chunkBytes))
        var offset = 0
        extents: while offset < size {
            let dataStart = lseek(input, off_t(offset), seekData)
            if dataStart < 0 { break }  // ENXIO: the rest is a hole
            let holeStart = lseek(input, dataStart, seekHole)
            let end = min(holeStart < 0 ? size : Int(holeStart), size)
            var position = Int(dataStart)
            while position < end {
                let count = pread(input, &buffer, min(buffer.count, end - position), off_t(position))
                if count < 0, errno == EINTR { continue }
                if count < 0 { throw failure(source, errno) }
                if count == 0 { break extents }  // it shrank: the check below copies it again
                let written = buffer.withUnsafeBytes { StandardStreams.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[0 ..< count])) }
                if let written { throw failure(destination, written) }
                position += count
                observer?(source, position)
            }
            offset = end
        }
        guard ftruncate(output, off_t(size)) == 0 else { throw failure(destination, errno) }
        var after = stat()
        guard fstat(input, &after) == 0 else { throw failure(source, errno) }
        return Stamp(after) == Stamp(before) ? Stamp(before) : nil
    }

    private static func failure(_ path: String, _ code: Int32) -> Refusal {
        Refusal(code: "scan.unreadable_file", path: path, reason: "cannot be copied: \(String(cString: strerror(code)))")
    }
}
