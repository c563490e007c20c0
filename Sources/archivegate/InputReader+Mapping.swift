import ArchiveGateCore
import Foundation

extension InputReader {
    /// The archive at `path` for decoding: a regular file is mapped (no copy, see `MappedFile`),
    /// stdin ("-"), pipes and other files are read as `read` does. As with `read`, at most
    /// `limit + 1` bytes are taken, so an oversized input still fails the core's size check.
    static func load(_ path: String, limit: Int) throws -> ByteStorage {
        guard path != "-" else { return ByteStorage(try read(path, limit: limit)) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIFailure.usage("cannot open '\(path)'") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return ByteStorage(try read(path, limit: limit))
        }
        let length = Int(min(Int64(status.st_size), Int64(limit) + 1))
        if length == 0 { return ByteStorage([]) }
        guard let mapped = MappedFile(descriptor: descriptor, length: length) else {
            return ByteStorage(try read(path, limit: limit))
        }
        return mapped.storage
    }
}
