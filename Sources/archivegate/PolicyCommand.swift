import ArgumentParser

/// `archivegate policy …`: work with policy files.
struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Suggest a policy from sample archives, compare a policy with samples, or check a policy file.",
        subcommands: [PolicySuggestCommand.self, PolicyDiffCommand.self, PolicyCheckCommand.self]
    )
}
