import ArchiveGateInflate
@testable import ArchiveGateServer
import Foundation
import NIOCore
import Testing

/// The gzip body inflater on its own, and its problems.
@Suite struct GzipInflaterTests {
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
        #expect(error?.problemError.code.rawValue == "request.inflated_too_large")

        var truncated = try GzipInflater(limit: 1 << 20)
        try truncated.feed(ByteBuffer(bytes: gzip.prefix(gzip.count / 2)))
        let cut = #expect(throws: InflateError.self) { _ = try truncated.finish() }
        #expect(cut?.code == .invalidGzip)
        #expect(cut?.problemError.status == .badRequest)
        #expect(cut?.problemError.code.rawValue == "request.invalid_gzip")
    }

    /// What the caller is asked to admit covers the old and the new output buffer while one is
    /// copied into the other: an upload accounted this way cannot hold more than was reserved
    /// (scripts/robustness (h) saw 1.5 × the reservation when only the growth was asked for).
    @Test func growthIsAdmittedWithTheOldBufferStillHeld() throws {
        let gzip = try Fixtures.gzip([UInt8](repeating: 0, count: 3 << 20))
        var inflater = try GzipInflater(limit: 4 << 20)
        var held = 0, peak = 0, growths = 0
        var offset = 0
        while offset < gzip.count {
            let end = min(offset + 512, gzip.count)
            try inflater.feed(ByteBuffer(bytes: gzip[offset..<end]), admitting: { bytes in
                held += bytes
                peak = max(peak, held)
                growths += 1
                return true
            }, released: { bytes in held -= bytes })
            offset = end
        }
        let output = try inflater.finish()
        #expect(output.count == 3 << 20)
        #expect(growths > 2)
        // Held now: the last buffer, at least the output. At the last growth: that buffer and the
        // one before it, which was at least half of it.
        #expect(held >= output.count)
        #expect(peak >= held + held / 2)

        var refused = try GzipInflater(limit: 4 << 20)
        var granted = 0
        let error = #expect(throws: InflateError.self) {
            try refused.feed(ByteBuffer(bytes: gzip), admitting: { bytes in
                guard granted + bytes <= 1 << 20 else { return false }
                granted += bytes
                return true
            }, released: { bytes in granted -= bytes })
        }
        #expect(error?.code == .growthRefused)
        #expect(granted <= 1 << 20)
    }
}
