/// A tenant's storage allowance: what its unexpired results may occupy together. A put that would
/// exceed either figure fails with ``ResultStoreError/Code/quotaExceeded``; an idempotent re-upload
/// of a result already stored never does.
public struct StorageQuota: Hashable, Sendable {
    /// Report, converted-JSON and sanitized-archive bytes of all the tenant's unexpired results, the new one included.
    public var maxBytes: Int64
    /// How many unexpired results the tenant may have, the new one included.
    public var maxResults: Int

    public init(maxBytes: Int64, maxResults: Int) {
        self.maxBytes = maxBytes
        self.maxResults = maxResults
    }

    /// Throws `quotaExceeded` unless a result of `bytes` fits beside `count` results of `usedBytes`.
    func check(count: Int, usedBytes: Int64, adding bytes: Int64) throws(ResultStoreError) {
        guard count + 1 <= maxResults else {
            throw ResultStoreError(.quotaExceeded, "the tenant already stores \(count) results (quota \(maxResults))")
        }
        guard usedBytes + bytes <= maxBytes else {
            throw ResultStoreError(.quotaExceeded, "the tenant stores \(usedBytes) bytes; \(bytes) more exceed the quota of \(maxBytes)")
        }
    }
}
