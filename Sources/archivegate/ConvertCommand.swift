import ArchiveGateCore
import ArgumentParser

/// `archivegate convert FILE` (or `--url URL`): the archive as JSON on stdout. With folders or batch
/// flags (`convert --recursive --out out/ DIR…`), every file under them (see `BatchOptions`).
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an archive to JSON (plain or typed) if the policy accepts it.",
        discussion: """
        Example: archivegate convert --pretty notes.archive
        From a URL: archivegate convert --url https://example.com/notes.archive (the rules of POST /v1/fetch, as validate --url).
        Batch: archivegate convert --recursive --out out/ extraction/   (or JSON Lines on stdout without --out);
        files that are not property lists are skipped and counted; a summary ends on stderr; exit is the worst code.
        With a policy whose onViolation is "redact", violating subtrees become null and each is listed on stderr.
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "plain (natural JSON) or typed (lossless archive graph).")
    var mode: OutputMode = .plain

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, dot
    }

    @Option(name: .long, help: "json, or dot: the object graph as Graphviz DOT (classes as labels, keys on edges, violations and findings in red; drawn even when the policy rejects the archive, exit 1 then).")
    var format: Format = .json

    @Flag(name: .long, help: "Indent the JSON.")
    var pretty = false

    @OptionGroup var switches: OutputSwitches

    @OptionGroup var source: URLInput

    @OptionGroup var batch: BatchOptions

    @Argument(help: ArgumentHelp("The archive ('-' for stdin), or files and folders for a batch.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        try source.check(files: files, batch: batch)
        try switches.check(mode: mode)
        if format == .dot, batch.applies(to: files), batch.out == nil {
            throw ValidationError("--format dot in a batch needs --out DIR (one <relative path>.dot per file)")
        }
        if files.count > 1, !batch.applies(to: files) {
            throw ValidationError("several inputs make a batch: give a folder, --out DIR or --jobs N (JSON Lines on stdout)")
        }
        if files.contains("-"), batch.applies(to: files) { throw ValidationError("'-' (stdin) is not a batch input") }
    }

    func run() async throws {
        let policy = try decode.policyOrExit()
        if source.url == nil, batch.applies(to: files), format == .dot {
            return try BatchJobs.run(files, options: batch, acceptedWord: "drawn", outputExtension: "dot",
                                     job: BatchJobs.draw(decode.inspector(policy)))
        }
        if source.url == nil, batch.applies(to: files) {
            let job = BatchJobs.convert(decode.inspector(policy), mode: mode, pretty: pretty, mirrored: batch.out != nil,
                                        filter: switches.filter)
            return try BatchJobs.run(files, options: batch, acceptedWord: "converted", job: job)
        }
        let input = source.url.map(InputSource.url) ?? .file(files[0])
        try await Self.convert(input, inspector: decode.inspector(policy), fetching: source.fetching,
                               mode: mode, format: format, pretty: pretty, filter: switches.filter)
    }

    /// One input converted: the JSON (or DOT graph) on stdout, findings and redactions on stderr,
    /// then the exit status of its verdict (`CLIExit.status(for:)`).
    static func convert(_ input: InputSource, inspector: ArchiveInspector, fetching: FetchSwitches, mode: OutputMode,
                        format: Format, pretty: Bool, filter: PlainJSONFilter) async throws {
        let source = input.name
        do {
            let bytes = try await input.load(limit: inspector.policy.limits.maxInputBytes, fetching: fetching)
            if format == .dot { return try writeGraph(bytes, inspector: inspector, source: source) }
            let conversion: ArchiveConversion
            switch Result(catching: { () throws(ArchiveGateError) in try inspector.prepareConversion(bytes) }) {
            case .success(let prepared):
                conversion = prepared
            case .failure(let error):
                guard Verdict(error) == .plist else { throw error }
                // A plain property list: converted by the same conventions, verdict `plist`, exit 0.
                let json = try inspector.convertPropertyList(bytes, pretty: pretty && filter.isIdentity)
                Terminal.writeStdout(filter.isIdentity ? json : filter.apply(json, pretty: pretty))
                if !pretty { Terminal.writeStdout([0x0A]) }
                return
            }
            try Terminal.streamConversion(conversion, mode: mode, pretty: pretty, filter: filter, source: source)
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: source) ?? error
        }
    }
}

extension ConvertCommand {
    /// `--format dot`: the verdict under the policy, the graph from an inspection-mode typed rendering
    /// (same limits), so a rejected archive can still be drawn with its violations in red.
    private static func writeGraph(_ bytes: ByteStorage, inspector: ArchiveInspector, source: String) throws {
        let (dot, report) = try GraphvizExport.draw(bytes, inspector: inspector)
        Terminal.writeStdout(Array(dot.utf8))
        if let line = Terminal.verdictLine(report) { Terminal.error("\(source): \(line)") }
        try CLIExit.exit(for: report.verdict)
    }
}

extension OutputMode: ExpressibleByArgument {}
