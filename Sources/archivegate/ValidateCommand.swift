import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate validate FILE...`: one JSON report per file (one per line).
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check archives against a policy and print one JSON report per file.",
        discussion: "Example: archivegate validate --policy config/policies/example.json notes.archive"
    )

    @OptionGroup var decode: DecodeOptions

    @Argument(help: ArgumentHelp("Archives to check ('-' for stdin).", valueName: "file"))
    var files: [String]

    func run() throws {
        let policy = try decode.policyOrExit()
        let inspector = decode.inspector(policy)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var worst: Int32 = 0
        for file in files {
            do {
                let bytes = try InputReader.read(file, limit: policy.limits.maxInputBytes)
                let report = try inspector.validate(bytes)
                var line = try encoder.encode(FileReport(file: file, report: report))
                line.append(0x0A)
                Terminal.writeStdout(Array(line))
                if !report.valid {
                    Terminal.error("\(file): \(Terminal.rejection(report))")
                    worst = max(worst, 1)
                }
                Terminal.reportFindings(report, file: file)
                // Inspection mode reports findings without refusing; the exit status still says so.
                if !report.unacknowledgedFindings.isEmpty { worst = max(worst, 1) }
            } catch let error as ArchiveGateError {
                Terminal.error("\(file): \(Terminal.malformed(error))")
                worst = max(worst, CLIExit.malformed.rawValue)
            } catch CLIFailure.usage(let message) {
                Terminal.error(message)  // a file that cannot be opened is the caller's mistake, not the archive's
                worst = max(worst, CLIExit.usage.rawValue)
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
