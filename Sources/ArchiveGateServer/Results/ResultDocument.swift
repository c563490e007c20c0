import ArchiveGateStore
import Foundation

/// The JSON documents of `/v1/archives`, written by hand so the stored report is embedded byte for
/// byte (it was encoded once, when the result was stored, and is never re-parsed).
///
///     result  {"createdAt","expiresAt","hasJSON","id","mode","sha256","size","source","report"}
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
        var writer = Writer()
        writer.open()
        writer.summaryFields(summary)
        writer.key("report")
        writer.bytes.append(contentsOf: report)
        writer.close()
        return writer.bytes
    }

    /// `GET /v1/archives`: one page of summaries.
    static func page(_ page: ResultPage) -> [UInt8] {
        var writer = Writer()
        writer.bytes.append(contentsOf: Array(#"{"items":["#.utf8))
        for (index, item) in page.items.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.open()
            writer.summaryFields(item)
            writer.bytes.removeLast()  // the comma after the last field
            writer.close()
        }
        writer.bytes.append(contentsOf: Array(#"],"nextCursor":"#.utf8))
        if let cursor = page.nextCursor { writer.string(cursor.description) } else { writer.bytes.append(contentsOf: Array("null".utf8)) }
        writer.close()
        return writer.bytes
    }

    /// RFC 3339 UTC with milliseconds, the precision the store keeps: `2026-11-22T08:15:30.123Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds.floorModulo(by: 1000)), 3))Z"
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func open() { bytes.append(UInt8(ascii: "{")) }
        mutating func close() { bytes.append(UInt8(ascii: "}")) }

        mutating func key(_ name: String) {
            string(name)
            bytes.append(UInt8(ascii: ":"))
        }

        /// Every summary field followed by a comma (sorted keys, as the other documents).
        mutating func summaryFields(_ summary: ResultSummary) {
            key("createdAt"); string(ResultDocument.timestamp(summary.createdAt)); comma()
            key("expiresAt"); string(ResultDocument.timestamp(summary.expiresAt)); comma()
            key("hasJSON"); bytes.append(contentsOf: Array((summary.hasConvertedJSON ? "true" : "false").utf8)); comma()
            key("id"); string(summary.id); comma()
            key("mode"); string(summary.mode.rawValue); comma()
            key("sha256"); string(summary.sha256); comma()
            key("size"); bytes.append(contentsOf: Array(String(summary.size).utf8)); comma()
            key("source"); string(summary.source.description); comma()
        }

        mutating func comma() { bytes.append(UInt8(ascii: ",")) }

        /// A JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7).
        mutating func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(by divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
