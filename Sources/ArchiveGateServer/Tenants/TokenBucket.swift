import Synchronization

/// A token bucket: `burst` requests at once, refilled at `ratePerSecond`. One per tenant, shared by
/// every connection, so it is guarded by a mutex (the critical section is a few arithmetic ops).
///
/// The arithmetic cannot trap whatever the rate: configuration range-checks it
/// (`TokenBucket.rateRange`), and the bucket still clamps what it turns into an integer, so a rate
/// built in code (1e-300, infinity, NaN) limits or allows but never crashes the server.
public final class TokenBucket: Sendable {
    /// Rates a configuration may give (`limits.requestsPerSecond`, a tenant's `rateLimit`): from one
    /// request in 1000 s to a billion a second (the load scripts' "unlimited").
    public static let rateRange: ClosedRange<Double> = 0.001...1_000_000_000
    /// Burst sizes a configuration may give.
    public static let burstRange: ClosedRange<Int> = 1...1_000_000_000
    /// The longest `Retry-After` the bucket tells a client (a day): beyond it a wait is not advice.
    public static let maxRetryAfterSeconds = 86_400

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
                let refill = seconds * ratePerSecond
                // A NaN rate must not poison the bucket into allowing everything.
                state.tokens = refill.isNaN ? state.tokens : min(Double(burst), state.tokens + refill)
                state.updated = now
            }
            if state.tokens >= 1 {
                state.tokens -= 1
                return .allowed
            }
            let wait = (1 - state.tokens) / ratePerSecond
            // NaN, infinite or huge (a tiny rate) → the cap; `Int(_:)` of those would trap.
            let retry = wait.isFinite && wait < Double(Self.maxRetryAfterSeconds)
                ? Int(wait.rounded(.up)) : Self.maxRetryAfterSeconds
            return .limited(retryAfterSeconds: max(1, retry))
        }
    }
}
