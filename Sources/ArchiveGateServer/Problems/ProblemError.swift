import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird

/// An error that knows its problem document and extra headers (`WWW-Authenticate`, `Retry-After`).
/// Everything the server throws on purpose is one of these; `ProblemMiddleware` renders it.
public struct ProblemError: Error, Sendable {
    public var status: HTTPResponse.Status
    /// From the catalogue, `ProblemCode`.
    public var code: ProblemCode
    public var title: String
    public var detail: String
    public var headers: HTTPFields
    public var violations: [ValidationReport.Violation]?
    public var violationsTruncated: Bool?

    /// A problem with its code's own status and title (`ProblemCode.response`).
    public init(_ code: ProblemCode, detail: String, headers: HTTPFields = [:],
                violations: [ValidationReport.Violation]? = nil, violationsTruncated: Bool? = nil) {
        let (status, title) = code.response
        self.init(status, code: code, title: title, detail: detail, headers: headers,
                  violations: violations, violationsTruncated: violationsTruncated)
    }

    /// A problem whose status and title are not its code's own (a status Hummingbird decided).
    public init(_ status: HTTPResponse.Status, code: ProblemCode, title: String, detail: String, headers: HTTPFields = [:],
                violations: [ValidationReport.Violation]? = nil, violationsTruncated: Bool? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.headers = headers
        self.violations = violations
        self.violationsTruncated = violationsTruncated
    }

    /// The document for this error, stamped with the request id.
    public func problem(requestId: String) -> Problem {
        Problem(code: code.rawValue, title: title, status: status.code, detail: detail, requestId: requestId,
                violations: violations, violationsTruncated: violationsTruncated)
    }

    /// Renders the problem as `application/problem+json` with sorted keys (stable on Linux). The
    /// violations (`policy.rejected`, the last members in key order) are written by the core's one
    /// report writer, not encoded a second way.
    public func response(requestId: String) -> Response {
        var document = problem(requestId: requestId)
        document.violations = nil
        document.violationsTruncated = nil
        var body = Array((try? JSONEncoder.sorted.encode(document)) ?? Data("{}".utf8))
        if let violations, body.last == UInt8(ascii: "}") {
            var members = JSONDocumentWriter(capacity: 256 * violations.count + 64)
            ValidationReport.writeViolationMembers(violations, truncated: violationsTruncated ?? false, to: &members)
            body.removeLast()
            body += members.bytes
            body.append(UInt8(ascii: "}"))
        }
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
