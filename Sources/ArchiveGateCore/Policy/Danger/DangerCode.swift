/// The catalogue of danger codes: every code a `DangerEntry` (and so a `ValidationReport.Finding`)
/// can carry. Its `rawValue` is what reports, metrics and logs show; clients rely on it, so it
/// never changes.
///
/// Adding a danger code is a one-place edit here (one case in `Base` and one `public static let`);
/// the entry that uses it goes in `DangerCatalogue+BuiltIn.swift`.
///
/// It is `RawRepresentable` over `String`, so the standard library encodes it as its bare
/// identifier (`"code":"danger.predicate"`) and decodes only known identifiers.
public struct DangerCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Codable {
    private enum Base: String, Sendable, CaseIterable {
        case predicate = "danger.predicate"
        case expression = "danger.expression"
        case sortDescriptor = "danger.sort_descriptor"
        case invocation = "danger.invocation"
        case sharedKeyDictionary = "danger.shared_key_dictionary"
        case fileBackedData = "danger.file_backed_data"
        case pfArray = "danger.pf_array"
        case knownKeysDictionary = "danger.known_keys_dictionary"
        case bigUTF8String = "danger.big_utf8_string"
        case swiftNativeBase = "danger.swift_native_base"
        case urlBookmark = "danger.url_bookmark"
        case claimedSuperclass = "danger.claimed_superclass"
        case nestedArchive = "danger.nested_archive"
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// NSPredicate and its subclasses: expression programs.
    public static let predicate = DangerCode(.predicate)
    /// NSExpression and its subclasses: key paths and functions run on evaluation.
    public static let expression = DangerCode(.expression)
    /// NSSortDescriptor: a key path and a comparison selector.
    public static let sortDescriptor = DangerCode(.sortDescriptor)
    /// NSInvocation and friends: a call waiting to happen.
    public static let invocation = DangerCode(.invocation)
    /// NSSharedKeyDictionary / NSSharedKeySet (CVE-2019-8641).
    public static let sharedKeyDictionary = DangerCode(.sharedKeyDictionary)
    /// _NSDataFileBackedFuture (CVE-2019-8646).
    public static let fileBackedData = DangerCode(.fileBackedData)
    /// _PFArray (CVE-2019-8647).
    public static let pfArray = DangerCode(.pfArray)
    /// NSKnownKeysDictionary1 (CVE-2019-8660).
    public static let knownKeysDictionary = DangerCode(.knownKeysDictionary)
    /// SGBigUTF8String (CVE-2019-8663).
    public static let bigUTF8String = DangerCode(.bigUTF8String)
    /// `__SwiftNativeNS*` runtime bridging base classes.
    public static let swiftNativeBase = DangerCode(.swiftNativeBase)
    /// An NSURL carrying bookmark bytes.
    public static let urlBookmark = DangerCode(.urlBookmark)
    /// A non-Foundation class claiming a Foundation superclass.
    public static let claimedSuperclass = DangerCode(.claimedSuperclass)
    /// NSData holding a property list or keyed archive.
    public static let nestedArchive = DangerCode(.nestedArchive)

    /// Every code, for catalogues, decoding and tests.
    public static let all: [DangerCode] = Base.allCases.map(DangerCode.init)

    /// The stable identifier, e.g. `danger.predicate`.
    public var rawValue: String { base.rawValue }

    public var description: String { rawValue }

    /// The code with this identifier, if the catalogue has one.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }
}
