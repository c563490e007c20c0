import ArchiveGateCore
import Foundation
import SQLiteNIO

/// The column lists the queries select, in one place so decoding and selecting agree.
enum Columns {
    /// Columns only: never the documents (`has_json` is a column since schema version 3,
    /// `has_archive` since version 4). No list reads `sanitized_archive`: only
    /// `sanitizedArchive(tenant:id:)` selects it. `name` since version 5.
    static let summary = "id, tenant, created_at, expires_at, sha256, size, source, mode, etag, has_json, has_archive, name"
    static let report = summary + ", report"
    static let full = report + ", converted_json"
}

extension SQLiteResultStore {
    /// The idempotency key's condition, binding ?1 … ?5 (tenant, sha256, mode, policy digest, sanitized).
    static let idempotencyKey = "tenant = ?1 AND sha256 = ?2 AND mode = ?3 AND policy_digest = ?4 AND sanitized = ?5"

    static let insertStatement = """
        INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, report, converted_json, policy_digest, has_json, stored_bytes,
                             sanitized, has_archive, sanitized_archive, name)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
        """

    static func insertBinds(_ new: NewResult, _ result: StoredResult) -> [SQLiteData] {
        [
            .text(result.id), .text(result.tenant),
            .integer(Int(Timestamp.milliseconds(result.createdAt))), .integer(Int(Timestamp.milliseconds(result.expiresAt))),
            .text(result.sha256), .integer(result.size), .text(result.source.description), .text(result.mode.rawValue),
            .text(result.etag), .blob(ByteBuffer(bytes: result.report)),
            result.convertedJSON.map { .blob(ByteBuffer(bytes: $0)) } ?? .null,
            .text(new.policyDigest),
            .integer(result.convertedJSON == nil ? 0 : 1), .integer(Int(new.storedBytes)),
            .integer(new.requestsSanitizedArchive ? 1 : 0), .integer(new.sanitizedArchive == nil ? 0 : 1),
            new.sanitizedArchive.map { .blob(ByteBuffer(bytes: $0)) } ?? .null,
            new.name.map { .text($0) } ?? .null,
        ]
    }

    static func decodeResult(_ row: SQLiteRow) throws -> StoredResult {
        guard let report = row.column("report")?.blob else { throw unexpected("report") }
        let json: [UInt8]?
        switch row.column("converted_json") {
        case .blob(let buffer): json = Array(buffer.readableBytesView)
        case .null: json = nil
        default: throw unexpected("converted_json")
        }
        let summary = try decodeSummary(row, hasJSON: json != nil)
        return StoredResult(summary: summary, report: Array(report.readableBytesView), convertedJSON: json)
    }

    static func decodeReport(_ row: SQLiteRow) throws -> StoredReport {
        guard let report = row.column("report")?.blob else { throw unexpected("report") }
        return StoredReport(summary: try decodeSummary(row), report: Array(report.readableBytesView))
    }

    static func decodeSummary(_ row: SQLiteRow) throws -> ResultSummary {
        guard let hasJSON = row.column("has_json")?.bool else { throw unexpected("has_json") }
        return try decodeSummary(row, hasJSON: hasJSON)
    }

    private static func decodeSummary(_ row: SQLiteRow, hasJSON: Bool) throws -> ResultSummary {
        func text(_ name: String) throws -> String {
            guard case .text(let value) = row.column(name) else { throw unexpected(name) }
            return value
        }
        func integer(_ name: String) throws -> Int64 {
            guard case .integer(let value) = row.column(name) else { throw unexpected(name) }
            return Int64(value)
        }
        guard let mode = OutputMode(rawValue: try text("mode")) else { throw unexpected("mode") }
        guard let hasArchive = row.column("has_archive")?.bool else { throw unexpected("has_archive") }
        let name: String?
        switch row.column("name") {
        case .text(let value): name = value
        case .null: name = nil
        default: throw unexpected("name")
        }
        return ResultSummary(
            id: try text("id"), tenant: try text("tenant"),
            createdAt: Timestamp.date(try integer("created_at")), expiresAt: Timestamp.date(try integer("expires_at")),
            sha256: try text("sha256"), size: Int(try integer("size")), source: ResultSource(storedText: try text("source")),
            mode: mode, hasConvertedJSON: hasJSON, etag: try text("etag"), hasSanitizedArchive: hasArchive, name: name
        )
    }

    private static func unexpected(_ column: String) -> ResultStoreError {
        ResultStoreError(.storageFailure, "unexpected stored value in column \(column)")
    }

    /// Runs `body`, turning SQLite's errors into ``ResultStoreError``s.
    static func mappingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ResultStoreError {
            throw error
        } catch let error as SQLiteError {
            switch error.reason {
            case .busy, .locked: throw ResultStoreError(.busy, "the database is locked: \(error.message)")
            default: throw ResultStoreError(.storageFailure, "\(error)")
            }
        } catch {
            throw ResultStoreError(.storageFailure, "\(error)")
        }
    }

    /// Makes the path absolute (so SQLite never reads it as a `file:` URI) and creates its directory.
    static func prepareDatabasePath(_ path: String) throws -> String {
        guard !path.isEmpty else { throw ResultStoreError(.invalidArgument, "the database path is empty") }
        let url = path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ResultStoreError(.storageFailure, "cannot create \(directory.path): \(error)")
        }
        return url.standardizedFileURL.path
    }
}
