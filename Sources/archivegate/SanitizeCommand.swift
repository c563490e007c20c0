import ArchiveGateCore
import ArgumentParser

/// `archivegate sanitize FILE`: a freshly written, canonical archive of what the policy admits.
struct SanitizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sanitize",
        abstract: "Rewrite an archive canonically with only what the policy admits (the archive on stdout).",
        discussion: """
        Example: archivegate sanitize --policy redact.json payload.archive > clean.archive
        Only objects reachable from $top are written, each once, with only the fields the policy admits; under a
        policy whose onViolation is "redact", violating subtrees become $null and each is listed on stderr.
        A policy that rejects the archive writes nothing and exits 1.
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "binary (default) or xml.")
    var format: PropertyList.Format = .binary

    @Option(name: .long, help: ArgumentHelp("Write the archive to this file instead of stdout.", valueName: "file"))
    var out: String?

    @Argument(help: ArgumentHelp("The archive ('-' for stdin).", valueName: "file"))
    var file: String

    func run() throws {
        let policy = try decode.policyOrExit()
        do {
            let bytes = try InputReader.read(file, limit: policy.limits.maxInputBytes)
            let result = try ArchiveSanitizer(inspector: decode.inspector(policy)).sanitize(bytes, format: format)
            Terminal.reportFindings(result.report, file: file)
            guard let archive = result.archive else {
                // Only an accepted or redacted verdict is written (ArchiveSanitizer).
                Terminal.error("\(file): \(Terminal.verdictLine(result.report) ?? Terminal.rejection(result.report))")
                try CLIExit.exit(for: result.report.verdict)
                throw CLIExit.rejected
            }
            for violation in result.report.violations {
                Terminal.error("\(file): redacted \(violation.path.isEmpty ? "/" : violation.path): \(violation.code): \(violation.message)")
            }
            try ArchiveOutput.write(archive, to: out)
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: file) ?? error
        }
    }
}
