import ArchiveGateCore
import Foundation

extension InputReader {
    /// Regular files up to this size are read with one `read(2)` into an array; larger ones are
    /// mapped (`MappedFile`). A mapping costs an `mmap`, page-table set-up and an `munmap` whose
    /// TLB shoot-down interrupts every other thread of a batch: for the small archives a folder
    /// batch is made of, more than copying their bytes once (issue 32, docs/BENCHMARKS.md).
    static let readWholeBelow = 64 * 1024

    /// The archive at `path` for decoding: a regular file is read in one call when small and
    /// mapped otherwise (no copy, see `MappedFile`); stdin ("-"), pipes and other files are read
    /// as `read` does. As with `read`, at most `limit + 1` bytes are taken, so an oversized input
    /// still fails the core's size check.
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
        if length < readWholeBelow, let bytes = readWhole(descriptor, length: length) { return ByteStorage(bytes) }
        guard let mapped = MappedFile(descriptor: descriptor, length: length) else {
            return ByteStorage(try read(path, limit: limit))
        }
        return mapped.storage
    }

    /// The first `length` bytes of the open regular file `descriptor`, read from offset 0 (fewer
    /// when the file was shortened meanwhile: the bytes that are there, as a pipe would give them);
    /// nil when a read fails, so the caller falls back to its other paths.
    private static func readWhole(_ descriptor: Int32, length: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = 0
            while count < length {
                let got = pread(descriptor, buffer.baseAddress! + count, length - count, off_t(count))
                if got > 0 {
                    count += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failed = true
                    break
                }
            }
        }
        return failed ? nil : bytes
    }
}
