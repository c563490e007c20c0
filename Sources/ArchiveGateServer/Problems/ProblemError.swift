import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird

/// An error that knows its problem document and extra headers (`WWW-Authenticate`, `Retry-After`).
/// Everything the server throws on purpose is one of these; `ProblemMiddleware` renders it.
public struct ProblemError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var title: String
    public var detail: String
    public var headers: HTTPFields
    public var violations: [ValidationReport.Violation]?
    public var violationsTruncated: Bool?

    public init(_ status: HTTPResponse.Status, code: String, title: String, detail: String, headers: HTTPFields = [:],
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
        Problem(code: code, title: title, status: status.code, detail: detail, requestId: requestId,
                violations: violations, violationsTruncated: violationsTruncated)
    }

    /// Renders the problem as `application/problem+json` with sorted keys (stable on Linux).
    public func response(requestId: String) -> Response {
        let body = (try? JSONEncoder.sorted.encode(problem(requestId: requestId))) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
