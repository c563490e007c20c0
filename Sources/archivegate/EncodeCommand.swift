import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate encode FILE`: typed JSON (`convert --mode typed`) back to an NSKeyedArchiver archive.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode typed JSON (convert --mode typed) as an NSKeyedArchiver archive.",
        discussion: """
        Example: archivegate convert --mode typed notes.archive > notes.json; archivegate encode --out again.archive notes.json
        The JSON is untrusted input: the policy's limits (--policy, --limit) apply, and an error names its JSON pointer.
        The archive is read back and checked under the policy like any other: its danger findings are named on stderr,
        then one line 'verdict <name>'; it is written only when the verdict releases it (accepted; acceptedWithFindings
        under --allow-any-class), and the exit status is the verdict's (0 accepted, 1 rejected or acceptedWithFindings,
        3 inconclusive). encode never redacts: under a redact policy a violation rejects (sanitize redacts).
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "binary (default) or xml.")
    var format: PropertyList.Format = .binary

    @Option(name: .long, help: ArgumentHelp("Write the archive to this file instead of stdout.", valueName: "file"))
    var out: String?

    @Argument(help: ArgumentHelp("The typed JSON ('-' for stdin).", valueName: "file"))
    var file: String

    func run() throws {
        let policy = try decode.policyOrExit()
        do {
            let json = try InputReader.read(file, limit: policy.limits.maxInputBytes)
            let encoded = try ArchiveEncoder(policy: policy).encodeReporting(json, format: format)
            // The archive written is checked like one read: its verdict decides what is written and the exit.
            Terminal.reportFindings(encoded.report, file: file)
            let verdict = encoded.report.verdict
            Terminal.error("\(file): verdict \(verdict)")
            guard let archive = encoded.releasedArchive else {
                Terminal.error("\(file): \(Terminal.verdictLine(encoded.report) ?? Terminal.rejection(encoded.report)): nothing written")
                try CLIExit.exit(for: verdict)
                throw CLIExit.rejected
            }
            try ArchiveOutput.write(archive, to: out)
            if let line = Terminal.verdictLine(encoded.report) { Terminal.error("\(file): \(line)") }
            try CLIExit.exit(for: verdict)
        } catch let error as EncodeError {
            Terminal.error("\(file): \(error.code) \(Terminal.shorten(error.location)): \(error.message)")
            throw CLIExit.malformed
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: file) ?? error
        }
    }
}

extension PropertyList.Format: ExpressibleByArgument {}

/// Where `encode` and `sanitize` put the archive: a file (`OutputFile`), or stdout.
enum ArchiveOutput {
    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path else {
            Terminal.writeStdout(bytes)
            return
        }
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw CLIFailure.usage(error.description)
        }
    }
}
