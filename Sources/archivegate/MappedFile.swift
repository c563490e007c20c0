import ArchiveGateCore
import Foundation

/// A regular file mapped read-only into memory: the archive is decoded from the page cache in
/// place, never copied into an array (issue 18: whole-process time and peak RSS).
///
/// The mapping lives as long as this object; `ByteStorage(lending:owner:)` keeps it alive for as
/// long as anything decoded from it (strings and data point into it). A file shortened by another
/// process while mapped faults on access to the lost pages (SIGBUS): `reportTruncation` turns
/// that into the CLI's one line and exit 2 instead of a crash. Stdin and anything that is not a
/// regular file is read, not mapped.
final class MappedFile: LentMemoryOwner {
    private let base: UnsafeMutableRawPointer
    let count: Int
    /// Gives a large mapping's pages back while it is read (`Trimmer`); nil for small ones.
    private let trimmer: Trimmer?

    /// Installed once, before the first mapping: SIGBUS can only come from a mapped input that
    /// shrank under us (nothing else in the CLI maps files), so it is reported as the input's
    /// error. Only async-signal-safe calls: write(2) of a static string, then _exit.
    private static let reportTruncation: Void = {
        signal(SIGBUS) { _ in
            let line: StaticString = "archivegate: input.changed: an input file was shortened by another process while it was being read; read a copy that is not being written\n"
            _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
            _exit(2)
        }
    }()

    /// Maps the first `length` bytes (> 0) of the open descriptor `descriptor`; nil when mmap fails.
    init?(descriptor: Int32, length: Int) {
        guard length > 0 else { return nil }
        Self.reportTruncation
        // Not populated up front: the reader passes over the file front to back and gives the
        // pages behind it back (`discardResidentPages`), so the process holds a few MiB of the
        // input at a time, not all of it (issue 32: peak RSS). A fault maps 16 pages at a time.
        let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        base = address
        count = length
        trimmer = length >= Trimmer.minimumBytes ? Trimmer(base: address, length: length) : nil
    }

    deinit {
        // The trimmer must be done with the range before it is unmapped (and possibly reused).
        trimmer?.stop()
        munmap(base, count)
    }

    /// Drops the mapped pages wholly inside `region` from the process (`MADV_DONTNEED`): the mapping is
    /// private and never written, so a later read maps the file's page-cache page again.
    func discardResidentPages(in region: UnsafeRawBufferPointer) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0, let regionStart = region.baseAddress else { return }
        let offset = UnsafeRawPointer(base).distance(to: regionStart)
        let lower = max(0, offset)
        let upper = min(count, offset + region.count)
        let start = (lower + page - 1) / page * page
        // The mapping extends to the end of the last page, so a region reaching the end of the
        // file may round up to it.
        let end = upper == count ? (count + page - 1) / page * page : upper / page * page
        guard start < end else { return }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
    }

    /// The mapped bytes, lent with this mapping as their owner.
    var storage: ByteStorage {
        ByteStorage(lending: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count), owner: self)
    }
}
