import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate validate FILE...`: one JSON record per file (one per line): `{"file","verdict","report"}`,
/// or `{"file","verdict","verdictReason","error"}` when the file could not be evaluated. With folders or batch
/// flags, a batch (see `BatchOptions`): records carry a status, and a summary ends on stderr.
/// `--format sarif`: one SARIF 2.1.0 log on stdout instead of the records (`SarifLog`).
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check archives against a policy and print one JSON report per file.",
        discussion: "Example: archivegate validate --policy config/policies/example.json notes.archive"
    )

    @OptionGroup var decode: DecodeOptions

    @OptionGroup var batch: BatchOptions

    @Option(name: .long, help: ReportFormat.help)
    var format: ReportFormat = .jsonl

    @Argument(help: ArgumentHelp("Archives to check ('-' for stdin), or folders for a batch.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.contains("-"), batch.applies(to: files) { throw ValidationError("'-' (stdin) is not a batch input") }
        if format == .sarif, batch.out != nil { throw ValidationError("--format sarif writes one log on stdout; it does not go with --out") }
    }

    func run() throws {
        let policy = try decode.policyOrExit()
        let inspector = decode.inspector(policy)
        let sarif = format == .sarif ? SarifLog() : nil
        if batch.applies(to: files) {
            return try BatchJobs.run(files, options: batch, acceptedWord: "valid", sarif: sarif,
                                     job: sarif.map { BatchJobs.validate(inspector, into: $0) } ?? BatchJobs.validate(inspector))
        }
        var worst: Int32 = 0
        for file in files {
            do {
                let bytes = try InputReader.load(file, limit: policy.limits.maxInputBytes)
                let report = try inspector.validate(bytes)
                if let sarif {
                    sarif.add(report, from: .file(file))
                } else {
                    var record = BatchRecord(origin: ["file": .text(file)], verdict: report.verdict, status: nil)
                    record.append(report: report)
                    Terminal.writeStdout(record.line)
                }
                Terminal.reportFindings(report, file: file)
                if let line = Terminal.verdictLine(report) { Terminal.error("\(file): \(line)") }
                worst = max(worst, CLIExit.status(for: report.verdict).rawValue)
            } catch let error as ArchiveGateError {
                // Not evaluated (malformed, a limit, a plain property list): the record says so too.
                if let sarif { sarif.add(error, from: .file(file)) } else { BatchRecord.writeFailure(error, origin: ["file": .text(file)]) }
                worst = max(worst, CLIFailure.exitCode(reporting: error, source: file)?.rawValue ?? 0)
            } catch {
                guard let exit = CLIFailure.exitCode(reporting: error, source: file) else { throw error }
                if case CLIFailure.usage(let message) = error { sarif?.notifyUnreadable(message) }
                worst = max(worst, exit.rawValue)
            }
        }
        if let sarif { Terminal.writeStdout(sarif.document(exitCode: worst)) }
        if worst != 0 { throw ExitCode(worst) }
    }
}
