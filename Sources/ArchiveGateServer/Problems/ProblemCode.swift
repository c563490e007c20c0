import ArchiveGateCore
import ArchiveGateFetch
import HTTPTypes

/// The catalogue of problem codes: every `code` a problem document can carry, with the status and
/// title it answers with. The `rawValue` is the end of the problem's `type` URI and its `code`
/// member; clients and docs rely on it, so it never changes.
///
/// Adding a problem code is a one-place edit, here:
/// - **a server problem** (`request.*`, `tenant.*`, `store.*`, `server.*`, …): one case in `Server`
///   (its raw string), one row in `Server.response` (status and title; the switch is exhaustive, so
///   a forgotten row is a build error) and one `public static let` beside the others. Throw it as
///   `ProblemError(.newCode, detail: …)`, or add a factory to `ProblemError+Catalog.swift` when the
///   detail or headers need building. Then add its row to docs/API.md's errors table.
/// - **a new code of a module that already reaches HTTP** (`plist.*`, `archive.*` → the core's
///   `PropertyListError.Code`/`ArchiveError.Code`; `fetch.*` → `FetchError.Code`): no edit here —
///   add the constant to that module's `Code`; its status and title are decided in the module's
///   `Problems/<ErrorType>+HTTPResponseError.swift` (the core's default is 422).
/// - **a new module's codes** (e.g. `encode.*`): one case in `Base`, one `init(_:)`, one line in
///   `rawValue` and in `response`, delegating to `extension <Module>Code { var problemResponse }`
///   in that module's `+HTTPResponseError.swift`.
public struct ProblemCode: Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case server(Server)
        case decode(ArchiveGateError.Code)
        case fetch(FetchError.Code)
        case encode(EncodeError.Code)
    }

    /// The server's own problems.
    private enum Server: String, Sendable, CaseIterable {
        case unauthorized = "auth.unauthorized"
        case rateLimited = "tenant.rate_limited"
        case invalidRequest = "request.invalid"
        case invalidGzip = "request.invalid_gzip"
        case invalidCursor = "request.invalid_cursor"
        case malformedRequest = "request.malformed"
        case headFieldsTooLarge = "request.header_fields_too_large"
        case badHost = "request.bad_host"
        case notFound = "request.not_found"
        case methodNotAllowed = "request.method_not_allowed"
        case bodyTooLarge = "request.body_too_large"
        case inflatedTooLarge = "request.inflated_too_large"
        case unsupportedMediaType = "request.unsupported_media_type"
        case unsupportedEncoding = "request.unsupported_encoding"
        case policyRejected = "policy.rejected"
        case fetchConcurrencyLimited = "fetch.concurrency_limited"
        case resultNotFound = "result.not_found"
        case resultHasNoJSON = "result.no_json"
        case resultHasNoArchive = "result.no_archive"
        case storeDisabled = "store.disabled"
        case storeUnavailable = "store.unavailable"
        case storeQuotaExceeded = "store.quota_exceeded"
        case storeFailure = "store.failure"
        case serverBusy = "server.busy"
        case tenantBusy = "tenant.busy"
        case amplificationExceeded = "output.amplification_exceeded"
        case internalError = "server.internal"

        var response: (status: HTTPResponse.Status, title: String) {
            switch self {
            case .unauthorized: (.unauthorized, "Unauthorized")
            case .rateLimited: (.tooManyRequests, "Too Many Requests")
            case .invalidRequest: (.badRequest, "Bad Request")
            case .invalidGzip: (.badRequest, "Bad Request")
            case .invalidCursor: (.badRequest, "Bad Request")
            case .malformedRequest: (.badRequest, "Bad Request")
            case .headFieldsTooLarge: (.requestHeaderFieldsTooLarge, "Request Header Fields Too Large")
            case .badHost: (.badRequest, "Bad Request")
            case .notFound: (.notFound, "Not Found")
            case .methodNotAllowed: (.methodNotAllowed, "Method Not Allowed")
            case .bodyTooLarge: (.contentTooLarge, "Content Too Large")
            case .inflatedTooLarge: (.contentTooLarge, "Content Too Large")
            case .unsupportedMediaType: (.unsupportedMediaType, "Unsupported Media Type")
            case .unsupportedEncoding: (.unsupportedMediaType, "Unsupported Media Type")
            case .policyRejected: (.unprocessableContent, "Rejected by Policy")
            case .fetchConcurrencyLimited: (.tooManyRequests, "Too Many Requests")
            case .resultNotFound: (.notFound, "Not Found")
            case .resultHasNoJSON: (.notFound, "Not Found")
            case .resultHasNoArchive: (.notFound, "Not Found")
            case .storeDisabled: (.serviceUnavailable, "Service Unavailable")
            case .storeUnavailable: (.serviceUnavailable, "Service Unavailable")
            case .storeQuotaExceeded: (.contentTooLarge, "Content Too Large")
            case .storeFailure: (.internalServerError, "Internal Server Error")
            case .serverBusy: (.serviceUnavailable, "Service Unavailable")
            case .tenantBusy: (.tooManyRequests, "Too Many Requests")
            case .amplificationExceeded: (.unprocessableContent, "Archive Exceeds a Limit")
            case .internalError: (.internalServerError, "Internal Server Error")
            }
        }
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// 401: no `Authorization: Bearer`, or an unknown key.
    public static let unauthorized = ProblemCode(.server(.unauthorized))
    /// 429: the tenant's token bucket is empty.
    public static let rateLimited = ProblemCode(.server(.rateLimited))
    /// 400: a bad query parameter or a malformed request.
    public static let invalidRequest = ProblemCode(.server(.invalidRequest))
    /// 400: a gzip body that cannot be inflated.
    public static let invalidGzip = ProblemCode(.server(.invalidGzip))
    /// 400: a `cursor` this server did not issue.
    public static let invalidCursor = ProblemCode(.server(.invalidCursor))
    /// 400: bytes that do not parse as an HTTP/1 request (answered by `HTTPConformanceHandler`).
    public static let malformedRequest = ProblemCode(.server(.malformedRequest))
    /// 431: a request line and header fields over the HTTP decoder's limits.
    public static let headFieldsTooLarge = ProblemCode(.server(.headFieldsTooLarge))
    /// 400: an HTTP/1.1 request without `Host`, or any request with more than one.
    public static let badHost = ProblemCode(.server(.badHost))
    /// 404: no such route.
    public static let notFound = ProblemCode(.server(.notFound))
    /// 405: the route exists, the method does not.
    public static let methodNotAllowed = ProblemCode(.server(.methodNotAllowed))
    /// 413: the body is over the tenant's limit.
    public static let bodyTooLarge = ProblemCode(.server(.bodyTooLarge))
    /// 413: a gzip body inflates past the tenant's archive limit.
    public static let inflatedTooLarge = ProblemCode(.server(.inflatedTooLarge))
    /// 415: a Content-Type the endpoint does not accept.
    public static let unsupportedMediaType = ProblemCode(.server(.unsupportedMediaType))
    /// 415: a Content-Encoding other than gzip or identity.
    public static let unsupportedEncoding = ProblemCode(.server(.unsupportedEncoding))
    /// 422: the tenant's policy rejects the archive; the problem lists the violations.
    public static let policyRejected = ProblemCode(.server(.policyRejected))
    /// 429: the tenant already runs as many fetches as it may.
    public static let fetchConcurrencyLimited = ProblemCode(.server(.fetchConcurrencyLimited))
    /// 404: an unknown, expired or another tenant's result id (one and the same answer).
    public static let resultNotFound = ProblemCode(.server(.resultNotFound))
    /// 404: the result's archive was rejected, so no JSON was stored.
    public static let resultHasNoJSON = ProblemCode(.server(.resultHasNoJSON))
    /// 404: the result keeps no sanitized archive (not stored with `?sanitize=true`, or the policy rejected it).
    public static let resultHasNoArchive = ProblemCode(.server(.resultHasNoArchive))
    /// 503: the server runs without a result store.
    public static let storeDisabled = ProblemCode(.server(.storeDisabled))
    /// 503: the store is busy or shutting down (retry).
    public static let storeUnavailable = ProblemCode(.server(.storeUnavailable))
    /// 413: storing the result would exceed the tenant's storage quota (bytes or results).
    public static let storeQuotaExceeded = ProblemCode(.server(.storeQuotaExceeded))
    /// 500: the store failed; details in the log only.
    public static let storeFailure = ProblemCode(.server(.storeFailure))
    /// 503: the server's memory budget or its concurrent-upload cap is exhausted (retry).
    public static let serverBusy = ProblemCode(.server(.serverBusy))
    /// 429: the tenant's share of the memory budget or its concurrent-upload cap is exhausted.
    public static let tenantBusy = ProblemCode(.server(.tenantBusy))
    /// 422: the JSON would exceed `memory.amplificationFactor` × the archive.
    public static let amplificationExceeded = ProblemCode(.server(.amplificationExceeded))
    /// 500: a bug; details in the log only.
    public static let internalError = ProblemCode(.server(.internalError))

    /// A decode error's code (`plist.*`, `archive.*`) as the problem's code.
    public init(_ code: ArchiveGateError.Code) { base = .decode(code) }
    /// A fetch error's code (`fetch.*`) as the problem's code.
    public init(_ code: FetchError.Code) { base = .fetch(code) }
    /// An encode error's code (`encode.*`, or the archive code of a structural problem) as the problem's code.
    public init(_ code: EncodeError.Code) { base = .encode(code) }

    /// The server's own codes, for docs and tests.
    public static let serverCodes: [ProblemCode] = Server.allCases.map { ProblemCode(.server($0)) }

    /// The stable identifier, e.g. `request.body_too_large` or `plist.truncated`.
    public var rawValue: String {
        switch base {
        case .server(let code): code.rawValue
        case .decode(let code): code.rawValue
        case .fetch(let code): code.rawValue
        case .encode(let code): code.rawValue
        }
    }

    public var description: String { rawValue }

    /// The status and title a problem with this code answers with.
    public var response: (status: HTTPResponse.Status, title: String) {
        switch base {
        case .server(let code): code.response
        case .decode(let code): code.problemResponse
        case .fetch(let code): code.problemResponse
        case .encode(let code): code.problemResponse
        }
    }
}
