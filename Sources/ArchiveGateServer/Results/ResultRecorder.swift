import ArchiveGateCore
import ArchiveGateKeys
import ArchiveGateStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Converts an archive under the tenant's policy and stores the outcome: what `POST /v1/archives`
/// and `POST /v1/fetch` with `"store": true` share.
///
/// The response is sent only after the store's transaction committed (`ResultStore.put` returns
/// once the result is durable), so a 201 always names a result that survives a crash.
struct ResultRecorder: Sendable {
    let store: (any ResultStore)?
    let metrics: ServerMetrics

    /// 201 + `Location` for a new result, 200 + `Location` when the tenant already stored the same
    /// bytes in the same mode under the same policy (the earlier result, unchanged); after a policy
    /// change the bytes are judged again and stored as a new result. Either way the body is the result
    /// document. An archive the policy rejects is stored with its report only; one that cannot be
    /// decoded at all is a 422 problem and nothing is stored.
    ///
    /// With `sanitize`, the archive ArchiveGate writes under the policy (`ArchiveSanitizer`, binary)
    /// is stored beside the JSON for `GET /v1/archives/{id}/archive`; asking for it is part of the
    /// idempotency key. An archive the policy rejects keeps no archive, as it keeps no JSON.
    func record(
        _ bytes: [UInt8], source: ResultSource, mode: OutputMode, sanitize: Bool = false, name: String? = nil,
        tenant: Tenant, context: ArchiveRequestContext
    ) async throws -> Response {
        let store = try requireStore()
        let inspection = try await context.pipeline.convert(bytes, mode: mode, with: tenant.inspector)
        context.record(inspection.report, tenant: tenant, metrics: metrics)
        // The sanitizer decodes again: the converter's decoded graph is gone once its JSON is written.
        let sanitized = sanitize && inspection.json != nil ? try await context.pipeline.sanitize(bytes, with: tenant.inspector).archive : nil
        if sanitize {
            let outcome = sanitized == nil ? "rejected" : inspection.report.violations.isEmpty ? "ok" : "redacted"
            metrics.recordWrite("stored_sanitize", outcome: outcome, tenant: tenant.id)
        }

        let new = NewResult(
            tenant: tenant.id, sha256: SHA256.hash(data: bytes).hexDigits, size: bytes.count, source: source, mode: mode,
            report: inspection.report.json, convertedJSON: inspection.json,
            policyDigest: tenant.policyDigest, quota: tenant.storageQuota,
            requestsSanitizedArchive: sanitize, sanitizedArchive: sanitized, name: name)
        let outcome = try await measured("put") { try await store.put(new) }
        metrics.recordStoredResult(created: outcome.created, tenant: tenant.id)
        let headers: HTTPFields = [.location: "/v1/archives/\(outcome.result.id)",
                                   .archiveGateViolations: String(inspection.report.violations.count)]
        return .json(VerdictStatus.status(inspection.report, at: .stored(created: outcome.created)), ResultDocument.result(outcome.result), headers: headers)
    }

    func requireStore() throws -> any ResultStore {
        guard let store else { throw ProblemError.storeDisabled }
        return store
    }

    /// Runs one store call, recording its latency (and failure code) and rethrowing store errors (`ResultStoreError+HTTPResponseError.swift` maps them).
    func measured<Value>(_ operation: String, _ body: () async throws -> Value) async throws -> Value {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            metrics.recordStoreOperation(operation, duration: ContinuousClock.now - start)
            return value
        } catch let error as ResultStoreError {
            metrics.recordStoreOperation(operation, duration: ContinuousClock.now - start, failureCode: error.code.description)
            throw error
        }
    }
}

extension Digest {
    /// Lower-case hex, as the store keeps SHA-256 digests.
    var hexDigits: String { Hex.lowercase(self) }
}
