import ArchiveGateCore
import ArchiveGateSQLiteRead
import Dispatch
import Foundation

/// Walks the BLOB cells of a database's tables (optionally only some tables and columns), decodes
/// each one that is an archive candidate and writes one JSON Lines record per hit on stdout.
struct DatabaseScanner {
    /// A table to scan: its name, the columns to look at and whether it has a rowid.
    struct Table {
        var name: String
        var columns: [String]
        var hasRowID: Bool
        var rows: Int

        /// The rowid (NULL without one) and the scanned columns of every row.
        var select: String {
            "SELECT " + (hasRowID ? "rowid, " : "NULL, ") + columns.map(ReadOnlyDatabase.quoted).joined(separator: ", ")
                + " FROM " + ReadOnlyDatabase.quoted(name)
        }
    }

    let snapshot: DatabaseSnapshot
    let tables: [Table]

    /// Lists the tables and columns to scan; a `--table` or `--column` that matches nothing throws.
    init(snapshot: DatabaseSnapshot, tables wantedTables: [String], columns wantedColumns: [String]) throws {
        self.snapshot = snapshot
        let database = snapshot.database
        var names: [String] = []
        // Only SQLite's own tables are skipped, by exact name: `NOT LIKE 'sqlite_%'` also skipped
        // `SQLiteStore` and `sqlite1` (LIKE ignores case and `_` matches any character).
        let skipped = Self.internalTables.map { "'\($0)'" }.joined(separator: ", ")
        try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN (\(skipped)) ORDER BY name") { row in
            if let name = row.text(0) { names.append(name) }
            return true
        }
        if let missing = wantedTables.first(where: { !names.contains($0) }) {
            throw ScanFailure(message: "no table '\(missing)' (tables: \(names.joined(separator: ", ")))")
        }
        var tables: [Table] = []
        for name in names where wantedTables.isEmpty || wantedTables.contains(name) {
            var columns: [String] = []
            // table_xinfo, not table_info: generated columns (hidden 2 virtual, 3 stored) are listed
            // too; hidden 1 (a virtual table's hidden columns) is not data of the table's rows.
            try database.query("PRAGMA table_xinfo(\(ReadOnlyDatabase.quoted(name)))") { row in
                if let column = row.text(1), row.integer(6) != 1, wantedColumns.isEmpty || wantedColumns.contains(column) {
                    columns.append(column)
                }
                return true
            }
            guard !columns.isEmpty else { continue }
            // WITHOUT ROWID tables (and some virtual tables) have no rowid to report.
            let hasRowID = (try? database.query("SELECT rowid FROM \(ReadOnlyDatabase.quoted(name)) LIMIT 0") { _ in false }) != nil
            var rows = 0
            try? database.query("SELECT count(*) FROM \(ReadOnlyDatabase.quoted(name))") { row in
                rows = Int(row.integer(0) ?? 0)
                return false
            }
            tables.append(Table(name: name, columns: columns, hasRowID: hasRowID, rows: rows))
        }
        if let missing = wantedColumns.first(where: { column in !tables.contains { $0.columns.contains(column) } }) {
            throw ScanFailure(message: "no column '\(missing)' in the tables scanned")
        }
        self.tables = tables
    }

    /// The tables SQLite itself keeps (exact names; `sqlite_schema` is not listed as a table).
    static let internalTables = ["sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"]

    struct ScanFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// One candidate BLOB read from the database, waiting to be decoded.
    private struct Hit {
        var bytes: [UInt8]
        var table: String
        var column: String
        var rowid: Int64?

        var origin: KeyValuePairs<String, BatchRecord.OriginValue> {
            ["table": .text(table), "column": .text(column), "rowid": rowid.map { .integer($0) } ?? .null]
        }

        var label: String { DatabaseScanner.label(table: table, column: column, rowid: rowid) }
    }

    /// How a cell is named in stderr lines and SARIF: `messages.body rowid 7` (`rowid -` in a
    /// WITHOUT ROWID table).
    static func label(table: String, column: String, rowid: Int64?) -> String {
        "\(table).\(column) rowid \(rowid.map(String.init) ?? "-")"
    }

    /// What decoding one BLOB gave: its outcome, its record, a stderr line, and the report or error
    /// behind them (nil for a plain property list) for `--format sarif`.
    fileprivate typealias Inspected = (outcome: BatchOutcome, record: [UInt8], message: String?,
                                   evaluated: Result<ValidationReport, ArchiveGateError>?)

    /// Scans every table; prints records, progress and the summary; returns the summary. SQLite is
    /// read on this thread; the BLOBs it finds are decoded `jobs` at a time in chunks (at most
    /// `chunkHits` BLOBs or `chunkBytes` bytes held at once), and each chunk's records are written
    /// in database order, so the output does not depend on `jobs`. With `sarif`, each BLOB's
    /// report or error goes into the log (in the same order) instead of a record.
    func scan(inspector: ArchiveInspector, mode: OutputMode, filter: PlainJSONFilter = PlainJSONFilter(), jobs: Int = 1,
              sarif: (log: SarifLog, database: String)? = nil) throws -> BatchSummary {
        let progress = ProgressLine(totalFiles: tables.reduce(0) { $0 + $1.rows }, totalBytes: 0, unit: "rows")
        var summary = BatchSummary()
        var rowsScanned = 0
        let limit = inspector.policy.limits.maxInputBytes + 1
        let chunkHits = max(1, jobs) * 16
        let chunkBytes = 64 << 20
        var pending: [Hit] = []
        var pendingBytes = 0
        func drain() {
            let results = Self.inspect(pending, inspector: inspector, mode: mode, filter: filter, jobs: jobs)
            for (hit, result) in zip(pending, results) {
                if let sarif {
                    let origin = SarifLog.Origin.cell(database: sarif.database, table: hit.table, column: hit.column, rowid: hit.rowid)
                    switch result.evaluated {
                    case .success(let report): sarif.log.add(report, from: origin)
                    case .failure(let error): sarif.log.add(error, from: origin)
                    case nil: break
                    }
                } else {
                    Terminal.writeStdout(result.record)
                }
                if let message = result.message { progress.message("\(hit.label): \(message)") }
                summary.add(result.outcome, bytes: hit.bytes.count)
            }
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
            progress.update(files: rowsScanned, bytes: summary.bytes)
        }
        for table in tables {
            do {
                try snapshot.database.query(table.select) { row in
                    rowsScanned += 1
                    for (index, column) in table.columns.enumerated() where row.isBlob(index + 1) {
                        let bytes = row.blob(index + 1, limit: limit)
                        guard ArchiveBlob.isCandidate(bytes) else {
                            summary.add(.skipped, bytes: row.size(index + 1))
                            continue
                        }
                        pending.append(Hit(bytes: bytes, table: table.name, column: column, rowid: row.integer(0)))
                        pendingBytes += bytes.count
                        if pending.count >= chunkHits || pendingBytes >= chunkBytes { drain() }
                    }
                    if pending.isEmpty { progress.update(files: rowsScanned, bytes: summary.bytes) }
                    return true
                }
            } catch {
                let line = "table '\(table.name)' could not be read: \(error)"
                progress.message(line)
                sarif?.log.notifyUnreadable(line)
                summary.add(.unreadable, bytes: 0)
            }
            drain()
        }
        progress.finish()
        progress.message("scanned \(rowsScanned) rows in \(tables.count) tables")
        for line in summary.lines(acceptedWord: "converted", seconds: progress.elapsed, unit: "BLOBs") {
            progress.message(line)
        }
        if let reason = summary.noteNoArchive(unit: "BLOBs") {
            progress.message("summary: " + reason)
            sarif?.log.notifyNothingScanned(reason)
        }
        return summary
    }

    /// Decodes a chunk of BLOBs on up to `jobs` threads; results in the chunk's order.
    private static func inspect(_ hits: [Hit], inspector: ArchiveInspector, mode: OutputMode, filter: PlainJSONFilter,
                                jobs: Int) -> [Inspected] {
        let results = ResultSlots(count: hits.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, hits.count))) { worker in
            var position = worker
            while position < hits.count {
                let hit = hits[position]
                results.set(position, inspect(hit.bytes, inspector: inspector, mode: mode, filter: filter, origin: hit.origin))
                position += max(1, min(jobs, hits.count))
            }
        }
        return results.values
    }

    /// Decodes one candidate BLOB: the record (report and JSON, or error) and a stderr line if it failed.
    private static func inspect(_ bytes: [UInt8], inspector: ArchiveInspector, mode: OutputMode, filter: PlainJSONFilter,
                                origin: KeyValuePairs<String, BatchRecord.OriginValue>) -> Inspected {
        do throws(ArchiveGateError) {
            let inspection: Inspection
            do throws(ArchiveGateError) {
                inspection = try inspector.convert(bytes, mode: mode)
            } catch {
                guard Verdict(error) == .plist else { throw error }
                var record = BatchRecord(origin: origin, verdict: .plist, status: "plist")
                record.append(json: try inspector.convertPropertyList(ByteStorage(bytes)))
                return (.verdict(.plist, code: nil), record.line, nil, nil)
            }
            let report = inspection.report
            if let json = inspection.json {
                var record = BatchRecord(origin: origin, verdict: report.verdict, status: "converted")
                record.append(report: report)
                record.append(json: filter.isIdentity ? json : filter.apply(json, pretty: false))
                return (BatchOutcome.of(report), record.line, Terminal.verdictLine(report), .success(report))
            }
            var record = BatchRecord(origin: origin, verdict: report.verdict, status: report.verdict.name)
            record.append(report: report)
            return (BatchOutcome.of(report), record.line, Terminal.verdictLine(report), .success(report))
        } catch {
            let verdict = Verdict(error)
            var record = BatchRecord(origin: origin, verdict: verdict, status: verdict.name)
            record.append(error: error)
            let outcome = BatchOutcome.failure(error)
            if case .skipped = outcome { return (outcome, record.line, Terminal.failure(error), nil) }
            return (outcome, record.line, Terminal.failure(error), .failure(error))
        }
    }
}

/// One result per chunk position, filled by the decoding threads (each position by one thread).
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [DatabaseScanner.Inspected?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ position: Int, _ result: DatabaseScanner.Inspected) {
        lock.withLock { slots[position] = result }
    }

    var values: [DatabaseScanner.Inspected] {
        lock.withLock { slots.map { $0! } }
    }
}
