import Synchronization

/// Facts about one request gathered by inner layers for the outer access log and metrics.
/// Never holds the API key or the body.
public final class RequestTrace: Sendable {
    public struct Facts: Sendable {
        public var tenant: String?
        public var archiveBytes: Int?
        public var violationCodes: [String] = []
        /// Danger catalogue codes found in the archive (`danger.predicate`, …).
        public var findingCodes: [String] = []
        /// The problem code when the response is an error.
        public var problemCode: String?
    }

    private let facts = Mutex(Facts())

    public init() {}

    public func update(_ change: (inout Facts) -> Void) {
        facts.withLock { change(&$0) }
    }

    public var snapshot: Facts { facts.withLock { $0 } }
}
