import ArchiveGateCore
import ArgumentParser

/// `archivegate policy suggest SAMPLE...`: a starting policy for a person to review.
struct PolicySuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Print a minimal policy that accepts the given sample archives (review it before use).",
        discussion: "Example: archivegate policy suggest --name notes samples/*.archive > config/policies/notes.json"
    )

    @Option(name: .long, help: "The policy's name.")
    var name = "suggested"

    @Argument(help: ArgumentHelp("Sample archives.", valueName: "file"))
    var files: [String]

    func run() throws {
        var suggester = PolicySuggester()
        let inspector = ArchiveInspector(policy: .inspection)
        for file in files {
            do {
                let bytes = try InputReader.read(file, limit: inspector.policy.limits.maxInputBytes)
                suggester.add(try inspector.decode(bytes))
            } catch {
                throw CLIFailure.exitCode(reporting: error, source: file) ?? error
            }
        }
        Terminal.writeStdout(Array(suggester.policyJSON(name: name).utf8))
    }
}
