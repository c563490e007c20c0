import ArchiveGateCore

/// What a caller hands to ``ResultStore/put(_:)``: everything about a result except what the
/// store assigns (id, timestamps, ETag).
public struct NewResult: Hashable, Sendable {
    /// The tenant that owns the result; every later lookup must name it.
    public var tenant: String
    /// SHA-256 of the archive bytes as received (after gzip inflation), 64 hex digits.
    public var sha256: String
    /// The archive's size in bytes.
    public var size: Int
    /// Where the archive came from.
    public var source: ResultSource
    /// How the converted JSON is shaped.
    public var mode: OutputMode
    /// Identifies the policy (and limits) the report was made under; part of the idempotency key
    /// with tenant, sha256 and mode, so the same bytes after a policy change are judged again
    /// instead of returning the old verdict. Opaque to the store; "" when the caller has none.
    public var policyDigest: String
    /// The validation report as JSON, stored and returned byte for byte.
    public var report: [UInt8]
    /// The converted JSON, stored and returned byte for byte; nil when the policy rejected the archive.
    public var convertedJSON: [UInt8]?
    /// The tenant's allowance this put must fit in; nil for none.
    public var quota: StorageQuota?
    /// Whether the caller asked to keep the sanitized archive (`POST /v1/archives?sanitize=true`).
    /// Part of the idempotency key: a re-upload asking for the archive must not get back an earlier
    /// result stored without one.
    public var requestsSanitizedArchive: Bool
    /// The archive ArchiveGate wrote under the policy (issue 19), stored and returned byte for byte;
    /// nil when none was asked for or the policy rejected the archive. Only
    /// ``ResultStore/sanitizedArchive(tenant:id:)`` reads it back.
    public var sanitizedArchive: [UInt8]?
    /// The file name the uploader gave (`POST /v1/archives?name=`), kept to label the result in
    /// listings; nil for none. Not part of the idempotency key: a re-upload of the same bytes under
    /// another name gets the earlier result, with its name. At most ``maxNameBytes`` UTF-8 bytes,
    /// no control characters.
    public var name: String?

    /// The longest ``name`` a store keeps, in UTF-8 bytes (a file name on common file systems).
    public static let maxNameBytes = 255

    public init(
        tenant: String, sha256: String, size: Int, source: ResultSource, mode: OutputMode,
        report: [UInt8], convertedJSON: [UInt8]?, policyDigest: String = "", quota: StorageQuota? = nil,
        requestsSanitizedArchive: Bool = false, sanitizedArchive: [UInt8]? = nil, name: String? = nil
    ) {
        self.name = name
        self.requestsSanitizedArchive = requestsSanitizedArchive
        self.sanitizedArchive = sanitizedArchive
        self.policyDigest = policyDigest
        self.tenant = tenant
        self.sha256 = sha256
        self.size = size
        self.source = source
        self.mode = mode
        self.report = report
        self.convertedJSON = convertedJSON
        self.quota = quota
    }

    /// What the result occupies in the store (report, JSON and sanitized archive), the figure quotas count.
    var storedBytes: Int64 { Int64(report.count + (convertedJSON?.count ?? 0) + (sanitizedArchive?.count ?? 0)) }
}
