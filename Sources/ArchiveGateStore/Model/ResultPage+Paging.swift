/// How both stores cut a listing into pages: the same rules, written once.
extension ResultPage {
    /// The number of results a `list(limit:)` call gets: `limit`, capped by the store's `maximum`.
    static func size(limit: Int, maximum: Int) throws(ResultStoreError) -> Int {
        guard limit >= 1 else { throw ResultStoreError(.invalidArgument, "limit must be at least 1") }
        return min(limit, maximum)
    }

    /// The page made of `rows`, which were fetched with a limit of `pageSize + 1`: that one row more
    /// than the page tells whether another page exists, and the cursor then starts after the
    /// page's last item.
    init<Rows: Collection>(rows: Rows, pageSize: Int, decode: (Rows.Element) throws -> ResultSummary) rethrows {
        let items = try rows.prefix(pageSize).map(decode)
        let next = rows.count > pageSize ? items.last.map {
            ResultCursor(createdAtMilliseconds: Timestamp.milliseconds($0.createdAt), id: $0.id)
        } : nil
        self.init(items: items, nextCursor: next)
    }
}
