@testable import ArchiveGateServer
import Testing

/// The rate limiter's token bucket on its own.
@Suite struct TokenBucketTests {
    @Test func tokenBucketAllowsTheBurstThenRefills() {
        let bucket = TokenBucket(ratePerSecond: 2, burst: 2)
        let start = ContinuousClock.now
        #expect(bucket.take(now: start) == .allowed)
        #expect(bucket.take(now: start) == .allowed)
        #expect(bucket.take(now: start) == .limited(retryAfterSeconds: 1))
        #expect(bucket.take(now: start + .milliseconds(600)) == .allowed)
    }
}
