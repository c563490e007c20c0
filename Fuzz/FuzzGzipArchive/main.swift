// main.swift: named so for plain builds to link (an executable needs one); under --sanitize fuzzer
// libFuzzer drives LLVMFuzzerTestOneInput.
import ArchiveGateCore
import ArchiveGateFuzzSupport
import ArchiveGateInflate
import CompressNIO
import NIOCore

// libFuzzer target: gzip inflate + decode, as `POST … Content-Encoding: gzip` runs it.
//
// `GzipInflater` is the server's own inflater, in its own module (Sources/ArchiveGateInflate), so
// the code fuzzed is the code deployed, without building the server and Hummingbird under the
// sanitizers.
//
// Input: byte 0 picks a mode and a chunk size, the rest is the payload.
// - mode "stream" (bit 7 clear): the payload is a gzip stream, fed in chunks of the chosen size.
//   Whatever the chunking, the outcome must equal feeding it whole; the output never exceeds the
//   cap; inflated bytes go through the inspector (invariants as in FuzzArchive).
// - mode "round trip" (bit 7 set): the payload is an archive; it is gzipped here, inflated in
//   chunks, must come back byte for byte, and then goes through the inspector.

private let cap = FuzzPolicies.limits.maxInputBytes
private let inspector = ArchiveInvariants(policy: FuzzPolicies.inspection)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzipArchive(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let control = input.first else { return 0 }
    let payload = Array(input.dropFirst())
    let chunkSize = chunkSizes[Int(control & 0x0F)]
    let inflated: [UInt8]
    if control & 0x80 == 0 {
        let whole = inflate(payload, chunkSize: max(payload.count, 1))
        let chunked = inflate(payload, chunkSize: chunkSize)
        require(whole == chunked, "inflating in chunks of \(chunkSize) gave \(chunked), whole gave \(whole)")
        guard case .success(let bytes) = whole else { return 0 }
        inflated = bytes
    } else {
        let gzipped = gzip(payload)
        let result = inflate(gzipped, chunkSize: chunkSize)
        require(result == .success(payload), "gzip round trip in chunks of \(chunkSize) gave \(result)")
        inflated = payload
    }
    require(inflated.count <= cap, "inflated \(inflated.count) bytes past the cap of \(cap)")
    inspector.check(inflated)
    return 0
}

/// Chunk sizes byte 0 chooses from: tiny (zlib state carried across calls), odd, window-sized.
private let chunkSizes = [1, 2, 3, 7, 10, 16, 31, 64, 100, 255, 512, 1000, 4096, 8191, 65536, 1 << 20]

private enum Inflated: Equatable {
    case success([UInt8])
    case failure(String)
}

private func inflate(_ stream: [UInt8], chunkSize: Int) -> Inflated {
    do throws(InflateError) {
        var inflater = try GzipInflater(limit: cap)
        var offset = 0
        while offset < stream.count {
            let end = min(offset + chunkSize, stream.count)
            try inflater.feed(ByteBuffer(bytes: stream[offset ..< end]))
            offset = end
        }
        return .success(try inflater.finish())
    } catch {
        return .failure(error.code.rawValue)
    }
}

private func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var buffer = ByteBuffer(bytes: bytes)
    do {
        let compressed = try buffer.compress(with: .gzip())
        return Array(compressed.readableBytesView)
    } catch {
        fatalError("gzip of \(bytes.count) bytes failed: \(error)")
    }
}
