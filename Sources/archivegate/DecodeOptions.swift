import ArchiveGateCore
import ArgumentParser
import Foundation

/// The policy and limit flags shared by every command that decodes.
struct DecodeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A policy file (JSON). Default: the built-in 'foundation' policy.", valueName: "file"))
    var policy: String?

    @Flag(name: .long, help: "Inspection mode: accept and render any class (still never instantiated; limits apply).")
    var allowAnyClass = false

    @Flag(name: .long, help: "Also decode NSData that holds a keyed archive, under the same policy and limits (always a danger finding).")
    var nested = false

    @Option(name: .customLong("limit"), help: ArgumentHelp("Override a limit, e.g. --limit maxDepth=64 (repeatable).", valueName: "name=value"))
    var limitOverrides: [String] = []

    func validate() throws {
        if policy != nil, allowAnyClass {
            throw ValidationError("--policy and --allow-any-class exclude each other")
        }
        for override in limitOverrides {
            var limits = DecodeLimits()
            guard let (name, value) = Self.parseOverride(override), limits.set(name, to: value) else {
                throw ValidationError("--limit takes name=positive-integer with a name among \(DecodeLimits().entries.map(\.name).joined(separator: ", ")); got '\(override)'")
            }
        }
    }

    /// The inspector for `policy`, with `--nested` applied.
    func inspector(_ policy: Policy) -> ArchiveInspector {
        ArchiveInspector(policy: policy, decodesNestedArchives: nested)
    }

    /// The policy to decode under; an unusable policy file or override prints one line on stderr
    /// and exits 64 (usage).
    func policyOrExit() throws -> Policy {
        do {
            return try loadPolicy()
        } catch CLIFailure.usage(let message) {
            Terminal.error(message)
            throw CLIExit.usage
        }
    }

    /// The policy to decode under, with overrides applied; throws `CLIFailure.usage` if the file is unusable.
    func loadPolicy() throws -> Policy {
        var loaded: Policy
        if allowAnyClass {
            loaded = .inspection
        } else if let policy {
            guard let bytes = FileManager.default.contents(atPath: policy) else {
                throw CLIFailure.usage("cannot read policy file '\(policy)'")
            }
            do {
                loaded = try Policy.load(json: Array(bytes), name: URL(fileURLWithPath: policy).deletingPathExtension().lastPathComponent)
            } catch {
                throw CLIFailure.usage("policy '\(policy)': \(error)")
            }
        } else {
            loaded = .foundation
        }
        for override in limitOverrides {
            if let (name, value) = Self.parseOverride(override) { _ = loaded.limits.set(name, to: value) }
        }
        return loaded
    }

    private static func parseOverride(_ text: String) -> (String, Int)? {
        let parts = text.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let value = Int(parts[1]), value > 0 else { return nil }
        return (String(parts[0]), value)
    }
}
