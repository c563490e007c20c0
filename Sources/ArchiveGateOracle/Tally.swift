/// Counts per mutation family and outcome, per stricter rule and per discounted bug, plus the
/// first examples of each failing kind (for reproduction with `--only`).
struct Tally {
    var counts: [MutationFamily: [Outcome: Int]] = [:]
    var stricterRules: [String: Int] = [:]
    /// Stricter verdicts on unmutated Foundation-written archives: real archives we refuse.
    var stricterOnUnmutated: [String: (count: Int, example: UInt64)] = [:]
    var discounted: [String: Int] = [:]
    var failureKinds: [String: (count: Int, example: UInt64)] = [:]
    var total = 0

    mutating func add(index: UInt64, family: MutationFamily, _ classification: Classification, note: String) {
        total += 1
        counts[family, default: [:]][classification.outcome, default: 0] += 1
        switch classification.outcome {
        case .stricter:
            stricterRules[classification.label, default: 0] += 1
            if family == .none {
                let previous = stricterOnUnmutated[classification.label]
                stricterOnUnmutated[classification.label] = ((previous?.count ?? 0) + 1, previous?.example ?? index)
            }
        case .discounted: discounted[classification.label, default: 0] += 1
        case .falseValid, .wrongJSON, .harnessError:
            let key = "\(classification.outcome.rawValue) \(family.rawValue) \(note) (\(classification.label))"
            let previous = failureKinds[key]
            failureKinds[key] = ((previous?.count ?? 0) + 1, previous?.example ?? index)
        default: break
        }
    }

    func count(_ outcome: Outcome) -> Int { counts.values.reduce(0) { $0 + ($1[outcome] ?? 0) } }

    /// The table printed at the end of a run (Markdown, pasted as is into docs/RELIABILITY.md).
    func table() -> String {
        let columns: [Outcome] = [.agreeValid, .agreeInvalid, .falseValid, .wrongJSON, .stricter, .discounted, .harnessError]
        var lines = ["| family | tried | " + columns.map(\.rawValue).joined(separator: " | ") + " |",
                     "|---|---:|" + String(repeating: "---:|", count: columns.count)]
        for family in counts.keys.sorted() {
            let row = counts[family]!
            lines.append("| \(family.rawValue) | \(row.values.reduce(0, +)) | " + columns.map { String(row[$0] ?? 0) }.joined(separator: " | ") + " |")
        }
        lines.append("| **all** | \(total) | " + columns.map { String(count($0)) }.joined(separator: " | ") + " |")
        return lines.joined(separator: "\n")
    }

    func details() -> String {
        var lines: [String] = []
        if !stricterRules.isEmpty {
            lines.append("\nstricter, by ArchiveGate rule:")
            for (rule, count) in stricterRules.sorted(by: { $0.value > $1.value }) { lines.append("  \(count)\t\(rule)") }
        }
        if !stricterOnUnmutated.isEmpty {
            lines.append("\nstricter on UNMUTATED Foundation-written archives (real archives refused):")
            for (rule, entry) in stricterOnUnmutated.sorted(by: { $0.value.count > $1.value.count }) {
                lines.append("  \(entry.count)\t\(rule)\t--only \(entry.example)")
            }
        }
        if !discounted.isEmpty {
            lines.append("\ndiscounted (known corelibs bugs):")
            for (bug, count) in discounted.sorted(by: { $0.value > $1.value }) { lines.append("  \(count)\t\(bug)") }
        }
        if !failureKinds.isEmpty {
            lines.append("\nfailures, by kind (first example index for --only):")
            for (kind, entry) in failureKinds.sorted(by: { $0.value.count > $1.value.count }) {
                lines.append("  \(entry.count)\t\(kind)\t--only \(entry.example)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
