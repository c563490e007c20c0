import Foundation

extension MappedFile {
    /// Keeps a large mapped input's resident pages to those read lately (issue 32: peak RSS ≤ 1.5×
    /// the input): every `interval` it gives the whole mapping's pages back (`MADV_DONTNEED`), and
    /// the passes fault back in only what they read next, from the page cache.
    ///
    /// The reader gives pages back behind its own passes (`ResidencyTrail`), but the policy walk
    /// and the renderers read every dictionary's keys, which an archive stores throughout the file,
    /// in graph order: without this the whole object area (two thirds of the file) stays resident
    /// beside the decoded tables until exit. The mapping is private, read-only and never written,
    /// so a page given back reads the same bytes when touched again; the cost is one page fault
    /// per 16 pages read again after each trim.
    ///
    /// Safety: `stop()` returns only once the thread can no longer call `madvise`, and the mapping
    /// is unmapped after it (`deinit`), so no trim ever reaches memory that is no longer the file's.
    final class Trimmer: @unchecked Sendable {
        /// Mappings smaller than this are not trimmed (their pages are few next to the tables).
        static let minimumBytes = 8 << 20
        /// Time between trims: short enough that a pass holds a few MiB of the file, long enough
        /// that a page is faulted back a few times per pass at most.
        static let interval: TimeInterval = 0.005

        // Addresses as integers: the thread only passes them back to madvise(2).
        private let start: Int
        private let length: Int
        /// Guards `stopped` and is held for each `madvise`.
        private let condition = NSCondition()
        private var stopped = false

        /// Starts trimming `length` bytes mapped at `base` (page-aligned, as mmap returns).
        init(base: UnsafeMutableRawPointer, length: Int) {
            start = Int(bitPattern: base)
            self.length = length
            let thread = Thread { [self] in run() }
            thread.name = "archivegate.trim"
            thread.stackSize = 64 << 10
            thread.start()
        }

        /// Stops trimming; on return no trim is running and none will start.
        func stop() {
            condition.lock()
            stopped = true
            condition.signal()
            condition.unlock()
        }

        private func run() {
            condition.lock()
            defer { condition.unlock() }
            while !stopped {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.interval))
                if stopped { break }
                _ = madvise(UnsafeMutableRawPointer(bitPattern: start), length, MADV_DONTNEED)
            }
        }
    }
}
