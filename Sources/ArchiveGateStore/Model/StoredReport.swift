/// A stored result without its converted JSON: what `GET /v1/archives/{id}` answers, read without
/// touching the (possibly very large) JSON document.
public struct StoredReport: Hashable, Sendable {
    /// Id, tenant, timestamps, digest, size, source, mode, ETag and whether JSON is stored.
    public var summary: ResultSummary
    /// The validation report JSON, byte-identical to what was put.
    public var report: [UInt8]

    public init(summary: ResultSummary, report: [UInt8]) {
        self.summary = summary
        self.report = report
    }
}

extension StoredResult {
    /// This result without its JSON.
    public var storedReport: StoredReport { StoredReport(summary: summary, report: report) }
}
