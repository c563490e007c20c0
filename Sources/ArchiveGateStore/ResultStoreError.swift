/// An error from a ``ResultStore``: a stable ``code`` to branch on and a message for people.
///
/// Equality compares the code only, as with `NIOHTTPDecoderError` and `ASN1Error`: the message is
/// diagnostic text, not part of the contract. "Not found" is not an error: lookups return `nil`
/// (or `false`) so that a missing id, an expired one and another tenant's all look the same.
public struct ResultStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value the caller can switch over with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case invalidArgument
            case invalidCursor
            case busy
            case unavailable
            case quotaExceeded
            case closed
            case schemaTooNew
            case migrationMismatch
            case storageFailure
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// A caller's value is out of range (an empty tenant, a malformed SHA-256, a limit below 1).
        public static let invalidArgument = Code(.invalidArgument)
        /// A pagination cursor that this store did not issue (the server answers 400).
        public static let invalidCursor = Code(.invalidCursor)
        /// The database stayed locked by another process for longer than the busy timeout.
        public static let busy = Code(.busy)
        /// The database server cannot be reached (down, restarting, connection refused or lost);
        /// the store reconnects by itself, so the caller may retry later.
        public static let unavailable = Code(.unavailable)
        /// The put would take the tenant past its ``StorageQuota`` (results or bytes).
        public static let quotaExceeded = Code(.quotaExceeded)
        /// The store was closed.
        public static let closed = Code(.closed)
        /// The database was migrated by a newer ArchiveGate than this one.
        public static let schemaTooNew = Code(.schemaTooNew)
        /// The database's migration history differs from the one this build ships.
        public static let migrationMismatch = Code(.migrationMismatch)
        /// The database failed (I/O error, full disk, corruption, unexpected stored value).
        public static let storageFailure = Code(.storageFailure)

        public var description: String { kind.rawValue }
    }

    /// The stable code.
    public var code: Code
    /// A human-readable explanation; not stable, never shown to tenants verbatim.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: ResultStoreError, rhs: ResultStoreError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
