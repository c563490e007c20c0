import ArchiveGateCore
import Foundation

/// `--format sarif`: the results of `validate` (files, folder batches) and `scan-db`, collected from
/// any worker thread and written once, as one SARIF 2.1.0 log, when every input is done
/// (`SarifLog+Document`). One result per violation, danger finding or decode error; accepted
/// archives and plain property lists have none unless a finding the policy acknowledges (reported
/// as a suppressed note).
final class SarifLog: @unchecked Sendable {
    /// Where a result was found: a file, or one BLOB cell of a database.
    enum Origin: Sendable {
        case file(String)
        case cell(database: String, table: String, column: String, rowid: Int64?)

        /// The artifact: the file, or the database file.
        var path: String {
            switch self {
            case .file(let path), .cell(let path, _, _, _): path
            }
        }
    }

    /// SARIF's `level`.
    enum Level: String, Sendable {
        case error, warning, note
    }

    struct Result: Sendable {
        var rule: SarifRule
        var level: Level
        var message: String
        var origin: Origin
        /// JSON pointer into the plain JSON rendering: violations, findings, archive errors.
        var pointer: String?
        /// Where a property-list error is: a byte offset (binary) or a line (XML).
        var byteOffset: Int?
        var line: Int?
        /// A finding the policy acknowledges: reported, suppressed.
        var acknowledged = false
    }

    /// A run-level notice (`invocations[0].toolExecutionNotifications`): nothing scanned, an input
    /// that could not be read.
    struct Notification: Sendable {
        var id: String
        var level: Level
        var message: String
    }

    private let lock = NSLock()
    private var results: [Result] = []
    private var notifications: [Notification] = []

    /// The level every result of an archive takes from its verdict: what fails the gate is an
    /// error; what passes it with something to look at (cut out, shown for inspection) a warning.
    static func level(for verdict: Verdict) -> Level {
        switch verdict {
        case .rejected, .malformed, .inconclusive: .error
        case .acceptedWithFindings, .redacted: .warning
        case .accepted, .plist: .note
        }
    }

    /// An evaluated archive's violations and findings; a verdict that is not valid and that none of
    /// them explains gets one result of its own, so no failing archive goes unlisted.
    func add(_ report: ValidationReport, from origin: Origin) {
        let level = Self.level(for: report.verdict)
        var found = report.violations.map {
            Result(rule: SarifRule(violation: $0.code), level: level, message: $0.message, origin: origin, pointer: $0.path)
        }
        for finding in report.findings {
            found.append(Result(rule: SarifRule(finding: finding.code), level: finding.acknowledged ? .note : level,
                                message: "\(finding.className) at \(finding.path.isEmpty ? "/" : finding.path): \(finding.reason)",
                                origin: origin, pointer: finding.path, acknowledged: finding.acknowledged))
        }
        if !report.verdict.isValid, report.verdict != .plist, found.allSatisfy(\.acknowledged) {
            found.append(Result(rule: SarifRule(verdict: report.verdict), level: level,
                                message: Terminal.verdictLine(report) ?? report.verdict.description, origin: origin))
        }
        append(found)
    }

    /// An input that could not be evaluated: its error, at its byte offset, line or JSON pointer.
    /// A plain property list is no problem and has no result.
    func add(_ error: ArchiveGateError, from origin: Origin) {
        let verdict = Verdict(error)
        guard verdict != .plist else { return }
        var result = Result(rule: SarifRule(error: error.code), level: Self.level(for: verdict), message: error.message, origin: origin)
        switch error {
        case .propertyList(let failure):
            result.byteOffset = failure.offset
            result.line = failure.line
        case .archive(let failure):
            result.pointer = failure.path
        case .typedStream(let failure):
            result.byteOffset = failure.offset
        }
        append([result])
    }

    func notify(_ notification: Notification) {
        lock.withLock { notifications.append(notification) }
    }

    /// The run's notice that it checked nothing (the exit status says so too: 4).
    func notifyNothingScanned(_ message: String) {
        notify(Notification(id: Verdict.Inconclusive.noArchiveFound.description, level: .error, message: message))
    }

    /// An input that could not be opened or read (the run exits 64).
    func notifyUnreadable(_ message: String) {
        notify(Notification(id: "input.unreadable", level: .error, message: message))
    }

    private func append(_ found: [Result]) {
        guard !found.isEmpty else { return }
        lock.withLock { results += found }
    }

    /// The results so far, by artifact path (workers finish in any order), each input's in the order found.
    var orderedResults: [Result] {
        lock.withLock { results }.enumerated()
            .sorted { ($0.element.origin.path, $0.offset) < ($1.element.origin.path, $1.offset) }
            .map(\.element)
    }

    var allNotifications: [Notification] { lock.withLock { notifications } }
}
