import ArchiveGateCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streamed JSON written to a file descriptor (stdout) as it comes, with `write(2)` in a loop;
/// remembers how much went out and why writing stopped.
final class DescriptorSink: JSONStreamSink {
    let descriptor: Int32
    /// Bytes the descriptor took.
    private(set) var bytesWritten = 0
    /// `errno` of the write that failed, if one did.
    private(set) var failure: Int32?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard failure == nil, let base = bytes.baseAddress else { return failure == nil }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return false
            }
            offset += written
            bytesWritten += written
        }
        return true
    }

    /// The failed write as words: "Broken pipe", "No space left on device".
    var failureDescription: String {
        guard let failure else { return "no error" }
        return String(cString: strerror(failure))
    }
}
