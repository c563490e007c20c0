import ArchiveGateCore
import Foundation
import SQLiteNIO

/// Milliseconds since 1970 (UTC), the stored form of every instant.
enum Timestamp {
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        return value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int64(value)
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// The column lists the queries select, in one place so decoding and selecting agree.
enum Columns {
    static let metadata = "id, tenant, created_at, expires_at, sha256, size, source, mode, etag"
    static let full = metadata + ", report, converted_json"
    static let summary = metadata + ", converted_json IS NOT NULL AS has_json"
}

extension SQLiteResultStore {
    static let insertStatement = """
        INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, report, converted_json, policy_digest)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
        """

    static func insertBinds(_ result: StoredResult, policyDigest: String) -> [SQLiteData] {
        [
            .text(result.id), .text(result.tenant),
            .integer(Int(Timestamp.milliseconds(result.createdAt))), .integer(Int(Timestamp.milliseconds(result.expiresAt))),
            .text(result.sha256), .integer(result.size), .text(result.source.description), .text(result.mode.rawValue),
            .text(result.etag), .blob(ByteBuffer(bytes: result.report)),
            result.convertedJSON.map { .blob(ByteBuffer(bytes: $0)) } ?? .null,
            .text(policyDigest),
        ]
    }

    /// The new row, with the id, timestamps and ETag the store assigns.
    static func makeResult(_ new: NewResult, createdAt: Int64, retention: Int64) -> StoredResult {
        let (expiresAt, overflow) = createdAt.addingReportingOverflow(retention)
        let id = ResultID.generate()
        let summary = ResultSummary(
            id: id, tenant: new.tenant, createdAt: Timestamp.date(createdAt),
            expiresAt: Timestamp.date(overflow ? .max : expiresAt), sha256: new.sha256, size: new.size,
            source: new.source, mode: new.mode, hasConvertedJSON: new.convertedJSON != nil,
            // Results never change, so the id alone is a strong validator of the stored JSON.
            etag: "\"\(id)\""
        )
        return StoredResult(summary: summary, report: new.report, convertedJSON: new.convertedJSON)
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
        return ResultSummary(
            id: try text("id"), tenant: try text("tenant"),
            createdAt: Timestamp.date(try integer("created_at")), expiresAt: Timestamp.date(try integer("expires_at")),
            sha256: try text("sha256"), size: Int(try integer("size")), source: ResultSource(storedText: try text("source")),
            mode: mode, hasConvertedJSON: hasJSON, etag: try text("etag")
        )
    }

    private static func unexpected(_ column: String) -> ResultStoreError {
        ResultStoreError(.storageFailure, "unexpected stored value in column \(column)")
    }

    /// Checks a caller's input and normalises the digest to lower case.
    static func validated(_ new: NewResult) throws(ResultStoreError) -> NewResult {
        var new = new
        new.sha256 = new.sha256.lowercased()
        guard !new.tenant.isEmpty else { throw ResultStoreError(.invalidArgument, "the tenant is empty") }
        guard new.sha256.utf8.count == 64, new.sha256.utf8.allSatisfy({ $0.isHexDigit }) else {
            throw ResultStoreError(.invalidArgument, "sha256 must be 64 hex digits")
        }
        guard new.size >= 0 else { throw ResultStoreError(.invalidArgument, "size must not be negative") }
        if case .url(let url) = new.source, url.isEmpty || url == "upload" {
            throw ResultStoreError(.invalidArgument, "a URL source must be a URL")
        }
        return new
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

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
    }
}
