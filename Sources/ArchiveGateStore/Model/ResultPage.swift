/// One page of a tenant's results, newest first.
public struct ResultPage: Hashable, Sendable {
    /// At most the requested number of results, ordered by (createdAt, id) descending.
    public var items: [ResultSummary]
    /// Where the next page starts; nil on the last page.
    public var nextCursor: ResultCursor?

    public init(items: [ResultSummary], nextCursor: ResultCursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
