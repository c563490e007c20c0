import Foundation

/// Standard error for the server's log lines, written in batches by a thread of its own.
///
/// swift-log's `StreamLogHandler` writes each line with its own `fwrite` + `fflush`, one
/// `write(2)` per access-log line on the thread that served the request (issue 32: ~5 % of a 1 KB
/// validate's CPU with the line's formatting). Here a line is only appended to a buffer; the
/// writer thread wakes when the buffer stops being empty, lets lines gather for `gatherInterval`,
/// and writes them all at once. The lines and their order are unchanged; a line reaches stderr at
/// most `gatherInterval` (plus the write) after it was logged. `flush()` writes what is pending:
/// the server calls it before it exits.
final class BatchedStandardError: @unchecked Sendable {
    /// How long a batch gathers after its first line: short enough for someone following the log,
    /// long enough that a busy server writes hundreds of lines per call.
    static let gatherInterval: TimeInterval = 0.010
    /// A batch this large is written at once by the thread that fills it (a burst of lines never
    /// holds more than this in memory).
    static let maximumPendingBytes = 256 * 1024

    static let shared = BatchedStandardError()

    private let condition = NSCondition()
    private var pending: [UInt8] = []
    /// Held while a batch is being written, so batches reach the file in order.
    private let writing = NSLock()

    private init() {
        let thread = Thread { [unowned self] in self.writeBatches() }
        thread.name = "archivegate-log"
        thread.start()
    }

    /// Appends `line` to the pending batch (what `StreamLogHandler` calls per line).
    func append(_ line: String) {
        condition.lock()
        let wasEmpty = pending.isEmpty
        pending.append(contentsOf: line.utf8)
        guard pending.count < Self.maximumPendingBytes else {
            let batch = takePending()
            writing.lock()
            condition.unlock()
            Self.write(batch)
            writing.unlock()
            return
        }
        if wasEmpty { condition.signal() }
        condition.unlock()
    }

    /// Writes every pending line now.
    func flush() {
        condition.lock()
        let batch = takePending()
        writing.lock()
        condition.unlock()
        Self.write(batch)
        writing.unlock()
    }

    private func writeBatches() {
        while true {
            condition.lock()
            while pending.isEmpty { condition.wait() }
            condition.unlock()
            Thread.sleep(forTimeInterval: Self.gatherInterval)
            flush()
        }
    }

    /// The pending bytes, leaving the buffer empty (the caller holds `condition`).
    private func takePending() -> [UInt8] {
        var batch: [UInt8] = []
        swap(&batch, &pending)
        pending.reserveCapacity(batch.count)
        return batch
    }

    /// Writes all of `bytes` to file descriptor 2, retrying short writes and interrupts; a failed
    /// write drops the batch (as `fwrite` to a closed stderr would).
    private static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// The `TextOutputStream` `StreamLogHandler` writes its lines to.
struct BatchedStandardErrorStream: TextOutputStream, Sendable {
    func write(_ string: String) {
        BatchedStandardError.shared.append(string)
    }
}
