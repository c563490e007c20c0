/// Why a gzip body could not be inflated. The server maps it to HTTP in
/// `InflateError+HTTPResponseError.swift`; the fuzz target compares codes.
public struct InflateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason; its `rawValue` is the problem code the server answers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidGzip = "request.invalid_gzip"
            case inflatedTooLarge = "request.inflated_too_large"
            case unavailable = "server.internal"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A corrupt, truncated or trailing-garbage gzip stream.
        public static let invalidGzip = Code(.invalidGzip)
        /// The inflated output would pass the limit (`InflateError.limit`).
        public static let inflatedTooLarge = Code(.inflatedTooLarge)
        /// zlib could not be set up (out of memory): the server's fault, not the body's.
        public static let unavailable = Code(.unavailable)

        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The output cap, for `inflatedTooLarge`.
    public let limit: Int?
    /// What went wrong, for people: "the gzip stream is truncated".
    public let message: String

    public init(_ code: Code, limit: Int? = nil, _ message: String) {
        self.code = code
        self.limit = limit
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
