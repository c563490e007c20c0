/// The catalogue of lint codes: every code a `PolicyLint.Finding` can carry. Its `rawValue` is
/// what `policy check --strict`, server start-up errors and logs show; it never changes.
///
/// Adding a lint code is a one-place edit here (one case in `Base` and one `public static let`);
/// the rule that finds it goes in `PolicyLint`.
///
/// It is `RawRepresentable` over `String`, so the standard library encodes it as its bare
/// identifier (`"code":"lint.any_class"`) and decodes only known identifiers.
public struct LintCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Codable {
    private enum Base: String, Sendable, CaseIterable {
        case anyClass = "lint.any_class"
        case nsobject = "lint.nsobject"
        case groupRoot = "lint.group_root"
        case unknownClass = "lint.unknown_class"
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// `*` outside an inspection policy: admits every class.
    public static let anyClass = LintCode(.anyClass)
    /// `NSObject` named as a class: stands for every class.
    public static let nsobject = LintCode(.nsobject)
    /// A whole named group admitted at the root.
    public static let groupRoot = LintCode(.groupRoot)
    /// A class name no sample, schema or known class uses (a typo such as `NSStrnig`): reported by
    /// `policy check` as a warning (`PolicyLint.classNameWarnings`), never a load-time finding.
    public static let unknownClass = LintCode(.unknownClass)

    /// Every code, for catalogues, decoding and tests.
    public static let all: [LintCode] = Base.allCases.map(LintCode.init)

    /// The stable identifier, e.g. `lint.any_class`.
    public var rawValue: String { base.rawValue }

    public var description: String { rawValue }

    /// The code with this identifier, if the catalogue has one.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }
}
