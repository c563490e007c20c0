/// What ``ResultStore/put(_:)`` did. Either way the result is durable when this is returned.
public struct PutOutcome: Hashable, Sendable {
    /// The stored result: the new one, or the existing one an idempotent re-upload matched.
    public var result: StoredResult
    /// False when the same tenant had already stored the same archive (SHA-256) in the same mode and
    /// that result had not expired: nothing was written and ``result`` is the earlier one.
    public var created: Bool

    public init(result: StoredResult, created: Bool) {
        self.result = result
        self.created = created
    }
}
