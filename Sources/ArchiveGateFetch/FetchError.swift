/// Why a fetch failed.
///
/// Two errors are equal when their codes are equal: callers (and the HTTP layer, which maps each
/// code to its own problem type) branch on the code; `status` and `message` are there for people.
public struct FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason. Its `rawValue` is what reports and HTTP problems show.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidURL = "fetch.invalid_url"
            case notHTTP = "fetch.not_http"
            case blockedDestination = "fetch.blocked_destination"
            case tooManyRedirects = "fetch.too_many_redirects"
            case tooLarge = "fetch.too_large"
            case timeout = "fetch.timeout"
            case upstreamStatus = "fetch.upstream_status"
            case connectionFailed = "fetch.connection_failed"
            case cancelled = "fetch.cancelled"
            case unavailable = "fetch.unavailable"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The URL does not parse, has no host, or carries credentials (`user:pass@`), which are
        /// refused outright so they can never be forwarded anywhere.
        public static let invalidURL = Code(.invalidURL)
        /// The scheme, of the URL or of a redirect target, is not `http` or `https`.
        public static let notHTTP = Code(.notHTTP)
        /// The host is not on the tenant's allow list, or an address connected to (after DNS, on
        /// any hop) is in the deny list and not explicitly allowed.
        public static let blockedDestination = Code(.blockedDestination)
        /// More redirects than the policy allows, or a redirect loop.
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// The body (after content decoding) or the announced length exceeds the byte cap.
        public static let tooLarge = Code(.tooLarge)
        /// The connect or total timeout expired, or the transfer stayed below the low-speed limit.
        public static let timeout = Code(.timeout)
        /// The final response's status is not 2xx; `FetchError.status` holds it.
        public static let upstreamStatus = Code(.upstreamStatus)
        /// DNS, TCP, TLS (including certificate verification) or a malformed/truncated response.
        public static let connectionFailed = Code(.connectionFailed)
        /// The calling task was cancelled; the transfer was aborted.
        public static let cancelled = Code(.cancelled)
        /// This machine cannot fetch at all: libcurl (`libcurl.so.4`, Debian's `libcurl4`), which
        /// is loaded on the first fetch rather than linked, is missing or failed to initialize.
        public static let unavailable = Code(.unavailable)

        /// The stable identifier, e.g. `fetch.blocked_destination`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The upstream HTTP status, for `upstreamStatus`.
    public let status: Int?
    /// A human-readable explanation.
    public let message: String

    public init(_ code: Code, status: Int? = nil, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    public var description: String {
        if let status { return "\(code.rawValue) (HTTP \(status)): \(message)" }
        return "\(code.rawValue): \(message)"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
