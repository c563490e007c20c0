/// Decides, while an output is being written, whether it may grow further: a server's memory
/// budget and amplification cap (`ArchiveGateServer`'s `BudgetedOutput`). The writer asks before it
/// writes past each step, so a refused output stops where it is instead of being finished and
/// measured afterwards. The gate keeps its own reason for refusing; the writer only stops.
public protocol OutputGate: AnyObject, Sendable {
    /// True when the output may hold `bytes` bytes (the total so far, growing).
    func admit(_ bytes: Int) -> Bool
}

/// The most an output may hold, checked while it is written: the policy's `maxOutputBytes` and,
/// optionally, a gate. A writer calls `admits` at least every `step` bytes and once at the end.
public struct OutputBound: Sendable {
    /// The absolute cap (the policy's `maxOutputBytes`).
    public var maxBytes: Int
    /// Asked as the output grows; nil: only `maxBytes` applies.
    public var gate: (any OutputGate)?
    /// How far the output may grow between two checks (the gate reserves memory in such steps).
    public static let step = 64 << 10

    public init(maxBytes: Int, gate: (any OutputGate)? = nil) {
        self.maxBytes = maxBytes
        self.gate = gate
    }

    /// No bound: tests, tools and callers that bound their input instead.
    public static let unlimited = OutputBound(maxBytes: .max)

    /// True when an output of `bytes` bytes is within the cap and the gate admits it.
    public func admits(_ bytes: Int) -> Bool {
        bytes <= maxBytes && (gate?.admit(bytes) ?? true)
    }
}

/// A writer stopped because its `OutputBound` refused the output: `written` bytes were reached
/// (or would have been) when `maxBytes` or the gate said no.
public struct OutputBoundExceeded: Error, Hashable, Sendable {
    public var written: Int
    public var maxBytes: Int
    /// True when the gate refused, not `maxBytes` (the gate knows why).
    public var byGate: Bool

    /// The outcome of `bound.admits(bytes)` as an error, or nil when admitted.
    static func check(_ bytes: Int, _ bound: OutputBound) -> OutputBoundExceeded? {
        if bytes > bound.maxBytes { return OutputBoundExceeded(written: bytes, maxBytes: bound.maxBytes, byGate: false) }
        if let gate = bound.gate, !gate.admit(bytes) { return OutputBoundExceeded(written: bytes, maxBytes: bound.maxBytes, byGate: true) }
        return nil
    }

    /// "would be more than N bytes" / "was stopped at N bytes by its gate".
    public var reason: String {
        byGate ? "was stopped at \(written) bytes (its memory allowance)" : "would exceed \(maxBytes) bytes"
    }
}

/// Counts a growing output and asks its bound every `OutputBound.step` bytes.
struct OutputMeter {
    let bound: OutputBound
    private var nextCheck = OutputBound.step

    init(_ bound: OutputBound) {
        self.bound = bound
    }

    /// Throws once `bytes` crossed the next step and the bound refuses it.
    mutating func grew(to bytes: Int) throws(OutputBoundExceeded) {
        guard bytes >= nextCheck || bytes > bound.maxBytes else { return }
        if let refusal = OutputBoundExceeded.check(bytes, bound) { throw refusal }
        nextCheck = bytes + OutputBound.step
    }

    /// The final size, always checked.
    func finish(_ bytes: Int) throws(OutputBoundExceeded) {
        if let refusal = OutputBoundExceeded.check(bytes, bound) { throw refusal }
    }
}
