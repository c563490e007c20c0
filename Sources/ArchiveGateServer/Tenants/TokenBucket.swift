import Synchronization

/// A token bucket: `burst` requests at once, refilled at `ratePerSecond`. One per tenant, shared by
/// every connection, so it is guarded by a mutex (the critical section is a few arithmetic ops).
public final class TokenBucket: Sendable {
    /// The outcome of asking for one token.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Denied; a token will be available after this many whole seconds (at least 1).
        case limited(retryAfterSeconds: Int)
    }

    private struct State {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    public let ratePerSecond: Double
    public let burst: Int
    private let state: Mutex<State>

    public init(ratePerSecond: Double, burst: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        state = Mutex(State(tokens: Double(burst), updated: .now))
    }

    /// Takes one token if there is one.
    public func take(now: ContinuousClock.Instant = .now) -> Decision {
        state.withLock { state in
            let elapsed = state.updated.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if seconds > 0 {
                state.tokens = min(Double(burst), state.tokens + seconds * ratePerSecond)
                state.updated = now
            }
            if state.tokens >= 1 {
                state.tokens -= 1
                return .allowed
            }
            let wait = (1 - state.tokens) / ratePerSecond
            return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
    }
}
