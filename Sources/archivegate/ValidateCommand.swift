import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate validate FILE...` (or `--url URL`): one JSON record per input (one per line):
/// `{"file","verdict","report"}` (`"url"` for a fetched one), or `{"file","verdict","verdictReason","error"}`
/// when the input could not be evaluated. With folders or batch flags, a batch (see `BatchOptions`):
/// records carry a status, and a summary ends on stderr.
/// `--format sarif`: one SARIF 2.1.0 log on stdout instead of the records (`SarifLog`).
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check archives against a policy and print one JSON report per file.",
        discussion: """
        Example: archivegate validate --policy config/policies/example.json notes.archive
        From a URL: archivegate validate --url https://example.com/notes.archive (the rules of POST /v1/fetch: http and
        https only, at most 5 redirects, loopback, private, link-local and other internal addresses refused unless
        --allow-range allows them, the body capped at the policy's maxInputBytes; a failed fetch exits 2 with one line
        'fetch.<code>: message').
        """
    )

    @OptionGroup var decode: DecodeOptions

    @OptionGroup var source: URLInput

    @OptionGroup var batch: BatchOptions

    @Option(name: .long, help: ReportFormat.help)
    var format: ReportFormat = .jsonl

    @Argument(help: ArgumentHelp("Archives to check ('-' for stdin), or folders for a batch.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        try source.check(files: files, batch: batch)
        if files.contains("-"), batch.applies(to: files) { throw ValidationError("'-' (stdin) is not a batch input") }
        if format == .sarif, batch.out != nil { throw ValidationError("--format sarif writes one log on stdout; it does not go with --out") }
    }

    func run() async throws {
        let policy = try decode.policyOrExit()
        let inspector = decode.inspector(policy)
        let sarif = format == .sarif ? SarifLog() : nil
        if source.url == nil, batch.applies(to: files) {
            return try BatchJobs.run(files, options: batch, acceptedWord: "valid", sarif: sarif,
                                     job: sarif.map { BatchJobs.validate(inspector, into: $0) } ?? BatchJobs.validate(inspector))
        }
        let inputs = source.url.map { [InputSource.url($0)] } ?? files.map(InputSource.file)
        var worst: Int32 = 0
        for input in inputs {
            worst = max(worst, try await Self.validate(input, inspector: inspector, fetching: source.fetching, sarif: sarif))
        }
        if let sarif { Terminal.writeStdout(sarif.document(exitCode: worst)) }
        if worst != 0 { throw ExitCode(worst) }
    }

    /// One input's record on stdout (or its result in `sarif`), its findings and verdict line on
    /// stderr; returns its exit status (`CLIExit.status(for:)`). A failed fetch or an unreadable
    /// file ends the command.
    static func validate(_ input: InputSource, inspector: ArchiveInspector, fetching: FetchSwitches,
                         sarif: SarifLog? = nil) async throws -> Int32 {
        do {
            let bytes = try await input.load(limit: inspector.policy.limits.maxInputBytes, fetching: fetching)
            let report = try inspector.validate(bytes)
            if let sarif {
                sarif.add(report, from: .file(input.name))
            } else {
                var record = BatchRecord(origin: input.origin, verdict: report.verdict, status: nil)
                record.append(report: report)
                Terminal.writeStdout(record.line)
            }
            Terminal.reportFindings(report, file: input.name)
            if let line = Terminal.verdictLine(report) { Terminal.error("\(input.name): \(line)") }
            return CLIExit.status(for: report.verdict).rawValue
        } catch let error as ArchiveGateError {
            // Not evaluated (malformed, a limit, a plain property list): the record says so too.
            if let sarif { sarif.add(error, from: .file(input.name)) } else { BatchRecord.writeFailure(error, origin: input.origin) }
            return CLIFailure.exitCode(reporting: error, source: input.name)?.rawValue ?? 0
        } catch {
            guard let exit = CLIFailure.exitCode(reporting: error, source: input.name) else { throw error }
            if case CLIFailure.usage(let message) = error { sarif?.notifyUnreadable(message) }
            return exit.rawValue
        }
    }
}
