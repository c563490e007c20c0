/// A result as the store holds it: its metadata, the report and (for accepted archives) the JSON.
///
/// The metadata lives in ``summary`` and reads directly too (`result.id`, `result.createdAt`).
/// Results are immutable once stored; an id always names the same bytes, which is why the ETag
/// is a strong validator.
@dynamicMemberLookup
public struct StoredResult: Hashable, Sendable {
    /// Id, tenant, timestamps, digest, size, source, mode and ETag.
    public private(set) var summary: ResultSummary
    /// The validation report JSON, byte-identical to what was put.
    public var report: [UInt8]
    /// The converted JSON, byte-identical to what was put; nil for a rejected archive.
    public var convertedJSON: [UInt8]? {
        didSet { summary.hasConvertedJSON = convertedJSON != nil }
    }

    /// `summary.hasConvertedJSON` is set from `convertedJSON`, so the two always agree.
    public init(summary: ResultSummary, report: [UInt8], convertedJSON: [UInt8]?) {
        self.summary = summary
        self.summary.hasConvertedJSON = convertedJSON != nil
        self.report = report
        self.convertedJSON = convertedJSON
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<ResultSummary, Value>) -> Value {
        summary[keyPath: keyPath]
    }
}
