import Foundation

/// What one measured case (an engine on an input, in its own child process) produced.
struct CaseResult: Codable, Sendable {
    enum Status: Codable, Sendable, Equatable {
        case ok
        /// The engine threw (e.g. the policy rejected the input, or Foundation returned nil).
        case failed(String)
        /// The child died of a signal (stack overflow, `fatalError`, …).
        case crashed(Int32)
        /// The child ran past the per-case time limit and was killed.
        case timedOut(Double)
    }

    var engine: Engine
    var input: String
    var status: Status
    var samples: [Sample] = []
    /// JSON bytes of one run (0 for validate).
    var outputBytes: Int = 0
    /// The child's resident set before it read the input, and its high-water mark at the end (KiB).
    var startKiB: Int = 0
    var peakKiB: Int = 0

    /// Median process CPU time of one run: the figure the tables use (see `BenchReport`).
    var medianSeconds: Double? {
        status == .ok && !samples.isEmpty ? median(samples.map(\.cpu)) : nil
    }

    /// Median wall-clock time of one run.
    var medianWallSeconds: Double? {
        status == .ok && !samples.isEmpty ? median(samples.map(\.wall)) : nil
    }

    /// A short word for the table when there is no number.
    var statusLabel: String {
        switch status {
        case .ok: "ok"
        case .failed: "failed"
        case .crashed(let signal): "crashed (signal \(signal))"
        case .timedOut(let seconds): "timed out (\(Int(seconds)) s)"
        }
    }

    /// Marks the line a child prints its result on, so stray output cannot be mistaken for it.
    static let linePrefix = "ARCHIVEGATE-BENCH-RESULT "

    func encodedLine() -> String {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = (try? encoder.encode(self)) ?? Data()
        return Self.linePrefix + String(decoding: data, as: UTF8.self)
    }

    static func parse(output: String) -> CaseResult? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(linePrefix) }) else { return nil }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try? decoder.decode(CaseResult.self, from: Data(line.dropFirst(linePrefix.count).utf8))
    }
}
