import ArchiveGateCore

/// What became of one file of a batch.
enum BatchOutcome: Sendable {
    /// Accepted (converted, or valid for `validate`); redacted conversions count here too.
    case converted
    /// Decoded, but the policy refused it; the code is its first violation's (or finding's).
    case rejected(code: String)
    /// Not a decodable archive (or a limit stopped it); the code is the error's.
    case malformed(code: String)
    /// Not a property list at all (`plist.not_a_property_list`): counted, not an error.
    case skipped
    /// The file could not be opened or read.
    case unreadable

    /// The exit code this outcome asks for (the batch exits with the worst).
    var exitCode: Int32 {
        switch self {
        case .converted, .skipped: 0
        case .rejected: CLIExit.rejected.rawValue
        case .malformed: CLIExit.malformed.rawValue
        case .unreadable: CLIExit.usage.rawValue
        }
    }

    /// The rejection code of an invalid report: its first violation's, else its first unacknowledged finding's.
    static func rejectionCode(_ report: ValidationReport) -> String {
        report.violations.first?.code.rawValue
            ?? report.unacknowledgedFindings.first?.code.rawValue
            ?? "policy.rejected"
    }

    /// Skipped: the bytes are no property list of any kind, so a folder's other files do not count
    /// against the batch. Every other decoding error is a malformed archive.
    static func failure(_ error: ArchiveGateError) -> BatchOutcome {
        error.code.rawValue == PropertyListError.Code.notAPropertyList.rawValue ? .skipped : .malformed(code: error.code.rawValue)
    }
}

/// Counts of a batch's outcomes, by kind and by code, and the worst exit code seen.
struct BatchSummary: Sendable {
    var converted = 0
    var rejected = 0
    var malformed = 0
    var skipped = 0
    var unreadable = 0
    var bytes = 0
    /// "rejected policy.class_not_allowed" → count, and so on.
    var byCode: [String: Int] = [:]
    var worstExitCode: Int32 = 0

    var files: Int { converted + rejected + malformed + skipped + unreadable }

    mutating func add(_ outcome: BatchOutcome, bytes: Int) {
        self.bytes += bytes
        worstExitCode = max(worstExitCode, outcome.exitCode)
        switch outcome {
        case .converted: converted += 1
        case .rejected(let code): rejected += 1; byCode["rejected " + code, default: 0] += 1
        case .malformed(let code): malformed += 1; byCode["malformed " + code, default: 0] += 1
        case .skipped: skipped += 1
        case .unreadable: unreadable += 1
        }
    }

    /// The summary as stderr lines: one total line, then one line per (outcome, code), most frequent first.
    func lines(acceptedWord: String, seconds: Double, unit: String = "files") -> [String] {
        var lines = ["summary: \(files) \(unit), \(ProgressLine.megabytes(bytes)) MB in \(String(format: "%.1f", seconds)) s: "
            + "\(converted) \(acceptedWord), \(rejected) rejected, \(malformed) malformed, \(skipped) skipped (not a property list)"
            + (unreadable > 0 ? ", \(unreadable) unreadable" : "")]
        for (key, count) in byCode.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("summary:   \(key) \(count)")
        }
        return lines
    }
}
