import ArchiveGateCore

/// What a SARIF rule says about a code: its family (policy violation, danger finding, malformed
/// input, limit, nothing scanned), a short description made of the family and the code's own words,
/// and a help URI into docs/GATES.md, whose sections of the same names point on to the reference.
/// The codes themselves are catalogued once in the core; nothing here lists them.
struct SarifRule: Sendable {
    enum Family: String, Sendable {
        case policy = "Policy violation"
        case shape = "Foundation shape violation"
        case danger = "Danger finding"
        case malformed = "Malformed input"
        case limit = "Not fully checked"
        case nothingScanned = "Nothing scanned"

        /// The docs/GATES.md heading's anchor.
        var anchor: String { rawValue.lowercased().replacingOccurrences(of: " ", with: "-") }
    }

    var id: String
    var family: Family
    /// A longer text where the core has one (a danger catalogue entry's reason).
    var fullDescription: String?

    /// Where the rules' help URIs point: the documentation's address (an identifier, as the
    /// problem documents' `https://archivegate.dev/problems/<code>` types are).
    static let documentation = "https://archivegate.dev/docs/GATES.md"

    /// "Policy violation: class not allowed" for `policy.class_not_allowed`.
    var shortDescription: String {
        let words = id.split(separator: ".", maxSplits: 1).last.map(String.init) ?? id
        return "\(family.rawValue): \(words.replacingOccurrences(of: "_", with: " "))"
    }

    var helpURI: String { "\(Self.documentation)#\(family.anchor)" }

    init(violation code: ViolationCode) {
        id = code.rawValue
        family = code.rawValue.hasPrefix("policy.") ? .policy : .shape
    }

    init(finding code: DangerCode) {
        id = code.rawValue
        family = .danger
        fullDescription = DangerCatalogue.builtIn.entry(code)?.reason
    }

    init(error code: ArchiveGateError.Code) {
        id = code.rawValue
        family = code.isLimit ? .limit : .malformed
    }

    /// The rule of a verdict that no violation, finding or error explains (`batch.no_archive`,
    /// `danger.nested_archive` when its finding was acknowledged).
    init(verdict: Verdict) {
        id = verdict.reason ?? verdict.name
        switch verdict {
        case .inconclusive(.noArchiveFound): family = .nothingScanned
        case .inconclusive(.nestedArchiveNotDecoded): family = .danger
        case .inconclusive: family = .limit
        case .malformed: family = .malformed
        default: family = .policy
        }
    }
}
