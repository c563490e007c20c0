import ArchiveGateCore
import Foundation
import Logging
import PostgresNIO

extension PostgresResultStore {
    /// The column lists the queries select, in one place so decoding and selecting agree.
    /// Listings select `has_json` and `has_archive` (columns), never the documents; only
    /// `sanitizedArchive(tenant:id:)` selects `sanitized_archive`.
    static let metadataColumns = "id, tenant, created_at, expires_at, sha256, size, source, mode, etag, has_json, has_archive, name"
    static let summaryColumns = metadataColumns
    static let reportColumns = metadataColumns + ", report"
    static let fullColumns = reportColumns + ", converted_json"

    /// The INSERT of a new row; it returns the id only when this call created the row.
    static func insert(_ new: NewResult, _ result: StoredResult) -> PostgresQuery {
        let json = result.convertedJSON.map { ByteBuffer(bytes: $0) }
        let archive = new.sanitizedArchive.map { ByteBuffer(bytes: $0) }
        return """
            INSERT INTO results (id, tenant, created_at, expires_at, sha256, size, source, mode, etag, policy_digest, has_json, stored_bytes, report, converted_json,
                                 sanitized, has_archive, sanitized_archive, name)
            VALUES (\(result.id), \(result.tenant), \(Timestamp.milliseconds(result.createdAt)), \(Timestamp.milliseconds(result.expiresAt)),
                    \(result.sha256), \(Int64(result.size)), \(result.source.description), \(result.mode.rawValue), \(result.etag),
                    \(new.policyDigest), \(result.convertedJSON != nil), \(new.storedBytes), \(ByteBuffer(bytes: result.report)), \(json),
                    \(new.requestsSanitizedArchive), \(archive != nil), \(archive), \(new.name))
            ON CONFLICT (tenant, sha256, mode, policy_digest, sanitized) DO NOTHING
            RETURNING id
            """
    }

    static func decodeResult(_ row: PostgresRow) throws -> StoredResult {
        let columns = row.makeRandomAccess()
        let report = try columns["report"].decode(ByteBuffer.self)
        let json = try columns["converted_json"].decode(ByteBuffer?.self)
        var summary = try decodeSummary(row)
        guard summary.hasConvertedJSON == (json != nil) else { throw unexpected("has_json") }
        summary.hasConvertedJSON = json != nil
        return StoredResult(
            summary: summary, report: Array(report.readableBytesView), convertedJSON: json.map { Array($0.readableBytesView) })
    }

    static func decodeReport(_ row: PostgresRow) throws -> StoredReport {
        let report = try row.makeRandomAccess()["report"].decode(ByteBuffer.self)
        return StoredReport(summary: try decodeSummary(row), report: Array(report.readableBytesView))
    }

    static func decodeSummary(_ row: PostgresRow) throws -> ResultSummary {
        let columns = row.makeRandomAccess()
        guard let mode = OutputMode(rawValue: try columns["mode"].decode(String.self)) else { throw unexpected("mode") }
        return ResultSummary(
            id: try columns["id"].decode(String.self), tenant: try columns["tenant"].decode(String.self),
            createdAt: Timestamp.date(try columns["created_at"].decode(Int64.self)),
            expiresAt: Timestamp.date(try columns["expires_at"].decode(Int64.self)),
            sha256: try columns["sha256"].decode(String.self), size: Int(try columns["size"].decode(Int64.self)),
            source: ResultSource(storedText: try columns["source"].decode(String.self)), mode: mode,
            hasConvertedJSON: try columns["has_json"].decode(Bool.self), etag: try columns["etag"].decode(String.self),
            hasSanitizedArchive: try columns["has_archive"].decode(Bool.self),
            name: try columns["name"].decode(String?.self)
        )
    }

    private static func unexpected(_ column: String) -> ResultStoreError {
        ResultStoreError(.storageFailure, "unexpected stored value in column \(column)")
    }

