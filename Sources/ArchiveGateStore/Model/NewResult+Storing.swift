/// The rules every store applies to a caller's ``NewResult``: one place, so SQLite and PostgreSQL
/// refuse and stamp results identically.
extension NewResult {
    /// Checks the input and normalises the digest to lower case.
    /// - Throws: ``ResultStoreError/Code/invalidArgument``.
    func validated() throws(ResultStoreError) -> NewResult {
        var new = self
        new.sha256 = new.sha256.lowercased()
        guard !new.tenant.isEmpty else { throw ResultStoreError(.invalidArgument, "the tenant is empty") }
        guard new.sha256.utf8.count == 64, new.sha256.utf8.allSatisfy({ $0.isLowerHexDigit }) else {
            throw ResultStoreError(.invalidArgument, "sha256 must be 64 hex digits")
        }
        guard new.size >= 0 else { throw ResultStoreError(.invalidArgument, "size must not be negative") }
        guard new.sanitizedArchive == nil || new.requestsSanitizedArchive else {
            throw ResultStoreError(.invalidArgument, "a sanitized archive was given without requestsSanitizedArchive")
        }
        if let name = new.name, !Self.isValidName(name) {
            throw ResultStoreError(.invalidArgument, "a name is 1 to \(Self.maxNameBytes) UTF-8 bytes without control characters")
        }
        if case .url(let url) = new.source, url.isEmpty || url == "upload" {
            throw ResultStoreError(.invalidArgument, "a URL source must be a URL")
        }
        return new
    }

    /// The row to insert, with the id, timestamps and ETag the store assigns.
    func stored(createdAt: Int64, retention: Int64) -> StoredResult {
        let (expiresAt, overflow) = createdAt.addingReportingOverflow(retention)
        let id = ResultID.generate()
        let summary = ResultSummary(
            id: id, tenant: tenant, createdAt: Timestamp.date(createdAt),
            expiresAt: Timestamp.date(overflow ? .max : expiresAt), sha256: sha256, size: size,
            source: source, mode: mode, hasConvertedJSON: convertedJSON != nil,
            // Results never change, so the id alone is a strong validator of the stored JSON.
            etag: "\"\(id)\"", hasSanitizedArchive: sanitizedArchive != nil, name: name
        )
        return StoredResult(summary: summary, report: report, convertedJSON: convertedJSON)
    }
}

extension NewResult {
    /// Whether `name` may be stored as a result's ``name``: 1 to ``maxNameBytes`` UTF-8 bytes and no
    /// control character (C0, DEL, C1), so it prints safely in a listing or a log line.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxNameBytes
            && !name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}

private extension UInt8 {
    var isLowerHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
    }
}
