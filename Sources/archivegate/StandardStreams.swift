#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to stdout and stderr with `write(2)`, never through `FileHandle` (whose `write` traps on
/// EPIPE), with SIGPIPE ignored: a closed stdout pipe (`archivegate convert … | head -c1`) ends
/// the CLI with exit 74 as documented — here, in one place — instead of dying of SIGPIPE (141).
enum StandardStreams {
    /// The exit code for stdout that refused bytes (`CLIExit.outputFailed`'s value).
    static let outputFailedCode: Int32 = 74

    /// Ignores SIGPIPE for the whole process, so a write to a closed pipe fails with EPIPE. Called
    /// once, first thing in `main`.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes all of `bytes` to stdout, or — when stdout refuses them (a closed pipe, a full disk)
    /// — says so in one line on stderr and exits 74.
    static func writeStdout(_ bytes: UnsafeRawBufferPointer) {
        if let failure = writeAll(STDOUT_FILENO, bytes) {
            writeStderr("archivegate: writing to stdout failed: \(String(cString: strerror(failure)))\n")
            exit(outputFailedCode)
        }
    }

    /// Writes `text` to stderr; a stderr that refuses it is ignored (there is nowhere left to say so).
    static func writeStderr(_ text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// `write(2)` in a loop; the `errno` of the write that failed, or nil.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var base = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let written = write(descriptor, base, left)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            base += written
            left -= written
        }
        return nil
    }
}
