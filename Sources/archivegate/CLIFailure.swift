import ArgumentParser
import ArchiveGateCore
import Foundation

/// Exit codes are values: 0 valid, 1 rejected by policy, 2 malformed input or limit, 64 usage.
enum CLIExit {
    static let rejected = ExitCode(1)
    static let malformed = ExitCode(2)
    static let usage = ExitCode(64)
}

/// A failure the CLI reports in one line on stderr before exiting with its code.
enum CLIFailure: Error {
    case usage(String)
}

enum Terminal {
    /// One line on stderr, prefixed with the program name.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data(("archivegate: " + line + "\n").utf8))
    }

    /// Writes bytes to stdout in chunks, so large JSON streams instead of piling up in a pipe buffer.
    static func writeStdout(_ bytes: [UInt8]) {
        let chunk = 1 << 20
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            FileHandle.standardOutput.write(Data(bytes[start ..< end]))
            start = end
        }
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
