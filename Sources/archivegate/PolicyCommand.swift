import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate policy …`: work with policy files.
struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Suggest a policy from sample archives, or check a policy file.",
        subcommands: [PolicySuggestCommand.self, PolicyCheckCommand.self]
    )
}

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
            } catch let error as ArchiveGateError {
                Terminal.error("\(file): \(Terminal.malformed(error))")
                throw CLIExit.malformed
            } catch CLIFailure.usage(let message) {
                Terminal.error(message)
                throw CLIExit.usage
            }
        }
        Terminal.writeStdout(Array(suggester.policyJSON(name: name).utf8))
    }
}

/// `archivegate policy check FILE`: exit 0 when the policy loads, 64 with the reason otherwise.
struct PolicyCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a policy file loads; print its name and what it allows.",
        discussion: "Example: archivegate policy check config/policies/example.json"
    )

    @Flag(name: .long, help: "Also print every lint finding (over-broad rules) and exit 1 if there is any.")
    var strict = false

    @Argument(help: ArgumentHelp("The policy file.", valueName: "file"))
    var file: String

    func run() throws {
        guard let bytes = FileManager.default.contents(atPath: file) else {
            Terminal.error("cannot read policy file '\(file)'")
            throw CLIExit.usage
        }
        do {
            let policy = try Policy.load(json: Array(bytes), name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
            let schemas = policy.classes.keys.sorted().joined(separator: ", ")
            if strict, !policy.lint.isEmpty {
                for finding in policy.lint { print("\(file): \(finding)") }
                Terminal.error("\(file): \(policy.lint.count) lint finding\(policy.lint.count == 1 ? "" : "s"); fix them or mark the policy \"inspection\": true")
                throw CLIExit.rejected
            }
            print("\(file): policy '\(policy.name)' OK — allow: \(policy.allowed.summary); schemas: \(schemas.isEmpty ? "none" : schemas); onViolation: \(policy.onViolation.rawValue)\(policy.inspection ? "; inspection" : "")")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.error("\(file): \(error)")
            throw CLIExit.usage
        }
    }
}
