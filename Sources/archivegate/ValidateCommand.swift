import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate validate FILE...`: one JSON report per file (one per line). With folders or batch
/// flags, a batch (see `BatchOptions`): records carry a status, and a summary ends on stderr.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check archives against a policy and print one JSON report per file.",
        discussion: "Example: archivegate validate --policy config/policies/example.json notes.archive"
    )

    @OptionGroup var decode: DecodeOptions

    @OptionGroup var batch: BatchOptions

    @Argument(help: ArgumentHelp("Archives to check ('-' for stdin), or folders for a batch.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.contains("-"), batch.applies(to: files) { throw ValidationError("'-' (stdin) is not a batch input") }
    }

    func run() throws {
        let policy = try decode.policyOrExit()
        let inspector = decode.inspector(policy)
        if batch.applies(to: files) {
            return try BatchJobs.run(files, options: batch, acceptedWord: "valid", job: BatchJobs.validate(inspector))
        }
        var worst: Int32 = 0
        for file in files {
            do {
                let bytes = try InputReader.load(file, limit: policy.limits.maxInputBytes)
                let report = try inspector.validate(bytes)
                try Terminal.writeJSONLine(FileReport(file: file, report: report))
                if !report.valid {
                    Terminal.error("\(file): \(Terminal.rejection(report))")
                    worst = max(worst, 1)
                }
                Terminal.reportFindings(report, file: file)
                // Inspection mode reports findings without refusing; the exit status still says so.
                if !report.unacknowledgedFindings.isEmpty { worst = max(worst, 1) }
            } catch {
                guard let exit = CLIFailure.exitCode(reporting: error, source: file) else { throw error }
                worst = max(worst, exit.rawValue)
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }
}

/// A report labelled with the file it is about.
private struct FileReport: Encodable {
    var file: String
    var report: ValidationReport
}
