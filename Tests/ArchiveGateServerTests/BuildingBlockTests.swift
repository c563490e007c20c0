import ArchiveGateInflate
@testable import ArchiveGateServer
import Foundation
import NIOCore
import Testing

/// Key hashing, the token bucket, request ids and the gzip inflater on their own.
@Suite struct BuildingBlockTests {
    @Test func keyHashIsSHA256HexAndComparesExactly() {
        // SHA-256("abc"), FIPS 180-2 test vector.
        #expect(APIKeyHash(key: "abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let parsed = APIKeyHash(hex: "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
        #expect(parsed.map { APIKeyHash(key: "abc").constantTimeEquals($0) } == true)
        #expect(!APIKeyHash(key: "abd").constantTimeEquals(APIKeyHash(key: "abc")))
        #expect(APIKeyHash(hex: "xyz") == nil)
    }

    @Test func tokenBucketAllowsTheBurstThenRefills() {
        let bucket = TokenBucket(ratePerSecond: 2, burst: 2)
        let start = ContinuousClock.now
        #expect(bucket.take(now: start) == .allowed)
        #expect(bucket.take(now: start) == .allowed)
        #expect(bucket.take(now: start) == .limited(retryAfterSeconds: 1))
        #expect(bucket.take(now: start + .milliseconds(600)) == .allowed)
    }

    @Test func requestIdsAreKeptOnlyWhenSane() {
        #expect(RequestIdMiddleware.sanitized("abc-123_x.y:z") == "abc-123_x.y:z")
        #expect(RequestIdMiddleware.sanitized("") == nil)
        #expect(RequestIdMiddleware.sanitized("a b") == nil)
        #expect(RequestIdMiddleware.sanitized("line\nbreak") == nil)
        #expect(RequestIdMiddleware.sanitized(String(repeating: "a", count: 129)) == nil)
        #expect(RequestIdMiddleware.generate().count == 32)
    }

    @Test func inflaterHandlesChunkBoundariesAndCaps() throws {
        let original = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let gzip = try Fixtures.gzip(original)
        for chunkSize in [1, 7, 4096, gzip.count] {
            var inflater = try GzipInflater(limit: 1 << 20)
            var offset = 0
            while offset < gzip.count {
                let end = min(offset + chunkSize, gzip.count)
                try inflater.feed(ByteBuffer(bytes: gzip[offset..<end]))
                offset = end
            }
            #expect(try inflater.finish() == original)
        }
        var capped = try GzipInflater(limit: 1000)
        let error = #expect(throws: InflateError.self) { try capped.feed(ByteBuffer(bytes: gzip)) }
        #expect(error?.code == .inflatedTooLarge)
        #expect(error?.limit == 1000)
        #expect(error?.problemError.status == .contentTooLarge)
        #expect(error?.problemError.code == "request.inflated_too_large")

        var truncated = try GzipInflater(limit: 1 << 20)
        try truncated.feed(ByteBuffer(bytes: gzip.prefix(gzip.count / 2)))
        let cut = #expect(throws: InflateError.self) { _ = try truncated.finish() }
        #expect(cut?.code == .invalidGzip)
        #expect(cut?.problemError.status == .badRequest)
        #expect(cut?.problemError.code == "request.invalid_gzip")
    }
}
