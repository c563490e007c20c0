import ArchiveGateCore
import Foundation

/// A stored result's metadata without its report or JSON bytes: what a listing returns, so that a
/// page of results never loads the (possibly large) documents themselves.
public struct ResultSummary: Hashable, Sendable {
    /// 128 random bits as 22 characters of unpadded base64url (``ResultID``).
    public var id: String
    /// The owning tenant.
    public var tenant: String
    /// When the store committed the result (millisecond precision).
    public var createdAt: Date
    /// From this instant on the result is gone for every reader, whether or not it was purged yet.
    public var expiresAt: Date
    /// SHA-256 of the archive bytes, 64 lower-case hex digits.
    public var sha256: String
    /// The archive's size in bytes.
    public var size: Int
    /// Where the archive came from.
    public var source: ResultSource
    /// How the converted JSON is shaped.
    public var mode: OutputMode
    /// False for a rejected archive (stored with its report only).
    public var hasConvertedJSON: Bool
    /// A quoted strong entity tag for the converted JSON, ready for an `ETag` header.
    public var etag: String
    /// True when the result keeps the archive ArchiveGate wrote under the policy (issue 19).
    public var hasSanitizedArchive: Bool
    /// The file name given at upload (``NewResult/name``); nil for none.
    public var name: String?

    /// The quoted strong entity tag of the sanitized archive: another representation than the JSON,
    /// so another tag; derived from the id because results never change.
    public var sanitizedArchiveETag: String { "\"\(id).archive\"" }

    public init(
        id: String, tenant: String, createdAt: Date, expiresAt: Date, sha256: String, size: Int,
        source: ResultSource, mode: OutputMode, hasConvertedJSON: Bool, etag: String, hasSanitizedArchive: Bool = false, name: String? = nil
    ) {
        self.name = name
        self.hasSanitizedArchive = hasSanitizedArchive
        self.id = id
        self.tenant = tenant
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.sha256 = sha256
        self.size = size
        self.source = source
        self.mode = mode
        self.hasConvertedJSON = hasConvertedJSON
        self.etag = etag
    }
}
