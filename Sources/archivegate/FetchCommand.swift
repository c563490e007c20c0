import ArchiveGateCore
import ArgumentParser

/// `archivegate fetch URL`: an alias kept for scripts written before `--url` — `fetch URL` is
/// `validate --url URL` and `fetch --convert URL` is `convert --url URL`; it runs their code.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Alias: 'fetch URL' is 'validate --url URL'; 'fetch --convert URL' is 'convert --url URL'.",
        discussion: """
        Example: archivegate fetch https://example.com/notes.archive
        Same flags, rules, records and exit codes as validate --url and convert --url (see their help).
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "With --convert: plain (natural JSON) or typed (lossless archive graph).")
    var mode: OutputMode = .plain

    @Flag(name: .long, help: "Print the archive as JSON (convert --url) instead of the validation report (validate --url).")
    var convert = false

    @Flag(name: .long, help: "With --convert: indent the JSON.")
    var pretty = false

    @OptionGroup var fetching: FetchSwitches

    @Argument(help: ArgumentHelp("The http or https URL of the archive.", valueName: "url"))
    var url: String

    func run() async throws {
        let inspector = decode.inspector(try decode.policyOrExit())
        if convert {
            return try await ConvertCommand.convert(.url(url), inspector: inspector, fetching: fetching, mode: mode,
                                                    format: .json, pretty: pretty, filter: PlainJSONFilter())
        }
        let status = try await ValidateCommand.validate(.url(url), inspector: inspector, fetching: fetching)
        if status != 0 { throw ExitCode(status) }
    }
}
