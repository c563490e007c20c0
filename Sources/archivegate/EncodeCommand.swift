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
        The archive is read back by ArchiveGate before it is written out.
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
            let archive = try ArchiveEncoder(limits: policy.limits).encode(json, format: format)
            try ArchiveOutput.write(archive, to: out)
        } catch let error as EncodeError {
            Terminal.error("\(file): \(error.code) \(Terminal.shorten(error.location)): \(error.message)")
            throw CLIExit.malformed
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: file) ?? error
        }
    }
}

extension PropertyList.Format: ExpressibleByArgument {}

/// Where `encode` and `sanitize` put the archive: a file, or stdout.
enum ArchiveOutput {
    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path else {
            Terminal.writeStdout(bytes)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CLIFailure.usage("cannot write '\(path)'")
        }
    }
}
