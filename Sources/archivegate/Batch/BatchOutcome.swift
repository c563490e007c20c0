import ArchiveGateCore

/// What became of one file of a batch.
enum BatchOutcome: Sendable {
    /// Decoded or refused with a verdict; `code` (a violation's, finding's or error's) groups the summary.
    case verdict(Verdict, code: String?)
    /// Not a property list at all (`plist.not_a_property_list`): counted, not an error.
    case skipped
    /// The file could not be opened or read.
    case unreadable

    /// The exit code this outcome asks for (the batch exits with the highest).
    var exitCode: Int32 {
        switch self {
        case .verdict(let verdict, _): CLIExit.status(for: verdict).rawValue
        case .skipped: 0
        case .unreadable: CLIExit.usage.rawValue
        }
    }

    /// The outcome of an evaluated report, grouped by its first violation's (else first
    /// unacknowledged finding's) code unless it is accepted.
    static func of(_ report: ValidationReport) -> BatchOutcome {
        guard report.verdict != .accepted else { return .verdict(.accepted, code: nil) }
        return .verdict(report.verdict, code: report.violations.first?.code.rawValue
            ?? report.unacknowledgedFindings.first?.code.rawValue ?? report.verdict.reason)
    }

    /// Skipped: the bytes are no property list of any kind, so a folder's other files do not count
    /// against the batch. Every other decoding error has its verdict (malformed, inconclusive, plist).
    static func failure(_ error: ArchiveGateError) -> BatchOutcome {
        if error.code.rawValue == PropertyListError.Code.notAPropertyList.rawValue { return .skipped }
        let verdict = Verdict(error)
        return .verdict(verdict, code: verdict == .plist ? nil : error.code.rawValue)
    }
}

/// Counts of a batch's outcomes, by kind and by code, and the worst exit code seen.
struct BatchSummary: Sendable {
    /// Files by verdict name (`Verdict.name`).
    var verdicts: [String: Int] = [:]
    var skipped = 0
    var unreadable = 0
    var bytes = 0
    /// "rejected policy.class_not_allowed" → count, and so on.
    var byCode: [String: Int] = [:]
    var worstExitCode: Int32 = 0

    var files: Int { verdicts.values.reduce(0, +) + skipped + unreadable }

    mutating func add(_ outcome: BatchOutcome, bytes: Int) {
        self.bytes += bytes
        worstExitCode = max(worstExitCode, outcome.exitCode)
        switch outcome {
        case .verdict(let verdict, let code):
            verdicts[verdict.name, default: 0] += 1
            if let code { byCode[verdict.name + " " + code, default: 0] += 1 }
        case .skipped: skipped += 1
        case .unreadable: unreadable += 1
        }
    }

    /// A batch (or scan) that found no archive and no property list at all is inconclusive: it
    /// checked nothing. Raises the exit code to say so (4, nothing scanned), and returns what explains
    /// it (the last summary line after `summary: `, and SARIF's run-level notice).
    mutating func noteNoArchive(unit: String) -> String? {
        guard verdicts.isEmpty else { return nil }
        worstExitCode = max(worstExitCode, CLIExit.status(for: .inconclusive(.noArchiveFound)).rawValue)
        return "inconclusive (\(Verdict.Inconclusive.noArchiveFound)): no archive or property list among the \(unit)"
    }

    /// The summary as stderr lines: one total line, then one line per (verdict, code), most frequent first.
    func lines(acceptedWord: String, seconds: Double, unit: String = "files") -> [String] {
        func count(_ name: String) -> Int { verdicts[name] ?? 0 }
        var total = "summary: \(files) \(unit), \(ProgressLine.megabytes(bytes)) MB in \(String(format: "%.1f", seconds)) s: "
            + "\(count("accepted")) \(acceptedWord), \(count("rejected")) rejected, \(count("malformed")) malformed, "
            + "\(skipped) skipped (not a property list)"
        for (name, label) in [("redacted", "redacted"), ("acceptedWithFindings", "accepted with findings"),
                              ("inconclusive", "inconclusive"), ("plist", "plain property lists")] where count(name) > 0 {
            total += ", \(count(name)) \(label)"
        }
        if unreadable > 0 { total += ", \(unreadable) unreadable" }
        var lines = [total]
        for (key, count) in byCode.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("summary:   \(key) \(count)")
        }
        return lines
    }
}
