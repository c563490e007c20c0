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
            try Terminal.writeConversion(inspection, source: file, pretty: pretty)
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: file) ?? error
        }
    }
}

extension OutputMode: ExpressibleByArgument {}
