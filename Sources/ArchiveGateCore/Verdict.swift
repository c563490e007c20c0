/// The one answer ArchiveGate gives about one input, whatever the door (CLI command, batch,
/// database scan, HTTP endpoint, stored result), in the shape of swift-certificates'
/// verification result: a closed set of outcomes, computed once here and only mapped to an exit
/// status or an HTTP status by each front end.
///
/// Fail closed: only `accepted` is valid (`ValidationReport.valid`). Every other outcome — a
/// policy breach, a danger finding nobody acknowledged, anything not fully checked — is not.
public enum Verdict: Hashable, Sendable, CustomStringConvertible {
    /// The policy admits the archive and no danger finding is unacknowledged.
    case accepted
    /// An inspection policy (`--allow-any-class`, an inspection tenant) admits every class and
    /// reports this many unacknowledged danger findings instead of refusing: the JSON is shown, but
    /// the archive is not valid.
    case acceptedWithFindings(findings: Int)
    /// The policy's `onViolation` is `redact`: this many violations (and unacknowledged danger
    /// findings) were cut out; the output holds only what the policy admits. Not valid: the input
    /// as it stands is not admissible.
    case redacted(violations: Int)
    /// The policy refuses the archive: this many violations (unacknowledged danger findings count
    /// under a gate policy).
    case rejected(violations: Int)
    /// The bytes are not a well-formed property list or keyed archive.
    case malformed(ArchiveGateError.Code)
    /// Not fully checked, so never valid.
    case inconclusive(Inconclusive)
    /// A well-formed property list that is not a keyed archive (`archive.not_a_keyed_archive`):
    /// plain data with no classes to admit or refuse; converted by the same JSON conventions.
    case plist

    /// Why a verdict is `inconclusive`.
    public enum Inconclusive: Hashable, Sendable, CustomStringConvertible {
        /// A configured limit or the decode deadline stopped the walk (`ArchiveGateError.isLimit`).
        case limit(ArchiveGateError.Code)
        /// NSData holds a keyed archive that was not decoded (decode nested archives to check it).
        case nestedArchiveNotDecoded
        /// A batch or database scan found no archive at all to check.
        case noArchiveFound
        /// The input holds bytes the property list does not account for, from this byte offset
        /// (`PropertyList.unaccountedByteOffset`): a gap in a binary plist's object area, or
        /// anything but whitespace and comments after an XML plist's `</plist>`. Foundation reads
        /// the archive and ignores them; ArchiveGate did not check what they hold. (A plain property
        /// list, verdict `plist`, is not checked for them: it is converted as data, not admitted.)
        case unaccountedBytes(offset: Int)

        /// A stable code: the limit's error code, `danger.nested_archive`, `batch.no_archive`,
        /// `plist.unaccounted_bytes`.
        public var description: String {
            switch self {
            case .limit(let code): code.rawValue
            case .nestedArchiveNotDecoded: "danger.nested_archive"
            case .noArchiveFound: "batch.no_archive"
            case .unaccountedBytes: "plist.unaccounted_bytes"
            }
        }

        /// The byte offset the reason points at (`"verdictOffset"`), when it has one.
        public var offset: Int? {
            if case .unaccountedBytes(let offset) = self { return offset }
            return nil
        }
    }

    /// The stable name reports and records carry as `"verdict"`.
    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .acceptedWithFindings: "acceptedWithFindings"
        case .redacted: "redacted"
        case .rejected: "rejected"
        case .malformed: "malformed"
        case .inconclusive: "inconclusive"
        case .plist: "plist"
        }
    }

    /// Every name, in the order docs/CLI.md's verdict table lists them.
    public static let names = ["accepted", "acceptedWithFindings", "redacted", "rejected", "malformed", "inconclusive", "plist"]

    /// The code that explains a `malformed` or `inconclusive` verdict (`"verdictReason"`); nil otherwise.
    public var reason: String? {
        switch self {
        case .malformed(let code): code.rawValue
        case .inconclusive(let why): why.description
        default: nil
        }
    }

    /// The byte offset an `inconclusive` verdict's reason points at (`"verdictOffset"`); nil otherwise.
    public var offset: Int? {
        if case .inconclusive(let why) = self { return why.offset }
        return nil
    }

    /// The only valid outcome: what `valid: true` means everywhere.
    public var isValid: Bool { self == .accepted }

    /// True when the policy let the input's content out (rendered JSON, a sanitized archive): accepted,
    /// redacted, or shown for inspection with its findings. A plain property list has no classes
    /// and converts too.
    public var releasesContent: Bool {
        switch self {
        case .accepted, .acceptedWithFindings, .redacted, .plist: true
        case .rejected, .malformed, .inconclusive: false
        }
    }

    public var description: String { reason.map { "\(name) (\($0))" } ?? name }

    /// The verdict on an input that could not be evaluated: a plain property list, a limit
    /// (inconclusive) or a malformed input.
    public init(_ error: ArchiveGateError) {
        if error.code == ArchiveGateError.Code(ArchiveError.Code.notAKeyedArchive) {
            self = .plist
        } else if error.isLimit {
            self = .inconclusive(.limit(error.code))
        } else {
            self = .malformed(error.code)
        }
    }

    /// The verdict on an evaluated archive — the one place the rule lives. In order: violations
    /// (and, under a gate policy, unacknowledged danger findings) reject or redact; then bytes the
    /// property list does not account for, then an undecoded nested archive leave it inconclusive;
    /// then unacknowledged findings under an inspection policy are reported without refusing;
    /// else accepted.
    public init(violations: Int, unacknowledgedFindings: Int, undecodedNestedArchives: Int,
                unaccountedByteOffset: Int? = nil, redacts: Bool, inspection: Bool) {
        let refused = violations + (inspection ? 0 : unacknowledgedFindings)
        if refused > 0 {
            self = redacts ? .redacted(violations: refused) : .rejected(violations: refused)
        } else if let unaccountedByteOffset {
            self = .inconclusive(.unaccountedBytes(offset: unaccountedByteOffset))
        } else if undecodedNestedArchives > 0 {
            self = .inconclusive(.nestedArchiveNotDecoded)
        } else if unacknowledgedFindings > 0 {
            self = .acceptedWithFindings(findings: unacknowledgedFindings)
        } else {
            self = .accepted
        }
    }
}
