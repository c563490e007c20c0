import ArchiveGateCore
import ArgumentParser

/// The per-file work of `convert` and `validate` in batch mode, and the command-level run around it.
enum BatchJobs {
    /// Converts one file: a converted file's record is `{"file","verdict","status":"converted","json"}`
    /// (or, with `--out`, the JSON itself); a plain property list's is the same with status `plist`;
    /// rejected and malformed files get a record with the report or error.
    static func convert(_ inspector: ArchiveInspector, mode: OutputMode, pretty: Bool, mirrored: Bool,
                        filter: PlainJSONFilter = PlainJSONFilter()) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            withBytes(of: input, inspector) { bytes throws(ArchiveGateError) in
                let indents = pretty && mirrored
                let origin: KeyValuePairs<String, BatchRecord.OriginValue> = ["file": .text(input.relativePath)]
                let inspection: Inspection
                do throws(ArchiveGateError) {
                    inspection = try inspector.convert(bytes, mode: mode, pretty: indents && filter.isIdentity)
                } catch {
                    guard Verdict(error) == .plist else { throw error }
                    let json = try inspector.convertPropertyList(bytes, pretty: indents)
                    var record = BatchRecord(origin: origin, verdict: .plist, status: "plist")
                    record.append(json: json)
                    return BatchFileResult(outcome: .verdict(.plist, code: nil), bytesRead: bytes.count,
                                           record: mirrored ? (indents ? json : json + [0x0A]) : record.line, message: nil,
                                           mirrors: true)
                }
                let report = inspection.report
                let outcome = BatchOutcome.of(report)
                let message = Terminal.verdictLine(report).map { "\(input.path): \($0)" }
                guard let rendered = inspection.json else {
                    var record = BatchRecord(origin: origin, verdict: report.verdict, status: report.verdict.name)
                    record.append(report: report)
                    return BatchFileResult(outcome: outcome, bytesRead: bytes.count, record: record.line, message: message)
                }
                let json = filter.isIdentity ? rendered : filter.apply(rendered, pretty: indents)
                if mirrored {
                    return BatchFileResult(outcome: outcome, bytesRead: bytes.count, record: pretty ? json : json + [0x0A], message: message,
                                           mirrors: true)
                }
                var record = BatchRecord(origin: origin, verdict: report.verdict, status: "converted")
                record.append(json: json)
                return BatchFileResult(outcome: outcome, bytesRead: bytes.count, record: record.line, message: message)
            }
        }
    }

    /// Validates one file: `{"file","verdict","status":"valid"|<verdict>,"report"}`, or the error
    /// when it could not be evaluated. With `--out`, every file's record is written, whatever its verdict.
    static func validate(_ inspector: ArchiveInspector) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            withBytes(of: input, inspector, mirrorsEveryRecord: true) { bytes throws(ArchiveGateError) in
                let report = try inspector.validate(bytes)
                var record = BatchRecord(origin: ["file": .text(input.relativePath)], verdict: report.verdict,
                                         status: report.valid ? "valid" : report.verdict.name)
                record.append(report: report)
                return BatchFileResult(outcome: BatchOutcome.of(report), bytesRead: bytes.count, record: record.line,
                                       message: Terminal.verdictLine(report).map { "\(input.path): \($0)" }, mirrors: true)
            }
        }
    }

    /// `validate --format sarif`: each file's violations, findings or error go into `log` instead of
    /// a record; the stderr lines and the outcome are the same as `validate(_:)`'s.
    static func validate(_ inspector: ArchiveInspector, into log: SarifLog) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            var result = withBytes(of: input, inspector) { bytes throws(ArchiveGateError) in
                let report: ValidationReport
                do throws(ArchiveGateError) {
                    report = try inspector.validate(bytes)
                } catch {
                    if case .verdict = BatchOutcome.failure(error) { log.add(error, from: .file(input.path)) }
                    throw error
                }
                log.add(report, from: .file(input.path))
                return BatchFileResult(outcome: BatchOutcome.of(report), bytesRead: bytes.count, record: nil,
                                       message: Terminal.verdictLine(report).map { "\(input.path): \($0)" })
            }
            if case .unreadable = result.outcome, let message = result.message { log.notifyUnreadable(message) }
            result.record = nil
            return result
        }
    }

    /// Reads `input` under the policy's input limit and runs `body` on its bytes; an unreadable file
    /// and a malformed archive get their records here, the same for every job.
    static func withBytes(
        of input: BatchInput, _ inspector: ArchiveInspector, mirrorsEveryRecord: Bool = false,
        _ body: (ByteStorage) throws(ArchiveGateError) -> BatchFileResult
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
            var result = failure(error, input: input, bytes: bytes.count)
            result.mirrors = mirrorsEveryRecord
            return result
        }
    }

    static func failure(_ error: ArchiveGateError, input: BatchInput, bytes: Int) -> BatchFileResult {
        let outcome = BatchOutcome.failure(error)
        if case .skipped = outcome { return BatchFileResult(outcome: .skipped, bytesRead: bytes, record: nil, message: nil) }
        let verdict = Verdict(error)
        var record = BatchRecord(origin: ["file": .text(input.relativePath)], verdict: verdict, status: verdict.name)
        record.append(error: error)
        return BatchFileResult(outcome: outcome, bytesRead: bytes, record: record.line,
                               message: "\(input.path): \(Terminal.failure(error))")
    }

    /// Lists the inputs, runs `job` over them, prints the summary and exits with the worst code.
    /// With `sarif`, the job writes no records: the log is written on stdout after the summary.
    static func run(_ paths: [String], options: BatchOptions, acceptedWord: String, outputExtension: String = "json",
                    sarif: SarifLog? = nil, job: @Sendable @escaping (BatchInput) -> BatchFileResult) throws {
        let inputs: [BatchInput]
        do {
            inputs = try BatchInputs.list(paths, options: options)
        } catch CLIFailure.usage(let message) {
            Terminal.error(message)
            throw CLIExit.usage
        }
        let runner = BatchRunner(inputs: inputs, outputFolder: options.out, outputExtension: outputExtension)
        var summary = runner.run(jobs: options.workerCount, job)
        for line in summary.lines(acceptedWord: acceptedWord, seconds: runner.progress.elapsed) {
            runner.progress.message(line)
        }
        if let reason = summary.noteNoArchive(unit: "files") {
            runner.progress.message("summary: " + reason)
            sarif?.notifyNothingScanned(reason)
        }
        if let sarif { Terminal.writeStdout(sarif.document(exitCode: summary.worstExitCode)) }
        if summary.worstExitCode != 0 { throw ExitCode(summary.worstExitCode) }
    }
}
