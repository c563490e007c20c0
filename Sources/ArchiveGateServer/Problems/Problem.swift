import ArchiveGateCore

/// An RFC 9457 problem document (`application/problem+json`).
///
/// `type` is `https://archivegate.dev/problems/<code>` where `<code>` is a stable, dotted code:
/// the core's own (`plist.truncated`, `archive.dangling_uid`) or the server's (`auth.unauthorized`,
/// `request.body_too_large`, …; the full list is in docs/API.md and the OpenAPI document).
public struct Problem: Codable, Sendable, Hashable {
    /// Where problem types live; the URI is an identifier (it need not resolve).
    public static let typeBase = "https://archivegate.dev/problems/"

    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// The same code as the end of `type`, for clients that would rather not parse URIs.
    public var code: String
    /// The request's `X-Request-Id`.
    public var requestId: String
    /// The policy violations, for `policy.rejected`.
    public var violations: [ValidationReport.Violation]?
    /// True when the policy found more violations than it lists.
    public var violationsTruncated: Bool?

    public init(code: String, title: String, status: Int, detail: String, requestId: String = "",
                violations: [ValidationReport.Violation]? = nil, violationsTruncated: Bool? = nil) {
        type = Self.typeBase + code
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.requestId = requestId
        self.violations = violations
        self.violationsTruncated = violationsTruncated
    }
}
