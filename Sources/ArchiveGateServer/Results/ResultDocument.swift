import ArchiveGateCore
import ArchiveGateStore
import Foundation

/// The JSON documents of `/v1/archives`, written field by field with the core's JSON writer so the
/// stored report is embedded byte for byte (it was encoded once, when the result was stored, and is
/// never re-parsed).
///
///     result  {"createdAt","expiresAt","hasArchive","hasJSON","id","mode","name"?,"sha256","size","source","report"}
///     page    {"items":[result without report…],"nextCursor":"…"|null}
enum ResultDocument {
    /// `GET /v1/archives/{id}` and the body of `POST /v1/archives`: metadata and the report.
    static func result(_ result: StoredResult) -> [UInt8] {
        document(result.summary, report: result.report)
    }

    /// `GET /v1/archives/{id}`, read without the JSON.
    static func result(_ report: StoredReport) -> [UInt8] {
        document(report.summary, report: report.report)
    }

    private static func document(_ summary: ResultSummary, report: [UInt8]) -> [UInt8] {
        var writer = JSONDocumentWriter()
        writer.raw("{".utf8)
        summaryFields(summary, into: &writer)
        writer.raw(",".utf8)
        writer.key("report")
        writer.raw(report)
        writer.raw("}".utf8)
        return writer.bytes
    }

    /// `GET /v1/archives`: one page of summaries.
    static func page(_ page: ResultPage) -> [UInt8] {
        var writer = JSONDocumentWriter()
        writer.raw(#"{"items":["#.utf8)
        for (index, item) in page.items.enumerated() {
            if index > 0 { writer.raw(",".utf8) }
            writer.raw("{".utf8)
            summaryFields(item, into: &writer)
            writer.raw("}".utf8)
        }
        writer.raw(#"],"nextCursor":"#.utf8)
        if let cursor = page.nextCursor { writer.string(cursor.description) } else { writer.null() }
        writer.raw("}".utf8)
        return writer.bytes
    }

    /// Every summary field, comma-separated (sorted keys, as the other documents).
    private static func summaryFields(_ summary: ResultSummary, into writer: inout JSONDocumentWriter) {
        writer.key("createdAt"); writer.timestamp(unixMilliseconds: milliseconds(summary.createdAt)); writer.raw(",".utf8)
        writer.key("expiresAt"); writer.timestamp(unixMilliseconds: milliseconds(summary.expiresAt)); writer.raw(",".utf8)
        writer.key("hasArchive"); writer.bool(summary.hasSanitizedArchive); writer.raw(",".utf8)
        writer.key("hasJSON"); writer.bool(summary.hasConvertedJSON); writer.raw(",".utf8)
        writer.key("id"); writer.string(summary.id); writer.raw(",".utf8)
        writer.key("mode"); writer.string(summary.mode.rawValue); writer.raw(",".utf8)
        if let name = summary.name { writer.key("name"); writer.string(name); writer.raw(",".utf8) }
        writer.key("sha256"); writer.string(summary.sha256); writer.raw(",".utf8)
        writer.key("size"); writer.integer(summary.size); writer.raw(",".utf8)
        writer.key("source"); writer.string(summary.source.description)
    }

    /// Whole milliseconds, the precision the store keeps (rounded down, as RFC 3339 readers expect).
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
