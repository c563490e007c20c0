import ArchiveGateCore
import ArgumentParser

/// `archivegate policy suggest SAMPLE...`: a starting policy for a person to review, checked
/// against every sample before it is printed.
struct PolicySuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Print a minimal policy that accepts the given sample archives (review it before use).",
        discussion: """
        Example: archivegate policy suggest --name notes samples/ > config/policies/notes.json
        Folders are walked recursively; --db adds every archive BLOB of a SQLite database. The policy is
        checked against every sample with nested archives decoded; samples it does not accept are listed.
        Exit: 0 every sample accepted; 1 a sample the policy cannot accept (a Foundation object whose fields
        do not match its class, or a finding left unacknowledged); 2 a sample that is no keyed archive; 3 a sample
        over a limit, or no sample archive at all; 64 usage.
        """
    )

    @Option(name: .long, help: "The policy's name.")
    var name = "suggested"

    @Flag(name: .long, help: "Explain each rule on stderr: why it is there and which samples asked for it.")
    var explain = false

    @Flag(name: .long, help: "Do not acknowledge the samples' danger findings; the samples that hold one are then not accepted.")
    var noAcknowledge = false

    @Option(name: .long, help: ArgumentHelp("A SQLite database whose archive BLOBs are samples too (repeatable; read-only, as scan-db).", valueName: "file"))
    var db: [String] = []

    @Argument(help: ArgumentHelp("Sample archives, or folders of them.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty, db.isEmpty { throw ValidationError("give sample files, folders or --db FILE") }
    }

    func run() throws {
        var suggester = PolicySuggester()
        suggester.acknowledgesFindings = !noAcknowledge
        var decoded: [PolicySamples.Sample] = []
        var nested: [String] = []
        var unfit: [String: String] = [:]
        var worst = ExitCode.success
        var unreadable = 0
        let limit = PolicySuggester.sampleInspector.policy.limits.maxInputBytes
        do {
            try PolicySamples(paths: files, databases: db).forEach(limit: limit, unreadable: &unreadable) { sample in
                do throws(ArchiveGateError) {
                    let observation = try suggester.addSample(ByteStorage(sample.bytes), label: sample.label)
                    decoded.append(sample)
                    if observation.nestedArchives > 0 { nested.append(sample.label) }
                    if let shape = observation.shapeViolations.first {
                        unfit[sample.label] = "no policy accepts it: \(shape.code) at \(Terminal.shorten(shape.path.isEmpty ? "/" : shape.path)): \(shape.message)"
                    }
                } catch {
                    Terminal.error("\(sample.label): \(Terminal.failure(error))")
                    worst = PolicySamples.worse(worst, CLIExit.status(for: Verdict(error)))
                }
            }
        } catch {
            throw CLIFailure.exitCode(reporting: error, source: "policy suggest") ?? error
        }
        if unreadable > 0 { worst = PolicySamples.worse(worst, CLIExit.usage) }
        guard !decoded.isEmpty else {
            // As a batch with no archive in it: nothing was checked (`batch.no_archive`).
            if worst == .success { Terminal.error("no sample archive found: \(Verdict.Inconclusive.noArchiveFound)") }
            throw worst == .success ? CLIExit.status(for: .inconclusive(.noArchiveFound)) : worst
        }
        let json = suggester.policyJSON(name: name)
        Terminal.writeStdout(Array(json.utf8))
        for name in suggester.acknowledgedNames {
            Terminal.error("acknowledged '\(name)': the samples hold a danger finding that names it; keep it only if you mean to (--explain says where)")
        }
        if explain {
            for line in suggester.explanation() { Terminal.error("explain \(line)") }
        }
        worst = PolicySamples.worse(worst, try check(json, against: decoded, unfit: unfit))
        if !nested.isEmpty {
            Terminal.error("\(nested.count) sample\(nested.count == 1 ? " holds" : "s hold") nested archives (\(Terminal.shorten(nested.joined(separator: ", ")))): validate with --nested (without it the verdict is inconclusive)")
        }
        if worst != .success { throw worst }
    }

    /// Runs the real evaluator with the suggested policy on every sample (nested archives
    /// decoded); each sample it does not accept gets a line. Returns 1 if any, else 0.
    private func check(_ json: String, against samples: [PolicySamples.Sample], unfit: [String: String]) throws -> ExitCode {
        let policy: Policy
        do {
            policy = try Policy.load(json: Array(json.utf8), name: name)
        } catch {
            Terminal.error("the suggested policy does not load (a bug): \(error)")
            return CLIExit.malformed
        }
        let inspector = ArchiveInspector(policy: policy, decodesNestedArchives: true)
        var refused = 0
        for sample in samples {
            let report: ValidationReport
            do {
                report = try inspector.validate(sample.bytes)
            } catch {
                Terminal.error("\(sample.label): not accepted by the suggested policy: \(Terminal.failure(error))")
                refused += 1
                continue
            }
            guard !report.verdict.isValid else { continue }
            refused += 1
            let why = unfit[sample.label] ?? Terminal.verdictLine(report) ?? report.verdict.description
            Terminal.error("\(sample.label): not accepted by the suggested policy: \(why)")
        }
        if refused > 0 {
            Terminal.error("the suggested policy accepts \(samples.count - refused) of \(samples.count) samples")
            return CLIExit.rejected
        }
        return .success
    }
}
