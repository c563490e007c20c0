import ArchiveGateCore
import ArgumentParser

/// The `archivegate` command: composes the subcommands, nothing else.
@main
struct ArchiveGateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archivegate",
        abstract: "Decode untrusted NSKeyedArchiver archives under a class policy, without instantiating anything.",
        discussion: """
        Exit codes (by verdict): 0 accepted, redacted or plain property list, 1 rejected or accepted with findings, \
        2 malformed input (or a failed fetch), 3 inconclusive (a limit, an undecoded nested archive, bytes the \
        property list does not account for), 4 nothing scanned (no archive found), 64 usage, 74 stdout refused the output, 69 `serve` without archivegate-server beside archivegate.
        """,
        version: ArchiveGateVersion.string,
        subcommands: [ValidateCommand.self, ConvertCommand.self, EncodeCommand.self, SanitizeCommand.self, ScanDBCommand.self, FetchCommand.self, PolicyCommand.self, ServeCommand.self, HashKeyCommand.self]
    )

    /// `archivegate serve …` goes to the server before anything is parsed, so that every argument
    /// after `serve` (`--help` included) is the server's to read; everything else is parsed here.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == ServeCommand.configuration.commandName {
            ServeCommand.handOver(Array(arguments.dropFirst()))
        }
        // After the hand-over: an ignored signal stays ignored across exec, and the server is its own.
        StandardStreams.ignoreBrokenPipes()
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // `--help` and `--version` are "errors" that exit 0 with text for stdout. ArgumentParser
            // prints them with `print`, which ignores a closed pipe; written here, a refused stdout
            // exits 74 as every other output does.
            if exitCode(for: error) == .success {
                Terminal.writeStdout(Array((fullMessage(for: error) + "\n").utf8))
                exit(withError: nil)
            }
            exit(withError: error)
        }
    }
}
