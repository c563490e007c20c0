import ArchiveGateCore
import ArgumentParser

extension CLIExit {
    /// A limit or the deadline stopped the check, or an undecoded nested archive.
    static let inconclusive = ExitCode(3)

    /// Nothing scanned: a batch, a multi-file run or `scan-db` found no archive at all. A gate that
    /// checked nothing must not pass, nor look like an archive it could not finish.
    static let nothingScanned = ExitCode(4)

    /// The one place a verdict becomes an exit status (docs/CLI.md, the verdict table); every command, batch
    /// and scan exits through it. A redaction exits 0: the output is what the policy admits.
    static func status(for verdict: Verdict) -> ExitCode {
        switch verdict {
        case .accepted, .redacted, .plist: .success
        case .acceptedWithFindings, .rejected: rejected
        case .malformed: malformed
        case .inconclusive(.noArchiveFound): nothingScanned
        case .inconclusive: inconclusive
        }
    }

    /// Throws the verdict's exit status unless it is 0.
    static func exit(for verdict: Verdict) throws {
        let status = status(for: verdict)
        if status != .success { throw status }
    }
}

extension Terminal {
    /// The stderr line of an input that is not valid (nil for accepted, redacted and plain
    /// property lists, whose other lines say what happened).
    static func verdictLine(_ report: ValidationReport) -> String? {
        switch report.verdict {
        case .accepted, .redacted, .plist: nil
        case .rejected: rejection(report)
        case .acceptedWithFindings(let count): "accepted with \(count) unacknowledged finding\(count == 1 ? "" : "s"), not valid"
        case .inconclusive(.unaccountedBytes(let offset)):
            "inconclusive: plist.unaccounted_bytes at byte \(offset): the input holds bytes the property list does not account for"
        case .inconclusive(.nestedArchiveNotDecoded):
            "inconclusive: danger.nested_archive: a nested archive was not decoded (--nested checks it)"
        case .inconclusive(let why): "inconclusive: \(why)"
        case .malformed: nil
        }
    }

    /// The one-line reason of a decode failure, by its verdict: `malformed: …`, `inconclusive: …`
    /// (a limit) or, for a plain property list, that it is not a keyed archive.
    static func failure(_ error: ArchiveGateError) -> String {
        switch Verdict(error) {
        case .plist: "not a keyed archive: a plain property list (verdict plist)"
        case .inconclusive: "inconclusive: \(error.code) \(shorten(error.location)): \(error.message)"
        default: malformed(error)
        }
    }
}

extension BatchRecord {
    /// `validate`'s and `fetch`'s record of an input that could not be evaluated: its origin,
    /// verdict (malformed, inconclusive, plist) and error, on one line of stdout.
    static func writeFailure(_ error: ArchiveGateError, origin: KeyValuePairs<String, OriginValue>) {
        var record = BatchRecord(origin: origin, verdict: Verdict(error), status: nil)
        record.append(error: error)
        Terminal.writeStdout(record.line)
    }
}
