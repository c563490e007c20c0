import ArgumentParser
import ArchiveGateCore
import Foundation

/// Exit codes are values: 0 valid, 1 rejected by policy, 2 malformed input, 3 inconclusive, 4 nothing scanned, 64 usage
/// (`status(for:)` maps a verdict).
enum CLIExit {
    static let rejected = ExitCode(1)
    static let malformed = ExitCode(2)
    static let usage = ExitCode(64)
    /// Stdout refused the JSON (a closed pipe, a full disk): what it has is unfinished.
    static let outputFailed = ExitCode(74)
}

/// A failure the CLI reports in one line on stderr before exiting with its code.
enum CLIFailure: Error {
    case usage(String)

    /// The catch every command shares: an input that could not be evaluated prints its one line and
    /// exits by its verdict (malformed 2, a limit inconclusive 3, a plain property list 0); a usage failure (an input that cannot be opened) prints its message and exits 64.
    /// `source` (a file or URL) starts the line. Nil for any other error, which the caller rethrows.
    static func exitCode(reporting error: any Error, source: String) -> ExitCode? {
        switch error {
        case let error as ArchiveGateError:
            Terminal.error("\(source): \(Terminal.failure(error))")
            return CLIExit.status(for: Verdict(error))
        case CLIFailure.usage(let message):
            Terminal.error(message)  // the caller's mistake, not the archive's
            return CLIExit.usage
        default:
            return nil
        }
    }
}

enum Terminal {
    /// One line on stderr, prefixed with the program name; the line is escaped (`TerminalText`),
    /// so input-derived text in it cannot reach the terminal as control characters.
    static func error(_ line: String) {
        StandardStreams.writeStderr("archivegate: " + TerminalText.escaped(line) + "\n")
    }

    /// Writes bytes to stdout; a stdout that refuses them ends the CLI with exit 74 (`StandardStreams`).
    static func writeStdout(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { StandardStreams.writeStdout($0) }
    }

    /// `convert` (a file or `--url`): findings and redactions on stderr, the JSON streamed to stdout
    /// in chunks as it is rendered (never built whole), then the exit status of the verdict (a
    /// rejection prints its reason and exits 1). Stdout cannot be taken back: a render failure after the first chunk
    /// (an output limit, the deadline) leaves an unfinished document — never its closing bytes —
    /// and, besides the usual `malformed:` line and exit 2, a line saying the output is incomplete.
    static func streamConversion(_ conversion: ArchiveConversion, mode: OutputMode, pretty: Bool, filter: PlainJSONFilter,
                                 source: String) throws {
        reportFindings(conversion.report, file: source)
        guard conversion.rendersJSON else {
            error("\(source): \(rejection(conversion.report))")
            throw CLIExit.rejected
        }
        for violation in conversion.report.violations {
            error("\(source): redacted \(violation.path.isEmpty ? "/" : violation.path): \(violation.code): \(violation.message)")
        }
        let sink = DescriptorSink(descriptor: 1)
        var finished = false
        do {
            finished = try conversion.stream(mode: mode, pretty: pretty, filter: filter, to: sink)
            if finished, !pretty { finished = [UInt8(0x0A)].withUnsafeBufferPointer { sink.write($0) } }
        } catch {
            if sink.bytesWritten > 0 {
                Terminal.error("\(source): output incomplete: \(sink.bytesWritten) bytes of JSON were written to stdout before rendering failed; discard them")
            }
            throw error
        }
        if !finished {
            Terminal.error("\(source): output incomplete: writing to stdout failed after \(sink.bytesWritten) bytes: \(sink.failureDescription)")
            throw CLIExit.outputFailed
        }
        // Rendered, but not necessarily valid (inspection findings, an undecoded nested archive).
        if let line = verdictLine(conversion.report) { error("\(source): \(line)") }
        try CLIExit.exit(for: conversion.report.verdict)
    }

    /// The one-line reason for a rejection: the first violation and how many more.
    static func rejection(_ report: ValidationReport) -> String {
        guard let first = report.violations.first else {
            if let finding = report.unacknowledgedFindings.first { return "rejected: \(Terminal.finding(finding))" }
            return "rejected by policy '\(report.policy)'"
        }
        let more = report.violations.count > 1 ? " (+\(report.violations.count - 1) more)" : ""
        return "rejected: \(first.code) at \(shorten(first.path.isEmpty ? "/" : first.path)): \(first.message)\(more)"
    }

    /// One danger finding on one line: code, class, path and reason.
    static func finding(_ finding: ValidationReport.Finding) -> String {
        "\(finding.code) (\(finding.className)) at \(shorten(finding.path.isEmpty ? "/" : finding.path)): \(finding.reason)"
            + (finding.acknowledged ? " [acknowledged]" : "")
    }

    /// Every finding of `report` on stderr, one line each, prefixed with the file.
    static func reportFindings(_ report: ValidationReport, file: String) {
        for finding in report.findings { error("\(file): finding \(Terminal.finding(finding))") }
    }

    static func malformed(_ error: ArchiveGateError) -> String {
        "malformed: \(error.code) \(shorten(error.location)): \(error.message)"
    }

    /// Keeps one-line messages one readable line: a 512-level pointer is cut in the middle.
    static func shorten(_ text: String, limit: Int = 160) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit / 2)) + "…" + String(text.suffix(limit / 2))
    }
}

/// Reads a file (or stdin for "-") without reading more than `limit + 1` bytes.
enum InputReader {
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw CLIFailure.usage("cannot open '\(path)'")
            }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var bytes = [UInt8]()
        while bytes.count <= limit {
            let chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count)) ?? Data()
            if chunk.isEmpty { break }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }
}
