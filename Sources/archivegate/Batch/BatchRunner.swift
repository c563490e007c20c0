import Dispatch
import Foundation

/// What a batch worker made of one file: its outcome, the bytes to write (a JSON Lines record, or a
/// mirrored `.json` file's contents) and any one-line message for stderr.
struct BatchFileResult: Sendable {
    var outcome: BatchOutcome
    var bytesRead: Int
    var record: [UInt8]?
    var message: String?
    /// With `--out`, whether `record` is written as the mirrored file: a conversion's JSON, a DOT
    /// graph (a rejected archive's too, its violations in red), every `validate` record.
    var mirrors = false
}

/// Runs a per-file job over a batch's inputs on `jobs` threads, writes each result as it completes
/// (JSON Lines on stdout, or files under `--out`), keeps the progress line and the summary.
final class BatchRunner: @unchecked Sendable {
    private let lock = NSLock()
    private var summary = BatchSummary()
    private var next = 0
    /// JSON Lines records not yet written to stdout: written in one `write(2)` once this holds
    /// `flushBytes`, when a record comes `flushSeconds` or more after the last write (a reader
    /// following the stream still sees a slow batch's records as they come), and at the end. One
    /// call per record cost a syscall per small file (issue 32, docs/BENCHMARKS.md).
    private var pending: [UInt8] = []
    private var lastFlush = ContinuousClock.now
    static let flushBytes = 64 * 1024
    static let flushSeconds = Duration.milliseconds(100)
    private let inputs: [BatchInput]
    private let outputFolder: URL?
    /// The mirrored files' extension (`json`, `dot`).
    private let outputExtension: String
    let progress: ProgressLine

    init(inputs: [BatchInput], outputFolder: String?, outputExtension: String = "json") {
        self.inputs = inputs
        self.outputFolder = outputFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.outputExtension = outputExtension
        progress = ProgressLine(totalFiles: inputs.count, totalBytes: inputs.reduce(0) { $0 + $1.size }, gathersMessages: true)
    }

    /// Processes every input with `job` on `jobs` workers and returns the summary.
    func run(jobs: Int, _ job: @Sendable @escaping (BatchInput) -> BatchFileResult) -> BatchSummary {
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, inputs.count))) { _ in
            while let input = take() {
                finish(input, job(input))
            }
        }
        lock.withLock { flushRecords() }
        progress.finish()
        return lock.withLock { summary }
    }

    private func take() -> BatchInput? {
        lock.withLock {
            guard next < inputs.count else { return nil }
            defer { next += 1 }
            return inputs[next]
        }
    }

    private func finish(_ input: BatchInput, _ result: BatchFileResult) {
        var outcome = result.outcome
        if let record = result.record {
            if let outputFolder {
                let mirrors = result.mirrors
                let name = input.relativePath + "." + outputExtension
                if mirrors, !write(record, to: outputFolder.appendingPathComponent(name)) {
                    outcome = .unreadable
                    progress.message("\(input.path): cannot write \(name) under \(outputFolder.path)")
                }
            } else {
                lock.withLock {
                    if pending.isEmpty, record.count >= Self.flushBytes {
                        progress.writeGatheredMessages()
                        Terminal.writeStdout(record)
                        lastFlush = .now
                        return
                    }
                    pending += record
                    if pending.count >= Self.flushBytes || lastFlush.duration(to: .now) >= Self.flushSeconds { flushRecords() }
                }
            }
        }
        if let message = result.message { progress.message(message) }
        let (files, bytes) = lock.withLock {
            summary.add(outcome, bytes: result.bytesRead)
            return (summary.files, summary.bytes)
        }
        progress.update(files: files, bytes: bytes)
    }

    /// Writes the pending records to stdout (the caller holds `lock`), after the messages gathered
    /// so far (so none is lost if stdout fails).
    private func flushRecords() {
        progress.writeGatheredMessages()
        if !pending.isEmpty { Terminal.writeStdout(pending) }
        pending.removeAll(keepingCapacity: pending.count <= 4 * Self.flushBytes)
        lastFlush = .now
    }

    /// Written to a temporary file beside `url` and renamed over it (`OutputFile`), so a failed write
    /// (a full disk) leaves no truncated file that looks converted; never renamed over a device.
    private func write(_ bytes: [UInt8], to url: URL) -> Bool {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try OutputFile.write(bytes, to: url.path)
            return true
        } catch {
            return false
        }
    }
}
