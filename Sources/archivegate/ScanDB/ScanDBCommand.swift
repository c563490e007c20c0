import ArchiveGateCore
import ArgumentParser
import Foundation

/// `archivegate scan-db FILE.sqlite`: every BLOB that is a property list or archive, decoded under
/// the policy, one JSON Lines record per hit. The database is never written (see `DatabaseSnapshot`).
struct ScanDBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan-db",
        abstract: "Find and decode every archive BLOB in a SQLite database (read-only), one JSON line per hit.",
        discussion: """
        Example: archivegate scan-db --allow-any-class --jobs 4 --class-names drop sms.db
        Each record: {"table","column","rowid","status","report","json"} (converted), or "error" (malformed).
        BLOBs that are not property lists are counted as skipped; a summary ends on stderr; exit is the worst code
        (4 when no BLOB was an archive or property list). --format sarif: one SARIF 2.1.0 log instead of the records.
        A locked or WAL-mode database is scanned through a private copy; the original is never written.
        """
    )

    @OptionGroup var decode: DecodeOptions

    @Option(name: .long, help: "plain (natural JSON) or typed (lossless archive graph).")
    var mode: OutputMode = .plain

    @OptionGroup var switches: OutputSwitches

    @Option(name: .long, help: ReportFormat.help)
    var format: ReportFormat = .jsonl

    @Option(name: .long, help: ArgumentHelp("BLOBs decoded in parallel (default: the number of cores); the output order stays the database's.", valueName: "n"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Only this table (repeatable).", valueName: "name"))
    var table: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only this column (repeatable).", valueName: "name"))
    var column: [String] = []

    @Argument(help: ArgumentHelp("The SQLite database.", valueName: "file"))
    var file: String

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a positive number; got \(jobs)") }
        try switches.check(mode: mode)
    }

    func run() throws {
        let policy = try decode.policyOrExit()
        guard FileManager.default.isReadableFile(atPath: file), !BatchInputs.isDirectory(file) else {
            Terminal.error("cannot open '\(file)'")
            throw CLIExit.usage
        }
        let scanner: DatabaseScanner
        do {
            let snapshot = try DatabaseSnapshot(path: file)
            if let reason = snapshot.copyReason { Terminal.error("\(file): reading a private copy: \(reason)") }
            scanner = try DatabaseScanner(snapshot: snapshot, tables: table, columns: column)
        } catch let refusal as DatabaseCopy.Refusal {
            Terminal.error(refusal.description)  // a FIFO, a device, a file that kept changing
            throw CLIExit.malformed
        } catch {
            Terminal.error("\(file): not a readable SQLite database: \(error)")
            throw CLIExit.malformed
        }
        let sarif = format == .sarif ? SarifLog() : nil
        let summary: BatchSummary
        do {
            summary = try scanner.scan(inspector: decode.inspector(policy), mode: mode, filter: switches.filter,
                                       jobs: jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount),
                                       sarif: sarif.map { ($0, file) })
        } catch {
            Terminal.error("\(file): scan stopped: \(error)")
            throw CLIExit.malformed
        }
        if let sarif { Terminal.writeStdout(sarif.document(exitCode: summary.worstExitCode)) }
        if summary.worstExitCode != 0 { throw ExitCode(summary.worstExitCode) }
    }
}
