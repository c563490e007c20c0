import ArchiveGateCore

extension DatabaseScanner {
    /// Calls `body` with each archive-candidate BLOB (`ArchiveBlob.isCandidate`) of the scanned
    /// tables and columns, labelled `table.column rowid N`, in database order: the samples of
    /// `policy suggest --db` and `policy diff --db`.
    func forEachCandidate(limit: Int, _ body: (String, [UInt8]) throws -> Void) throws {
        for table in tables {
            try snapshot.database.query(table.select) { row in
                for (index, column) in table.columns.enumerated() where row.isBlob(index + 1) {
                    let bytes = row.blob(index + 1, limit: limit + 1)
                    guard ArchiveBlob.isCandidate(bytes) else { continue }
                    try body("\(table.name).\(column) rowid \(row.integer(0).map(String.init) ?? "-")", bytes)
                }
                return true
            }
        }
    }
}
