import ArchiveGateCore
import ArchiveGateSQLiteRead
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
    }

    let snapshot: DatabaseSnapshot
    let tables: [Table]

    /// Lists the tables and columns to scan; a `--table` or `--column` that matches nothing throws.
    init(snapshot: DatabaseSnapshot, tables wantedTables: [String], columns wantedColumns: [String]) throws {
        self.snapshot = snapshot
        let database = snapshot.database
        var names: [String] = []
        try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { row in
            if let name = row.text(0) { names.append(name) }
            return true
        }
        if let missing = wantedTables.first(where: { !names.contains($0) }) {
            throw ScanFailure(message: "no table '\(missing)' (tables: \(names.joined(separator: ", ")))")
        }
        var tables: [Table] = []
        for name in names where wantedTables.isEmpty || wantedTables.contains(name) {
            var columns: [String] = []
            try database.query("PRAGMA table_info(\(ReadOnlyDatabase.quoted(name)))") { row in
                if let column = row.text(1), wantedColumns.isEmpty || wantedColumns.contains(column) { columns.append(column) }
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

    struct ScanFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Scans every table; prints records, progress and the summary; returns the summary.
    func scan(inspector: ArchiveInspector, mode: OutputMode) throws -> BatchSummary {
        let progress = ProgressLine(totalFiles: tables.reduce(0) { $0 + $1.rows }, totalBytes: 0, unit: "rows")
        var summary = BatchSummary()
        var rowsScanned = 0
        let limit = inspector.policy.limits.maxInputBytes + 1
        for table in tables {
            let select = "SELECT " + (table.hasRowID ? "rowid, " : "NULL, ") + table.columns.map(ReadOnlyDatabase.quoted).joined(separator: ", ")
                + " FROM " + ReadOnlyDatabase.quoted(table.name)
            do {
                try snapshot.database.query(select) { row in
                    rowsScanned += 1
                    for (index, column) in table.columns.enumerated() where row.isBlob(index + 1) {
                        let bytes = row.blob(index + 1, limit: limit)
                        guard ArchiveBlob.isCandidate(bytes) else {
                            summary.add(.skipped, bytes: row.size(index + 1))
                            continue
                        }
                        let origin: KeyValuePairs<String, BatchRecord.OriginValue> = [
                            "table": .text(table.name), "column": .text(column),
                            "rowid": row.integer(0).map { .integer($0) } ?? .null,
                        ]
                        let (outcome, record, message) = Self.inspect(bytes, inspector: inspector, mode: mode, origin: origin)
                        Terminal.writeStdout(record)
                        if let message { progress.message("\(table.name).\(column) rowid \(row.integer(0).map(String.init) ?? "-"): \(message)") }
                        summary.add(outcome, bytes: bytes.count)
                    }
                    progress.update(files: rowsScanned, bytes: summary.bytes)
                    return true
                }
            } catch {
                progress.message("table '\(table.name)' could not be read: \(error)")
                summary.add(.unreadable, bytes: 0)
            }
        }
        progress.finish()
        progress.message("scanned \(rowsScanned) rows in \(tables.count) tables")
        for line in summary.lines(acceptedWord: "converted", seconds: progress.elapsed, unit: "BLOBs") {
            progress.message(line)
        }
        return summary
    }

    /// Decodes one candidate BLOB: the record (report and JSON, or error) and a stderr line if it failed.
    private static func inspect(_ bytes: [UInt8], inspector: ArchiveInspector, mode: OutputMode,
                                origin: KeyValuePairs<String, BatchRecord.OriginValue>) -> (BatchOutcome, [UInt8], String?) {
        do throws(ArchiveGateError) {
            let inspection = try inspector.convert(bytes, mode: mode)
            if let json = inspection.json {
                var record = BatchRecord(origin: origin, status: "converted")
                record.append(report: inspection.report)
                record.append(json: json)
                return (.converted, record.line, nil)
            }
            var record = BatchRecord(origin: origin, status: "rejected")
            record.append(report: inspection.report)
            return (.rejected(code: BatchOutcome.rejectionCode(inspection.report)), record.line, Terminal.rejection(inspection.report))
        } catch {
            var record = BatchRecord(origin: origin, status: "malformed")
            record.append(error: error)
            return (.malformed(code: error.code.rawValue), record.line, Terminal.malformed(error))
        }
    }
}
