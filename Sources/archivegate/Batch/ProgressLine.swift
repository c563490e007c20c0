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
    /// Messages not yet written, when they are gathered (`gathersMessages`, stderr not a terminal):
    /// written in one `write(2)` once this holds `BatchRunner.flushBytes`, when a message comes
    /// `BatchRunner.flushSeconds` after the last write, before a progress line, and by `finish()`.
    /// A batch of rejected files wrote one line per file, one syscall each (issue 32).
    private var pending = ""
    private var lastFlush = ContinuousClock.now
    private var gathering: Bool

    /// `gathersMessages`: per-file messages may be gathered until `finish()` (ignored on a terminal,
    /// where the bar and the messages are drawn as they come).
    init(totalFiles: Int, totalBytes: Int, unit: String = "files", isTerminal: Bool = isatty(STDERR_FILENO) == 1,
         gathersMessages: Bool = false) {
        self.unit = unit
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
        self.isTerminal = isTerminal
        gathering = gathersMessages && !isTerminal
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
                flushMessages()
                write("archivegate: progress " + line + "\n")
            }
        }
    }

    /// Prints whole lines (per-file messages, the summary) without tearing the bar.
    func message(_ line: String) {
        lock.withLock {
            if barShown { write("\r\u{1B}[K"); barShown = false; lastDrawn = .distantPast }
            let text = "archivegate: " + TerminalText.escaped(line) + "\n"
            guard gathering else {
                write(text)
                return
            }
            pending += text
            if pending.utf8.count >= BatchRunner.flushBytes || lastFlush.duration(to: .now) >= BatchRunner.flushSeconds {
                flushMessages()
            }
        }
    }

    /// Clears the bar before the summary; writes the gathered messages, and writes later ones as
    /// they come.
    func finish() {
        lock.withLock {
            flushMessages()
            gathering = false
            if barShown { write("\r\u{1B}[K"); barShown = false }
        }
    }

    /// Writes the gathered messages now: `BatchRunner` calls this before it writes records to
    /// stdout, whose failure ends the process at once (exit 74) with nothing else flushed.
    func writeGatheredMessages() {
        lock.withLock { flushMessages() }
    }

    /// Writes the gathered messages (the caller holds `lock`).
    private func flushMessages() {
        if !pending.isEmpty { write(pending) }
        pending = ""
        lastFlush = .now
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
