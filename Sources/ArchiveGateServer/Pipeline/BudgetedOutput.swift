import ArchiveGateCore
import Synchronization

/// One request's output as it is written — convert's JSON (a `JSONStreamSink`) or the archive
/// sanitize and encode write (an `OutputGate`) — held to the request's `MemoryLease` and the
/// amplification allowance *while* it grows:
///
///     each step (`OutputBound.step`, 64 KiB) past what is reserved → lease.reserve(step × charge)
///     past the amplification allowance → stop: `.amplification` (422 output.amplification_exceeded)
///     the lease refuses                → stop: `.budget` (503 server.busy / 429 tenant.busy)
///
/// The writer only sees "no" and stops; why is kept here as a typed `Stop`, which the pipeline
/// turns into the answer before it looks at the writer's error.
final class BudgetedOutput: JSONStreamSink, OutputGate, Sendable {
    /// Why the output was stopped.
    enum Stop: Sendable {
        case amplification(allowance: Int)
        case budget(ProblemError)
    }

    private struct State {
        var json: [UInt8] = []
        /// Output bytes covered by the lease so far (a high-water mark, in whole steps).
        var admitted = 0
        var stop: Stop?
    }

    let lease: MemoryLease
    /// The amplification allowance (`AmplificationCap`), or `.max` when the policy's own cap is lower.
    let allowance: Int
    /// Budget bytes per output byte: 1 for JSON held until it is sent; more for an archive that is
    /// read back after it is written (`DecodeEstimate.writtenArchiveBytesPerByte`).
    let charge: Int
    private let state = Mutex(State())

    init(lease: MemoryLease, allowance: Int, charge: Int) {
        self.lease = lease
        self.allowance = allowance
        self.charge = charge
    }

    /// Why the output stopped, if it did.
    var stop: Stop? { state.withLock { $0.stop } }

    /// The JSON streamed into this output (`write`).
    func takeJSON() -> [UInt8] { state.withLock { state in defer { state.json = [] }; return state.json } }

    /// Budget bytes reserved for the output so far.
    var reservedBytes: Int { state.withLock { $0.admitted * charge } }

    func admit(_ bytes: Int) -> Bool {
        state.withLock { admit(bytes, &$0) }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        state.withLock { state in
            guard admit(state.json.count + bytes.count, &state) else { return false }
            state.json.append(contentsOf: bytes)
            return true
        }
    }

    private func admit(_ bytes: Int, _ state: inout State) -> Bool {
        if state.stop != nil { return false }
        if bytes > allowance {
            state.stop = .amplification(allowance: allowance)
            return false
        }
        guard bytes > state.admitted else { return true }
        // Whole steps, so a growing output asks the budget's lock once per 64 KiB, not per chunk.
        let target = min(allowance, (bytes / OutputBound.step + 1) * OutputBound.step)
        do {
            try lease.reserve((target - state.admitted) * charge)
        } catch {
            state.stop = .budget(error)
            return false
        }
        state.admitted = target
        return true
    }
}