    /// The postgres-nio client settings: pool size, connect timeout and the session's statement timeout.
    static func clientConfiguration(_ configuration: Configuration) -> PostgresClient.Configuration {
        var client: PostgresClient.Configuration
        switch configuration.endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = switch configuration.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
            client = .init(host: host, port: port, username: configuration.username, password: configuration.password,
                           database: configuration.database, tls: tls)
        case .unixSocket(let path):
            client = .init(unixSocketPath: path, username: configuration.username, password: configuration.password,
                           database: configuration.database)
        }
        client.options.maximumConnections = configuration.poolSize
        client.options.connectTimeout = min(configuration.operationTimeout, .seconds(5))
        client.options.additionalStartupParameters = [
            ("statement_timeout", String(max(1, configuration.statementTimeout.storeMilliseconds))),
            ("application_name", "archivegate"),
        ]
        return client
    }

    /// Runs `body` within `timeout`, turning every failure into a ``ResultStoreError``: a lost or
    /// refused connection and the timeout itself are `unavailable`, a cancelled statement
    /// (statement_timeout), a deadlock or a serialization failure `busy`, the rest `storageFailure`.
    static func mappingErrors<T: Sendable>(
        timeout: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next()
                group.cancelAll()
                guard let first, let value = first else {
                    throw ResultStoreError(.unavailable, "no answer from the database within \(timeout)")
                }
                return value
            }
        } catch {
            throw mapped(error)
        }
    }

    static func mapped(_ error: any Error) -> ResultStoreError {
        switch error {
        case let error as ResultStoreError:
            return error
        case let error as PSQLError:
            return mapped(error)
        case let error as PostgresDecodingError:
            return ResultStoreError(.storageFailure, "unexpected stored value in column \(error.columnName): \(error.code)")
        case is CancellationError:
            return ResultStoreError(.unavailable, "cancelled while waiting for the database")
        default:
            // The pool's own errors (connection creation failing, circuit breaker open, shut down).
            return ResultStoreError(.unavailable, "the database cannot be reached: \(error)")
        }
    }

    /// PSQLError's `description` is deliberately empty and its `debugDescription` carries the
    /// query's binds (tenant data): the message is built from the code and the server's fields only.
    private static func mapped(_ error: PSQLError) -> ResultStoreError {
        if error.code == .poolClosed { return ResultStoreError(.closed, "the result store is closed") }
        guard error.code == .server else {
            return ResultStoreError(.unavailable, "the database connection failed: \(error.code)")
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = "SQLSTATE \(state): \(error.serverInfo?[.message] ?? "no message")"
        switch state {
        case "57014", "40001", "40P01", "55P03":
            return ResultStoreError(.busy, message)
        case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"):
            return ResultStoreError(.unavailable, message)
        default:
            return ResultStoreError(.storageFailure, message)
        }
    }
}

extension PostgresConnection {
    /// Runs `body` between BEGIN and COMMIT, rolling back if anything throws, and rethrows the
    /// original error (postgres-nio's own `withTransaction` wraps it). When this returns, COMMIT
    /// has returned: the transaction is durable.
    func transaction<T>(logger: Logger, _ body: () async throws -> T) async throws -> T {
        try await run("BEGIN", logger: logger)
        do {
            let value = try await body()
            try await run("COMMIT", logger: logger)
            return value
        } catch {
            do {
                try await run("ROLLBACK", logger: logger)
            } catch let rollbackError {
                logger.debug("rollback after a failed transaction", metadata: ["error": "\(String(describing: rollbackError))"])
            }
            throw error
        }
    }
}

extension PostgresConnection {
    /// Runs one statement and reads every row. A statement's execution error arrives with the rows,
    /// so a caller that did not read them would miss it (and meet "current transaction is aborted"
    /// at the next statement); reading also hands the connection back in a clean state.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}

extension PostgresClient {
    /// ``PostgresConnection/run(_:logger:)`` on a pooled connection.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}

extension Array where Element == PostgresRow {
    /// The first column of the first row, or nil when there is no row.
    func decodeFirst<T: PostgresDecodable>(_ type: T.Type) throws -> T? {
        try first.map { try $0.makeRandomAccess()[0].decode(T.self) }
    }
}
