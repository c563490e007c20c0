import CSQLite3
import Foundation

/// A SQLite database opened only for reading, through a URI filename (`mode=ro`, or `immutable=1`
/// for a private copy), so that scanning never writes to it: no journal, no WAL checkpoint, no
/// `-shm` created beside the evidence.
final class ReadOnlyDatabase {
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "SQLite error \(code): \(message)" }
        var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    }

    private var handle: OpaquePointer?

    /// Opens `path` read-only; `immutable` also tells SQLite nothing else can change the file (no
    /// locking at all), which is only true for a copy this process made.
    init(path: String, immutable: Bool) throws {
        let uri = "file:" + Self.uriEscaped(path) + (immutable ? "?immutable=1" : "?mode=ro")
        let status = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            handle = nil
            throw Failure(code: status, message: message)
        }
        // Refuse every write even if a statement tried one (belt and braces beside SQLITE_OPEN_READONLY).
        sqlite3_exec(handle, "PRAGMA query_only = ON", nil, nil, nil)
        sqlite3_busy_timeout(handle, 2_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` and calls `row` for each result row until it returns false.
    func query(_ sql: String, _ row: (Row) throws -> Bool) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw lastFailure() }
        defer { sqlite3_finalize(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw lastFailure(status) }
            guard try row(Row(statement: statement)) else { return }
        }
    }

    /// One result row; valid only inside the `query` callback.
    struct Row {
        fileprivate let statement: OpaquePointer?

        var count: Int { Int(sqlite3_column_count(statement)) }

        func isBlob(_ column: Int) -> Bool { sqlite3_column_type(statement, Int32(column)) == SQLITE_BLOB }

        func integer(_ column: Int) -> Int64? {
            sqlite3_column_type(statement, Int32(column)) == SQLITE_INTEGER ? sqlite3_column_int64(statement, Int32(column)) : nil
        }

        func text(_ column: Int) -> String? {
            sqlite3_column_text(statement, Int32(column)).map { String(cString: $0) }
        }

        /// At most `limit` bytes of a BLOB column (more than that is enough to report the size limit).
        func blob(_ column: Int, limit: Int) -> [UInt8] {
            let count = min(Int(sqlite3_column_bytes(statement, Int32(column))), limit)
            guard count > 0, let base = sqlite3_column_blob(statement, Int32(column)) else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }

        /// The BLOB's full size, for progress.
        func size(_ column: Int) -> Int { Int(sqlite3_column_bytes(statement, Int32(column))) }
    }

    /// A name as a quoted SQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private func lastFailure(_ status: Int32? = nil) -> Failure {
        Failure(code: status ?? sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Percent-escapes the characters a URI filename gives meaning to.
    private static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...: escaped += String(format: "%%%02X", byte)
            default: escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return escaped
    }
}
