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
        The archive is read back by ArchiveGate before it is written out; its danger findings are named on stderr,
        and under a gate policy (the default) an unacknowledged one writes nothing and exits 1.
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
            var encoder = ArchiveEncoder(limits: policy.limits)
            encoder.acknowledged = policy.acknowledged
            let encoded = try encoder.encodeReporting(json, format: format)
            // The archive written is checked like one read: its danger findings are named, and under
            // a gate policy an unacknowledged one means nothing is written.
            for finding in encoded.findings { Terminal.error("\(file): finding \(Terminal.finding(finding))") }
            if policy.rejectsDanger, let finding = encoded.findings.first(where: { !$0.acknowledged }) {
                Terminal.error("\(file): rejected: \(Terminal.finding(finding))")
                throw CLIExit.rejected
            }
            try ArchiveOutput.write(encoded.archive, to: out)
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
