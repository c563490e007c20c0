import ArchiveGateCore
import ArgumentParser

/// The per-file work of `convert` and `validate` in batch mode, and the command-level run around it.
enum BatchJobs {
    /// Converts one file: a converted file's record is `{"file","status":"converted","json"}` (or,
    /// with `--out`, the JSON itself); rejected and malformed files get a record with the report or error.
    static func convert(_ inspector: ArchiveInspector, mode: OutputMode, pretty: Bool, mirrored: Bool,
                        filter: PlainJSONFilter = PlainJSONFilter()) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            withBytes(of: input, inspector) { bytes throws(ArchiveGateError) in
                let indents = pretty && mirrored
                let inspection = try inspector.convert(bytes, mode: mode, pretty: indents && filter.isIdentity)
                guard let rendered = inspection.json else {
                    var record = BatchRecord(origin: ["file": .text(input.relativePath)], status: "rejected")
                    record.append(report: inspection.report)
                    return BatchFileResult(outcome: .rejected(code: BatchOutcome.rejectionCode(inspection.report)), bytesRead: bytes.count,
                                           record: record.line, message: "\(input.path): \(Terminal.rejection(inspection.report))")
                }
                let json = filter.isIdentity ? rendered : filter.apply(rendered, pretty: indents)
                if mirrored {
                    return BatchFileResult(outcome: .converted, bytesRead: bytes.count, record: pretty ? json : json + [0x0A], message: nil)
                }
                var record = BatchRecord(origin: ["file": .text(input.relativePath)], status: "converted")
                record.append(json: json)
                return BatchFileResult(outcome: .converted, bytesRead: bytes.count, record: record.line, message: nil)
            }
        }
    }

    /// Validates one file: `{"file","status":"valid"|"rejected","report"}`, or the error when malformed.
    static func validate(_ inspector: ArchiveInspector) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            withBytes(of: input, inspector) { bytes throws(ArchiveGateError) in
                let report = try inspector.validate(bytes)
                let accepted = report.valid && report.unacknowledgedFindings.isEmpty
                var record = BatchRecord(origin: ["file": .text(input.relativePath)], status: accepted ? "valid" : "rejected")
                record.append(report: report)
                return BatchFileResult(outcome: accepted ? .converted : .rejected(code: BatchOutcome.rejectionCode(report)),
                                       bytesRead: bytes.count, record: record.line,
                                       message: accepted ? nil : "\(input.path): \(Terminal.rejection(report))")
            }
        }
    }

    /// Reads `input` under the policy's input limit and runs `body` on its bytes; an unreadable file
    /// and a malformed archive get their records here, the same for every job.
    static func withBytes(
        of input: BatchInput, _ inspector: ArchiveInspector, _ body: (ByteStorage) throws(ArchiveGateError) -> BatchFileResult
    ) -> BatchFileResult {
        let bytes: ByteStorage
        do {
            bytes = try InputReader.load(input.path, limit: inspector.policy.limits.maxInputBytes)
        } catch {
            return BatchFileResult(outcome: .unreadable, bytesRead: 0, record: nil, message: "cannot open '\(input.path)'")
        }
        do throws(ArchiveGateError) {
            return try body(bytes)
        } catch {
            return failure(error, input: input, bytes: bytes.count)
        }
    }

    static func failure(_ error: ArchiveGateError, input: BatchInput, bytes: Int) -> BatchFileResult {
        let outcome = BatchOutcome.failure(error)
        if case .skipped = outcome { return BatchFileResult(outcome: .skipped, bytesRead: bytes, record: nil, message: nil) }
        var record = BatchRecord(origin: ["file": .text(input.relativePath)], status: "malformed")
        record.append(error: error)
        return BatchFileResult(outcome: outcome, bytesRead: bytes, record: record.line,
                               message: "\(input.path): \(Terminal.malformed(error))")
    }

    /// Lists the inputs, runs `job` over them, prints the summary and exits with the worst code.
    static func run(_ paths: [String], options: BatchOptions, acceptedWord: String, outputExtension: String = "json",
                    job: @Sendable @escaping (BatchInput) -> BatchFileResult) throws {
        let inputs: [BatchInput]
        do {
            inputs = try BatchInputs.list(paths, options: options)
        } catch CLIFailure.usage(let message) {
            Terminal.error(message)
            throw CLIExit.usage
        }
        let runner = BatchRunner(inputs: inputs, outputFolder: options.out, outputExtension: outputExtension)
        let summary = runner.run(jobs: options.workerCount, job)
        for line in summary.lines(acceptedWord: acceptedWord, seconds: runner.progress.elapsed) {
            runner.progress.message(line)
        }
        if summary.worstExitCode != 0 { throw ExitCode(summary.worstExitCode) }
    }
}
