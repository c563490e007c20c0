import Logging
import PostgresNIO

extension PostgresResultStore {
    /// Inside a put's transaction: serialises the tenant's puts across replicas with a
    /// transaction-scoped advisory lock, returns the existing result when the key is already stored
    /// (a re-upload never counts against the quota), and otherwise throws `quotaExceeded` unless
    /// the new result fits. The lock is released by COMMIT or ROLLBACK.
    static func checkQuota(
        _ quota: StorageQuota, for new: NewResult, at createdAt: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> PutOutcome? {
        // The two-key form has its own key space, apart from the migration and purge locks.
        try await connection.run(
            "SELECT pg_advisory_xact_lock(\(Self.quotaLockClass), hashtext(\(new.tenant)))", logger: logger)
        let existing = try await connection.run("""
            SELECT \(unescaped: Self.fullColumns) FROM results
            WHERE tenant = \(new.tenant) AND sha256 = \(new.sha256) AND mode = \(new.mode.rawValue)
              AND policy_digest = \(new.policyDigest) AND sanitized = \(new.requestsSanitizedArchive)
            """, logger: logger)
        if let row = existing.first { return PutOutcome(result: try decodeResult(row), created: false) }
        let usage = try await connection.run("""
            SELECT count(*), coalesce(sum(stored_bytes), 0)::BIGINT FROM results
            WHERE tenant = \(new.tenant) AND expires_at > \(createdAt)
            """, logger: logger)
        let columns = usage.first?.makeRandomAccess()
        let count = try columns?[0].decode(Int64.self) ?? 0
        let bytes = try columns?[1].decode(Int64.self) ?? 0
        try quota.check(count: Int(count), usedBytes: bytes, adding: new.storedBytes)
        return nil
    }

    /// "AG" in ASCII: the first key of the per-tenant quota locks.
    static let quotaLockClass: Int32 = 0x4147
}
