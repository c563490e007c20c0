import ArchiveGateCore
import ArgumentParser

/// `archivegate convert FILE`: the archive as JSON on stdout.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an archive to JSON (plain or typed) if the policy accepts it.",
        discussion: """
        Example: archivegate convert --pretty notes.archive
        With a policy whose onViolation is "redact", violating subtrees become null and each is listed on stderr.
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "plain (natural JSON) or typed (lossless archive graph).")
    var mode: OutputMode = .plain

    @Flag(name: .long, help: "Indent the JSON.")
    var pretty = false

    @Argument(help: ArgumentHelp("The archive ('-' for stdin).", valueName: "file"))
    var file: String

    func run() throws {
        let policy = try decode.policyOrExit()
        do {
            let bytes = try InputReader.read(file, limit: policy.limits.maxInputBytes)
            let inspection = try decode.inspector(policy).convert(bytes, mode: mode, pretty: pretty)
            Terminal.reportFindings(inspection.report, file: file)
            guard let json = inspection.json else {
                Terminal.error("\(file): \(Terminal.rejection(inspection.report))")
                throw CLIExit.rejected
            }
            for violation in inspection.report.violations {
                Terminal.error("\(file): redacted \(violation.path.isEmpty ? "/" : violation.path): \(violation.code): \(violation.message)")
            }
            Terminal.writeStdout(json)
            if !pretty { Terminal.writeStdout([0x0A]) }
        } catch let error as ArchiveGateError {
            Terminal.error("\(file): \(Terminal.malformed(error))")
            throw CLIExit.malformed
        } catch CLIFailure.usage(let message) {
            Terminal.error(message)
            throw CLIExit.usage
        }
    }
}

extension OutputMode: ExpressibleByArgument {}
