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
    private let inputs: [BatchInput]
    private let outputFolder: URL?
    /// The mirrored files' extension (`json`, `dot`).
    private let outputExtension: String
    let progress: ProgressLine

    init(inputs: [BatchInput], outputFolder: String?, outputExtension: String = "json") {
        self.inputs = inputs
        self.outputFolder = outputFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.outputExtension = outputExtension
        progress = ProgressLine(totalFiles: inputs.count, totalBytes: inputs.reduce(0) { $0 + $1.size })
    }

    /// Processes every input with `job` on `jobs` workers and returns the summary.
    func run(jobs: Int, _ job: @Sendable @escaping (BatchInput) -> BatchFileResult) -> BatchSummary {
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, inputs.count))) { _ in
            while let input = take() {
                finish(input, job(input))
            }
        }
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
                lock.withLock { Terminal.writeStdout(record) }
            }
        }
        if let message = result.message { progress.message(message) }
        let (files, bytes) = lock.withLock {
            summary.add(outcome, bytes: result.bytesRead)
            return (summary.files, summary.bytes)
        }
        progress.update(files: files, bytes: bytes)
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
