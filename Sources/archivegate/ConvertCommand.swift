import ArchiveGateCore
import ArgumentParser

/// `archivegate convert FILE`: the archive as JSON on stdout. With folders or batch flags
/// (`convert --recursive --out out/ DIR…`), every file under them (see `BatchOptions`).
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an archive to JSON (plain or typed) if the policy accepts it.",
        discussion: """
        Example: archivegate convert --pretty notes.archive
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

    @OptionGroup var batch: BatchOptions

    @Argument(help: ArgumentHelp("The archive ('-' for stdin), or files and folders for a batch.", valueName: "file"))
    var files: [String]

    func validate() throws {
        try switches.check(mode: mode)
        if format == .dot, batch.applies(to: files), batch.out == nil {
            throw ValidationError("--format dot in a batch needs --out DIR (one <relative path>.dot per file)")
        }
        if files.count > 1, !batch.applies(to: files) {
            throw ValidationError("several inputs make a batch: give a folder, --out DIR or --jobs N (JSON Lines on stdout)")
        }
        if files.contains("-"), batch.applies(to: files) { throw ValidationError("'-' (stdin) is not a batch input") }
    }

    func run() throws {
        let policy = try decode.policyOrExit()
        if batch.applies(to: files), format == .dot {
            return try BatchJobs.run(files, options: batch, acceptedWord: "drawn", outputExtension: "dot",
                                     job: BatchJobs.draw(decode.inspector(policy)))
        }
        if batch.applies(to: files) {
            let job = BatchJobs.convert(decode.inspector(policy), mode: mode, pretty: pretty, mirrored: batch.out != nil,
                                        filter: switches.filter)
            return try BatchJobs.run(files, options: batch, acceptedWord: "converted", job: job)
        }
        let file = files[0]
        do {
            let bytes = try InputReader.load(file, limit: policy.limits.maxInputBytes)
            if format == .dot { return try writeGraph(bytes, policy: policy) }
            let inspector = decode.inspector(policy)
            let conversion: ArchiveConversion
            switch Result(catching: { () throws(ArchiveGateError) in try inspector.prepareConversion(bytes) }) {
            case .success(let prepared):
                conversion = prepared
            case .failure(let error):
                guard Verdict(error) == .plist else { throw error }
                // A plain property list: converted by the same conventions, verdict `plist`, exit 0.
                let filter = switches.filter
                let json = try inspector.convertPropertyList(bytes, pretty: pretty && filter.isIdentity)
                Terminal.writeStdout(filter.isIdentity ? json : filter.apply(json, pretty: pretty))
                if !pretty { Terminal.writeStdout([0x0A]) }
                return
            }
            try Terminal.streamConversion(conversion, mode: mode, pretty: pretty, filter: switches.filter, source: file)
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: file) ?? error
        }
    }
}

extension ConvertCommand {
    /// `--format dot`: the verdict under the policy, the graph from an inspection-mode typed rendering
    /// (same limits), so a rejected archive can still be drawn with its violations in red.
    private func writeGraph(_ bytes: ByteStorage, policy: Policy) throws {
        let (dot, report) = try GraphvizExport.draw(bytes, inspector: decode.inspector(policy))
        Terminal.writeStdout(Array(dot.utf8))
        if let line = Terminal.verdictLine(report) { Terminal.error("\(files[0]): \(line)") }
        try CLIExit.exit(for: report.verdict)
    }
}

extension OutputMode: ExpressibleByArgument {}
