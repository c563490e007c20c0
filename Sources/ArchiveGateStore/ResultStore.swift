/// Durable, tenant-isolated storage of validation results and converted JSON (DESIGN §9).
///
/// Every read and delete names the tenant, and a result belonging to another tenant, an expired
/// result and a missing one are indistinguishable (`nil` / `false`). Expired results are invisible
/// at once; ``purgeExpired()`` only reclaims their space.
public protocol ResultStore: Sendable {
    /// Stores a result and returns once it is durable (after COMMIT with the store's sync setting).
    ///
    /// Idempotent per (tenant, SHA-256, mode): if that tenant already has an unexpired result for the
    /// same archive bytes in the same mode, that result is returned with `created == false` and
    /// nothing is written (its expiry is not extended).
    /// - Throws: ``ResultStoreError`` (`invalidArgument` for a malformed input, `quotaExceeded` when
    ///   ``NewResult/quota`` would be exceeded, `busy`, `unavailable`, `storageFailure`, `closed`).
    func put(_ result: NewResult) async throws -> PutOutcome

    /// The tenant's unexpired result with this id, or nil.
    func get(tenant: String, id: String) async throws -> StoredResult?

    /// The metadata of the tenant's unexpired result with this id, or nil. Reads neither the report
    /// nor the JSON (an `If-None-Match` revalidation needs the ETag only).
    func summary(tenant: String, id: String) async throws -> ResultSummary?

    /// The metadata and report of the tenant's unexpired result with this id, or nil. Never reads
    /// the converted JSON.
    func report(tenant: String, id: String) async throws -> StoredReport?

    /// The sanitized archive of the tenant's unexpired result with this id, byte for byte; nil when
    /// there is no such result or it keeps no archive (``ResultSummary/hasSanitizedArchive`` tells
    /// which). The only call that reads the archive: get, summary, report and list never do.
    func sanitizedArchive(tenant: String, id: String) async throws -> [UInt8]?

    /// One page of the tenant's unexpired results, newest first (createdAt, then id, descending).
    /// - Parameters:
    ///   - limit: the page size, at least 1; larger values are capped by the store's maximum.
    ///   - cursor: `nextCursor` of the previous page, or nil for the first page.
    func list(tenant: String, limit: Int, cursor: ResultCursor?) async throws -> ResultPage

    /// Deletes the tenant's unexpired result with this id; false when there is none.
    func delete(tenant: String, id: String) async throws -> Bool

    /// Physically removes every expired result; returns how many were removed.
    func purgeExpired() async throws -> Int

    /// Throws unless the store can serve reads and writes (for `/readyz`).
    func healthCheck() async throws

    /// Waits for the calls in flight, then releases the database; later calls throw `closed`.
    func close() async
}
