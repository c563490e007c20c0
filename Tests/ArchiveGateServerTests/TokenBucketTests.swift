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

/// Issue 31: a rate of 1e-300 was accepted and trapped in `take` on the second request.
@Suite struct TokenBucketRangeTests {
    @Test(arguments: [1e-300, 0, Double.nan, Double.infinity, Double.leastNonzeroMagnitude])
    func anyRateLimitsOrAllowsWithoutTrapping(_ rate: Double) {
        let bucket = TokenBucket(ratePerSecond: rate, burst: 1)
        let start = ContinuousClock.now
        #expect(bucket.take(now: start) == .allowed)
        let second = bucket.take(now: start + .seconds(1))
        if rate.isInfinite {
            #expect(second == .allowed)
        } else {
            #expect(second == .limited(retryAfterSeconds: TokenBucket.maxRetryAfterSeconds), "\(rate)")
        }
    }

    @Test func aTinyRateRetriesAfterTheCappedWait() {
        let bucket = TokenBucket(ratePerSecond: 0.001, burst: 1)
        let start = ContinuousClock.now
        #expect(bucket.take(now: start) == .allowed)
        #expect(bucket.take(now: start) == .limited(retryAfterSeconds: 1000))
    }
}
