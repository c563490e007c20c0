import Foundation

/// The Markdown the benchmark prints: throughput, time and memory, and the issue targets.
struct BenchReport {
    var rows: [InputRow]
    var command: String
    var seconds: Double
    /// `/proc/loadavg` when the run started and ended: how shared the machine was.
    var loadBefore: String
    var loadAfter: String

    private static let ours: [Engine] = [.validate, .plain, .typed]

    func markdown() -> String {
        var lines: [String] = []
        lines.append("### Throughput (median process CPU time per run; MB = 10^6 bytes of archive; ×F = Foundation's time ÷ ours)")
        lines.append("")
        lines.append("| input | size | objects | validate MB/s | validate obj/s | validate ×F | plain MB/s | plain obj/s | plain ×F | typed MB/s | typed obj/s | typed ×F | Foundation MB/s | Foundation obj/s |")
        lines.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for row in rows {
            var cells = [row.input.name, Self.bytes(row.bytes), Self.count(row.objects)]
            for engine in Self.ours {
                cells += throughputCells(row, engine) + [ratio(row, engine)]
            }
            cells += throughputCells(row, .foundation)
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("### Time and memory (median CPU ms / median wall ms × runs; peak = the child's VmHWM in MiB; JSON = bytes of one run's output)")
        lines.append("")
        lines.append("| input | validate | plain | typed | Foundation | plain JSON | typed JSON | Foundation JSON | peak validate | peak plain | peak typed | peak Foundation | child start |")
        lines.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for row in rows {
            var cells = [row.input.name]
            cells += Engine.allCases.map { timeCell(row.results[$0]) }
            cells += [Engine.plain, .typed, .foundation].map { engine in
                guard let result = row.results[engine], result.status == .ok else { return "–" }
                return Self.bytes(result.outputBytes)
            }
            cells += Engine.allCases.map { engine in
                guard let result = row.results[engine], result.status == .ok else { return "–" }
                return Self.mebibytes(result.peakKiB)
            }
            cells.append(row.results[.validate].map { Self.mebibytes($0.startKiB) } ?? "–")
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines += targets()
        lines.append("")
        lines.append("Inputs: " + rows.map { "`\($0.input.name)` \($0.input.summary)" }.joined(separator: "; ") + ".")
        lines.append("")
        lines.append("Command: `\(command)` — \(String(format: "%.0f", seconds)) s in all; load average \(loadBefore) at the start, \(loadAfter) at the end.")
        return lines.joined(separator: "\n")
    }

    private func throughputCells(_ row: InputRow, _ engine: Engine) -> [String] {
        guard let result = row.results[engine], let seconds = result.medianSeconds else {
            let label = row.results[engine]?.statusLabel ?? "–"
            return [label, label]
        }
        return [Self.rate(Double(row.bytes) / seconds / 1e6), Self.count(Int((Double(row.objects) / seconds).rounded()))]
    }

    private func ratio(_ row: InputRow, _ engine: Engine) -> String {
        guard let value = ratioValue(row, engine) else { return "–" }
        return String(format: value >= 100 ? "%.0f×" : "%.1f×", value)
    }

    private func ratioValue(_ row: InputRow, _ engine: Engine) -> Double? {
        guard let ours = row.results[engine]?.medianSeconds, let theirs = row.results[.foundation]?.medianSeconds else { return nil }
        return theirs / ours
    }

    private func timeCell(_ result: CaseResult?) -> String {
        guard let result else { return "–" }
        guard let cpu = result.medianSeconds, let wall = result.medianWallSeconds else { return result.statusLabel }
        return "\(Self.milliseconds(cpu)) / \(Self.milliseconds(wall)) × \(result.samples.count)"
    }

    /// The targets of issues 2 and 7, checked against this run's figures.
    private func targets() -> [String] {
        var lines = ["### Targets", "", "| target | measured | met |", "|---|--:|:-:|"]
        func add(_ target: String, _ measured: Double?, _ format: String, _ met: (Double) -> Bool) {
            guard let measured else {
                lines.append("| \(target) | not measured | – |")
                return
            }
            lines.append("| \(target) | \(String(format: format, measured)) | \(met(measured) ? "yes" : "**no**") |")
        }
        for name in ["2mb", "50mb"] {
            guard let row = rows.first(where: { $0.input.name == name }) else { continue }
            add("issue 2: validate+plain ≥ 5× Foundation on \(name)", ratioValue(row, .plain), "%.1f×") { $0 >= 5 }
        }
        if let row = rows.first(where: { $0.input.name == "50mb" }) {
            let megabytes = Double(row.bytes) / 1e6
            add("issue 7: validate+plain ≥ 100× Foundation on 50mb", ratioValue(row, .plain), "%.1f×") { $0 >= 100 }
            add("issue 7: validate+plain ≥ 320 MB/s on 50mb", row.results[.plain]?.medianSeconds.map { megabytes / $0 }, "%.0f MB/s") { $0 >= 320 }
            add("issue 7: validate only ≥ 1,000 MB/s on 50mb", row.results[.validate]?.medianSeconds.map { megabytes / $0 }, "%.0f MB/s") { $0 >= 1_000 }
            if let plain = row.results[.plain], plain.status == .ok {
                // Growth over the child's own start (runtime + libraries), against 2 × input + output.
                let growth = Double(plain.peakKiB - plain.startKiB) * 1024
                let budget = Double(2 * row.bytes + plain.outputBytes)
                add("issue 7: plain peak growth ≤ 2× input + output on 50mb (ratio to that budget)", growth / budget, "%.2f") { $0 <= 1 }
            }
            if let validate = row.results[.validate], validate.status == .ok {
                let growth = Double(validate.peakKiB - validate.startKiB) * 1024
                add("issue 7: validate peak growth ≤ 2× input on 50mb (ratio to that budget)", growth / Double(2 * row.bytes), "%.2f") { $0 <= 1 }
            }
        }
        return lines.count > 4 ? lines : []
    }

    // MARK: Formatting

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<10_000: "\(count) B"
        case ..<10_000_000: String(format: "%.1f KB", Double(count) / 1e3)
        default: String(format: "%.1f MB", Double(count) / 1e6)
        }
    }

    static func count(_ value: Int) -> String {
        switch value {
        case ..<10_000: "\(value)"
        case ..<10_000_000: String(format: "%.1f k", Double(value) / 1e3)
        default: String(format: "%.1f M", Double(value) / 1e6)
        }
    }

    static func milliseconds(_ seconds: Double) -> String {
        let milliseconds = seconds * 1e3
        return String(format: milliseconds >= 100 ? "%.0f" : milliseconds >= 1 ? "%.2f" : "%.4f", milliseconds)
    }

    static func rate(_ megabytesPerSecond: Double) -> String {
        String(format: megabytesPerSecond >= 100 ? "%.0f" : megabytesPerSecond >= 10 ? "%.1f" : "%.2f", megabytesPerSecond)
    }

    static func mebibytes(_ kibibytes: Int) -> String {
        String(format: "%.1f", Double(kibibytes) / 1024)
    }
}
