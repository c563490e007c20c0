import ArchiveGateCore
import ArgumentParser
import Foundation

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
                for finding in policy.lint { Terminal.outputLine("\(file): \(finding)") }
                Terminal.error("\(file): \(policy.lint.count) lint finding\(policy.lint.count == 1 ? "" : "s"); fix them or mark the policy \"inspection\": true")
                throw CLIExit.rejected
            }
            let summary = "\(file): policy '\(policy.name)' OK — allow: \(policy.allowed.summary); schemas: \(schemas.isEmpty ? "none" : schemas); onViolation: \(policy.onViolation.rawValue)\(policy.inspection ? "; inspection" : "")"
            Terminal.outputLine(summary)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.error("\(file): \(error)")
            throw CLIExit.usage
        }
    }
}
