// The system SQLite stays an implementation detail of this module: `archivegate` also links
// sqlite-nio (through the store), whose vendored SQLite declares the same C structs in another
// clang module, and a Swift module that loads both fails to build ("'sqlite3_module' has different
// definitions in different modules"). Clients of this module never load CSQLite3. (The compiler's
// library-evolution warning does not apply: no CSQLite3 type is part of any layout here; the
// handles are stdlib `OpaquePointer`s.)
@_implementationOnly import CSQLite3
import Foundation

/// A SQLite database opened only for reading, through a URI filename (`mode=ro`, or `immutable=1`
/// for a private copy), so that scanning never writes to it: no journal, no WAL checkpoint, no
/// `-shm` created beside the evidence.
public final class ReadOnlyDatabase {
    public struct Failure: Error, CustomStringConvertible {
        public var code: Int32
        public var message: String
        public var description: String { "SQLite error \(code): \(message)" }
        /// The database is locked by another connection (busy or locked).
        public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    }

    private var handle: OpaquePointer?

    /// Opens `path` read-only; `immutable` also tells SQLite nothing else can change the file (no
    /// locking at all), which is only true for a copy this process made.
    public init(path: String, immutable: Bool) throws {
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
    public func query(_ sql: String, _ row: (Row) throws -> Bool) throws {
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
    public struct Row {
        fileprivate let statement: OpaquePointer?

        /// The number of columns.
        public var count: Int { Int(sqlite3_column_count(statement)) }

        /// Whether the column holds a BLOB.
        public func isBlob(_ column: Int) -> Bool { sqlite3_column_type(statement, Int32(column)) == SQLITE_BLOB }

        /// The column as an integer, nil unless it holds one.
        public func integer(_ column: Int) -> Int64? {
            sqlite3_column_type(statement, Int32(column)) == SQLITE_INTEGER ? sqlite3_column_int64(statement, Int32(column)) : nil
        }

        /// The column as text (SQLite converts other types).
        public func text(_ column: Int) -> String? {
            sqlite3_column_text(statement, Int32(column)).map { String(cString: $0) }
        }

        /// At most `limit` bytes of a BLOB column (more than that is enough to report the size limit).
        public func blob(_ column: Int, limit: Int) -> [UInt8] {
            let count = min(Int(sqlite3_column_bytes(statement, Int32(column))), limit)
            guard count > 0, let base = sqlite3_column_blob(statement, Int32(column)) else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }

        /// The BLOB's full size, for progress.
        public func size(_ column: Int) -> Int { Int(sqlite3_column_bytes(statement, Int32(column))) }
    }

    /// A name as a quoted SQL identifier.
    public static func quoted(_ name: String) -> String {
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
