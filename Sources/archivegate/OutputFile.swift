#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every file the CLI writes (`encode --out`, `sanitize --out`, `convert --out DIR`'s files):
/// atomically — a temporary file beside it, renamed over it — only where the path is a regular
/// file or does not exist yet. A rename replaces whatever the path names, so `--out /dev/null` run
/// as root used to turn the device node into a regular file. Anything else is written in place
/// through `open(2)`, as a shell's `>` would: a character device (`/dev/null`, a terminal), a FIFO,
/// a symbolic link (its target is written; the link stays). A directory, a socket or a path that
/// cannot be opened for writing is refused with the reason.
enum OutputFile {
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// How `write` will write `path`, decided from `lstat(2)` (the link itself, not its target).
    enum Method: Equatable {
        /// A new path or a regular file: a temporary file renamed over it.
        case atomic
        /// A device, FIFO or symbolic link: opened and written where it is.
        case inPlace
        /// A directory or a socket: not written.
        case refused(String)
    }

    static func method(for path: String) -> Method {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .atomic }  // ENOENT: a new file (other errors show at open)
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .atomic
        case S_IFCHR, S_IFIFO, S_IFLNK: return .inPlace
        case S_IFDIR: return .refused("it is a directory")
        default: return .refused("it is neither a regular file, a device nor a FIFO")
        }
    }

    /// Writes `bytes` to `path` (see the type's documentation).
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        switch method(for: path) {
        case .atomic: try writeAtomically(bytes, to: path)
        case .inPlace: try writeInPlace(bytes, to: path)
        case .refused(let reason): throw Failure(path: path, reason: reason)
        }
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        if let failure = bytes.withUnsafeBytes({ StandardStreams.writeAll(descriptor, $0) }) {
            throw Failure(path: path, reason: String(cString: strerror(failure)))
        }
    }

    private static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + name + ".archivegate-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure = bytes.withUnsafeBytes { StandardStreams.writeAll(descriptor, $0) }
        // mkstemp makes the file 0600; a written archive is an ordinary file (0666 less the umask).
        let mask = umask(0)
        umask(mask)
        if failure == nil, fchmod(descriptor, 0o666 & ~mask) != 0 || fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Failure(path: path, reason: String(cString: strerror(failure)))
        }
    }
}
