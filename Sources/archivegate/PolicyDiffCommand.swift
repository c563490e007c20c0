import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate policy diff POLICY SAMPLE...`: what the samples need beyond the policy.
struct PolicyDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "List what sample archives need beyond a policy: classes, keys, acknowledgements (a learning mode).",
        discussion: """
        Example: archivegate policy diff config/policies/notes.json refused-samples/
        Each sample is evaluated under the policy by the real evaluator, nested archives decoded; every
        violation and unacknowledged finding becomes a need, counted over the samples.
        Exit: 0 the policy accepts every sample; 1 the samples need more; 2 a sample is no keyed archive; 64 usage.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(name: .long, help: "text (one need per line) or json (one document).")
    var format: Format = .text

    @Option(name: .long, help: ArgumentHelp("A SQLite database whose archive BLOBs are samples too (repeatable; read-only, as scan-db).", valueName: "file"))
    var db: [String] = []

    @Argument(help: ArgumentHelp("The policy file.", valueName: "policy"))
    var policyFile: String

    @Argument(help: ArgumentHelp("Sample archives, or folders of them.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty, db.isEmpty { throw ValidationError("give sample files, folders or --db FILE") }
    }

    func run() throws {
        let policy = try PolicyCheckCommand.load(policyFile)
        let inspector = ArchiveInspector(policy: policy, decodesNestedArchives: true)
        var diff = PolicyDiff(policy: policy.name)
        var unreadable = 0
        do {
            try PolicySamples(paths: files, databases: db).forEach(limit: policy.limits.maxInputBytes, unreadable: &unreadable) { sample in
                do throws(ArchiveGateError) {
                    let report = try inspector.validate(sample.bytes)
                    diff.add(report, sample: sample.label, nestedArchives: report.findings.contains { $0.code == .nestedArchive })
                } catch {
                    diff.add(error, sample: sample.label)
                }
            }
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: "policy diff") ?? error
        }
        switch format {
        case .text: writeText(diff)
        case .json: try writeJSON(diff)
        }
        if unreadable > 0 { throw CLIExit.usage }
        if !diff.failures.isEmpty { throw CLIExit.malformed }
        if !diff.isEmpty { throw CLIExit.rejected }
    }

    private func writeText(_ diff: PolicyDiff) {
        let needs = diff.sortedNeeds
        var header = "policy '\(diff.policy)' accepts \(diff.acceptedCount) of \(diff.sampleCount) sample\(diff.sampleCount == 1 ? "" : "s")"
        if !needs.isEmpty { header += "; the samples need:" }
        Terminal.outputLine(header)
        for (need, samples) in needs {
            let path = diff.firstPaths[need].map { " at \(Terminal.shorten($0.isEmpty ? "/" : $0))" } ?? ""
            Terminal.outputLine("  \(need.summary) — \(need.code)\(path), \(Self.list(samples))")
        }
        for (sample, error) in diff.failures {
            Terminal.outputLine("  not evaluated: \(sample): \(Terminal.failure(error))")
        }
        if !diff.nestedSamples.isEmpty {
            Terminal.outputLine("  nested archives in \(Self.list(diff.nestedSamples)): a gate decodes them only with --nested (?nested=true); otherwise the verdict is inconclusive")
        }
    }

    /// `3 samples (a, b, c)`, at most three named.
    private static func list(_ samples: [String]) -> String {
        let shown = samples.prefix(3).joined(separator: ", ")
        return "\(samples.count) sample\(samples.count == 1 ? "" : "s") (\(shown)\(samples.count > 3 ? ", +\(samples.count - 3) more" : ""))"
    }

    private struct Document: Encodable {
        struct Need: Encodable {
            var need: String
            var code: String
            var `class`: String?
            var key: String?
            var accept: String?
            var summary: String
            /// Where it was first met (a JSON pointer into the first sample's plain JSON).
            var path: String?
            var samples: [String]
        }

        struct Failure: Encodable {
            var sample: String
            var verdict: String
            var code: String
            var message: String
        }

        var policy: String
        var samples: Int
        var accepted: Int
        var needs: [Need]
        var nested: [String]
        var failures: [Failure]
    }

    private func writeJSON(_ diff: PolicyDiff) throws {
        let document = Document(
            policy: diff.policy, samples: diff.sampleCount, accepted: diff.acceptedCount,
            needs: diff.sortedNeeds.map { need, samples in
                Document.Need(need: need.kind, code: need.code, class: need.className, key: need.key, accept: need.accept,
                              summary: need.summary, path: diff.firstPaths[need], samples: samples)
            },
            nested: diff.nestedSamples,
            failures: diff.failures.map { Document.Failure(sample: $0.sample, verdict: Verdict($0.error).name, code: $0.error.code.rawValue, message: $0.error.message) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        Terminal.writeStdout(Array(try encoder.encode(document)) + [0x0A])
    }
}
