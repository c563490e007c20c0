/// An opaque position in a tenant's newest-first listing: the (createdAt, id) of the last result
/// on the previous page.
///
/// Its text is unpadded base64url of `1:<createdAt milliseconds>:<id>`; the leading `1` versions
/// the format. Clients must treat it as opaque. A cursor names no tenant and grants nothing: used
/// by another tenant it merely positions that tenant's own listing.
public struct ResultCursor: Hashable, Sendable, CustomStringConvertible {
    /// Longer texts are refused before decoding.
    static let maximumLength = 96

    let createdAtMilliseconds: Int64
    let id: String

    init(createdAtMilliseconds: Int64, id: String) {
        self.createdAtMilliseconds = createdAtMilliseconds
        self.id = id
    }

    /// Parses a cursor text that a previous page returned.
    /// - Throws: ``ResultStoreError/Code/invalidCursor`` for anything this store did not issue.
    public init(_ text: String) throws(ResultStoreError) {
        guard text.utf8.count <= Self.maximumLength,
              let bytes = Base64URL.decode(text),
              let plain = String(validating: bytes, as: UTF8.self)
        else { throw ResultStoreError(.invalidCursor, "the cursor is not one this server issued") }
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "1",
              let milliseconds = Int64(parts[1]), milliseconds >= 0, String(milliseconds) == parts[1],
              ResultID.isWellFormed(String(parts[2]))
        else { throw ResultStoreError(.invalidCursor, "the cursor is not one this server issued") }
        self.init(createdAtMilliseconds: milliseconds, id: String(parts[2]))
    }

    /// The opaque text to hand to clients.
    public var description: String {
        Base64URL.encode(Array("1:\(createdAtMilliseconds):\(id)".utf8))
    }
}
