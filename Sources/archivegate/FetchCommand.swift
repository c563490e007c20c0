import ArchiveGateCore
import ArchiveGateFetch
import ArgumentParser
import Foundation

/// `archivegate fetch URL`: fetches an archive with the server's SSRF-safe fetcher, then validates
/// it (one JSON report on stdout) or, with `--convert`, converts it.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch an archive from an http(s) URL and validate (or convert) it.",
        discussion: """
        Example: archivegate fetch https://example.com/notes.archive
        The same rules as POST /v1/fetch: http and https only, at most 5 redirects, loopback, private,
        link-local and other internal addresses refused unless --allow-range allows them, the body
        capped at the policy's maxInputBytes. A failed fetch exits 2 with one line 'fetch.<code>: message'.
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "With --convert: plain (natural JSON) or typed (lossless archive graph).")
    var mode: OutputMode = .plain

    @Flag(name: .long, help: "Print the archive as JSON (as 'convert' does) instead of the validation report.")
    var convert = false

    @Flag(name: .long, help: "With --convert: indent the JSON.")
    var pretty = false

    @Option(name: .customLong("allow-range"),
            help: ArgumentHelp("Allow an address range the deny list refuses, e.g. 127.0.0.0/8 (repeatable).", valueName: "CIDR"))
    var allowRanges: [String] = []

    @Option(name: .long, help: ArgumentHelp("Seconds allowed for the whole fetch.", valueName: "seconds"))
    var timeout: Int = 30

    @Argument(help: ArgumentHelp("The http or https URL of the archive.", valueName: "url"))
    var url: String

    func validate() throws {
        for range in allowRanges where IPAddressRange(range) == nil {
            throw ValidationError("--allow-range takes a CIDR range such as 127.0.0.0/8 or fd00::/8; got '\(range)'")
        }
        guard timeout > 0 else { throw ValidationError("--timeout is a positive number of seconds") }
    }

    func run() async throws {
        let policy = try decode.policyOrExit()
        let fetchPolicy = FetchPolicy(allowedRanges: allowRanges.compactMap(IPAddressRange.init),
                                      maxBytes: policy.limits.maxInputBytes,
                                      totalTimeout: .seconds(timeout))
        let fetched: FetchedArchive
        do {
            fetched = try await ArchiveFetcher(userAgent: "archivegate-cli/1").fetch(url, policy: fetchPolicy)
        } catch {
            Terminal.error("\(error.code.rawValue): \(error.status.map { "HTTP \($0): " } ?? "")\(error.message)")
            throw CLIExit.malformed
        }
        let inspector = decode.inspector(policy)
        do {
            if convert {
                let inspection = try inspector.convert(fetched.bytes, mode: mode, pretty: pretty)
                try Terminal.writeConversion(inspection, source: url, pretty: pretty)
            } else {
                let report = try inspector.validate(fetched.bytes)
                var record = BatchRecord(origin: ["url": .text(url)], verdict: report.verdict, status: nil)
                record.append(report: report)
                Terminal.writeStdout(record.line)
                Terminal.reportFindings(report, file: url)
                if let line = Terminal.verdictLine(report) { Terminal.error("\(url): \(line)") }
                try CLIExit.exit(for: report.verdict)
            }
        } catch {
            if let error = error as? ArchiveGateError, !convert { BatchRecord.writeFailure(error, origin: ["url": .text(url)]) }
            throw CLIFailure.exitCode(reporting: error, source: url) ?? error
        }
    }
}
