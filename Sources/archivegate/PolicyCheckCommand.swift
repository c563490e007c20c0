import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate policy check FILE`: exit 0 when the policy loads, 64 with the reason otherwise.
struct PolicyCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a policy file loads; print its name and what it allows.",
        discussion: """
        Example: archivegate policy check --strict config/policies/example.json
        Warnings (lint.unknown_class: a class name no sample, schema or known class uses) go to stderr;
        --samples adds the classes of sample archives to the names it knows.
        Exit: 0 the policy loads (with --strict: and has no lint finding or warning); 1 --strict and a finding
        or warning; 64 the policy does not load (one line: code, and line and column or JSON pointer).
        """
    )

    @Flag(name: .long, help: "Also print every lint finding (over-broad rules) and warning, and exit 1 if there is any.")
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Sample archives or folders whose class names count as known (repeatable).", valueName: "path"))
    var samples: [String] = []

    @Argument(help: ArgumentHelp("The policy file.", valueName: "file"))
    var file: String

    /// Loads a policy file for `check` and `diff`; a file that cannot be read or loaded prints one
    /// line and exits 64.
    static func load(_ file: String) throws -> Policy {
        guard let bytes = FileManager.default.contents(atPath: file) else {
            Terminal.error("cannot read policy file '\(file)'")
            throw CLIExit.usage
        }
        do {
            return try Policy.load(json: Array(bytes), name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
        } catch {
            Terminal.error("\(file): \(error)")
            throw CLIExit.usage
        }
    }

    func run() throws {
        let policy = try Self.load(file)
        let warnings = PolicyLint.classNameWarnings(json: Array(FileManager.default.contents(atPath: file) ?? Data()),
                                                    sampleClasses: try sampleClasses())
        for warning in warnings { Terminal.error("\(file): warning: \(warning)") }
        if strict, !policy.lint.isEmpty || !warnings.isEmpty {
            for finding in policy.lint { Terminal.outputLine("\(file): \(finding)") }
            let count = policy.lint.count + warnings.count
            Terminal.error("\(file): \(count) lint finding\(count == 1 ? "" : "s"); fix them or mark the policy \"inspection\": true")
            throw CLIExit.rejected
        }
        let schemas = policy.classes.keys.sorted().joined(separator: ", ")
        Terminal.outputLine("\(file): policy '\(policy.name)' OK — allow: \(policy.allowed.summary); schemas: \(schemas.isEmpty ? "none" : schemas); onViolation: \(policy.onViolation.rawValue)\(policy.inspection ? "; inspection" : "")")
    }

    /// The class names of `--samples` (any class admitted; a sample that is no archive is skipped).
    private func sampleClasses() throws -> Set<String> {
        guard !samples.isEmpty else { return [] }
        var names = Set<String>()
        var unreadable = 0
        let inspector = ArchiveInspector(policy: .inspection, decodesNestedArchives: true)
        do {
            try PolicySamples(paths: samples, databases: []).forEach(limit: inspector.policy.limits.maxInputBytes, unreadable: &unreadable) { sample in
                if let report = try? inspector.validate(sample.bytes) { names.formUnion(report.classes.map(\.name)) }
            }
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: "policy check") ?? error
        }
        return names
    }
}
