import CompressNIO
import NIOCore

/// Inflates a gzip stream chunk by chunk under an output cap, so a bomb (1 GiB of zeros in 1 MiB)
/// costs at most `limit` + one 64 KiB window of memory before it is refused (and, while the output
/// buffer grows, its old and new buffers together: see `feed`).
///
/// Errors (`InflateError`): output past `limit` → `inflatedTooLarge`; a corrupt, truncated or
/// trailing-garbage stream → `invalidGzip`. Its own module, with no server dependency, so the
/// fuzz target (Fuzz/FuzzGzipArchive) runs this very code under the sanitizers.
public struct GzipInflater {
    private static let windowSize = 64 * 1024
    private let decompressor: ZlibDecompressor
    private let limit: Int
    private var window: ByteBuffer
    private var output: [UInt8] = []

    /// A fresh inflater whose output may not exceed `limit` bytes.
    public init(limit: Int) throws(InflateError) {
        do {
            decompressor = try ZlibDecompressor(algorithm: .gzip)
        } catch {
            throw InflateError(.unavailable, "zlib could not be initialized: \(error)")
        }
        self.limit = limit
        window = ByteBufferAllocator().buffer(capacity: Self.windowSize)
    }

    /// Inflates one chunk of the request body, so a caller can account for memory as it grows
    /// rather than after a small chunk has inflated to megabytes.
    ///
    /// The output buffer grows by doubling. Before each growth `admit` is asked for the whole new
    /// buffer, because the old one is still allocated while its bytes are copied over (old + new =
    /// 1.5 × the new size at that moment); false stops with `growthRefused`. Once the old buffer is
    /// freed, `released` is told its size. So what `admit` granted minus what `released` returned
    /// is always at least what the inflater holds.
    public mutating func feed(_ chunk: ByteBuffer, admitting admit: (Int) -> Bool = { _ in true },
                              released: (Int) -> Void = { _ in }) throws(InflateError) {
        var input = chunk
        guard input.readableBytes > 0 else { return }
        while true {
            window.clear()
            do {
                try decompressor.inflate(from: &input, to: &window)
                try drainWindow(admit, released)
                // A normal return with input left means zlib hit the end of the stream.
                if input.readableBytes > 0 {
                    throw InflateError(.invalidGzip, "data follows the end of the gzip stream")
                }
                return
            } catch let error as CompressNIOError where error == .bufferOverflow {
                try drainWindow(admit, released)  // the window is full; keep inflating the same input
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                try drainWindow(admit, released)
                return
            } catch let error as InflateError {
                throw error
            } catch {
                throw InflateError(.invalidGzip, "corrupt deflate data")
            }
        }
    }

    /// Checks that the stream ended properly and returns the inflated bytes.
    ///
    /// zlib's API does not say "ended" when the end falls exactly on a chunk boundary, so probe:
    /// after the end, inflate consumes nothing and succeeds; before it, the probe byte is eaten
    /// as (bad or partial) data.
    public mutating func finish() throws(InflateError) -> [UInt8] {
        var probe = ByteBuffer(bytes: [0])
        window.clear()
        do {
            try decompressor.inflate(from: &probe, to: &window)
        } catch {
            throw InflateError(.invalidGzip, "the gzip stream is truncated")
        }
        guard probe.readableBytes == 1, window.readableBytes == 0 else {
            throw InflateError(.invalidGzip, "the gzip stream is truncated")
        }
        return output
    }

    private mutating func drainWindow(_ admit: (Int) -> Bool, _ released: (Int) -> Void) throws(InflateError) {
        guard window.readableBytes > 0 else { return }
        guard output.count + window.readableBytes <= limit else {
            throw InflateError(.inflatedTooLarge, limit: limit, "the gzip body inflates past \(limit) bytes")
        }
        let needed = output.count + window.readableBytes
        if needed > output.capacity {
            let grown = max(needed, output.capacity * 2)
            let old = output.capacity
            guard admit(grown) else {
                throw InflateError(.growthRefused, "more inflated output was refused")
            }
            output.reserveCapacity(grown)
            released(old)
        }
        output.append(contentsOf: window.readableBytesView)
    }
}
