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
}
