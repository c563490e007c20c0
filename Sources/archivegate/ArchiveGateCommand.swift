import ArgumentParser

/// The `archivegate` command: composes the subcommands, nothing else.
@main
struct ArchiveGateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archivegate",
        abstract: "Decode untrusted NSKeyedArchiver archives under a class policy, without instantiating anything.",
        discussion: """
        Exit codes: 0 valid/converted, 1 rejected by policy, 2 malformed input or limit exceeded, 64 usage.
        """,
        subcommands: [ValidateCommand.self, ConvertCommand.self, EncodeCommand.self, SanitizeCommand.self, ScanDBCommand.self, FetchCommand.self, PolicyCommand.self, ServeCommand.self, HashKeyCommand.self]
    )
}
