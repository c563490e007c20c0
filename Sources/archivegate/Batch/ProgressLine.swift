import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Batch progress on stderr: a redrawn bar on a terminal (files, MB, rate, ETA), plain lines at most
/// every few seconds when stderr is a file or pipe, so logs stay readable.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let totalFiles: Int
    private let totalBytes: Int
    private let isTerminal: Bool
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private var barShown = false
    private let unit: String

    init(totalFiles: Int, totalBytes: Int, unit: String = "files", isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.unit = unit
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
        self.isTerminal = isTerminal
    }

    var elapsed: Double { Date().timeIntervalSince(start) }

    /// Called after each file with the running totals.
    func update(files: Int, bytes: Int) {
        lock.withLock {
            let now = Date()
            let interval = isTerminal ? 0.1 : 5.0
            guard now.timeIntervalSince(lastDrawn) >= interval || files == totalFiles else { return }
            if !isTerminal, files == totalFiles { return }  // the summary says the rest
            lastDrawn = now
            let line = text(files: files, bytes: bytes, seconds: now.timeIntervalSince(start))
            if isTerminal {
                write("\r\u{1B}[K" + line)
                barShown = true
            } else {
                write("archivegate: progress " + line + "\n")
            }
        }
    }

    /// Prints whole lines (per-file messages, the summary) without tearing the bar.
    func message(_ line: String) {
        lock.withLock {
            if barShown { write("\r\u{1B}[K"); barShown = false; lastDrawn = .distantPast }
            write("archivegate: " + TerminalText.escaped(line) + "\n")
        }
    }

    /// Clears the bar before the summary.
    func finish() {
        lock.withLock {
            if barShown { write("\r\u{1B}[K"); barShown = false }
        }
    }

    private func text(files: Int, bytes: Int, seconds: Double) -> String {
        let fraction = totalBytes > 0 ? Double(bytes) / Double(totalBytes) : Double(files) / Double(max(totalFiles, 1))
        let width = 24
        let filled = min(width, Int(fraction * Double(width)))
        let rate = seconds > 0 ? Double(bytes) / 1_048_576 / seconds : 0
        let eta = fraction > 0 && fraction < 1 ? seconds * (1 - fraction) / fraction : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + "\(files)/\(totalFiles) \(unit)  \(Self.megabytes(bytes))\(totalBytes > 0 ? "/" + Self.megabytes(totalBytes) : "") MB  "
            + String(format: "%.1f MB/s  ETA %ds", rate, Int(eta.rounded()))
    }

    private func write(_ text: String) {
        StandardStreams.writeStderr(text)
    }

    /// Bytes as megabytes with one decimal.
    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
