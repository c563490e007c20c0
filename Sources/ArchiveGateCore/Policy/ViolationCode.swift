/// The catalogue of violation codes: every code a `ValidationReport.Violation` can carry (a
/// violation is a finding about a well-formed archive, as opposed to an error). Its `rawValue` is
/// what reports, problem documents, metrics and logs show; clients rely on it, so it never changes.
///
/// Adding a violation code is a one-place edit:
/// - a policy rule's code (`policy.*`): one case in `Rule` below (its raw string) and one
///   `public static let` beside the others;
/// - a Foundation shape code (`archive.*`, found by `KeyedArchive+ShapeCheck`): one constant in
///   `ShapeProblem.Code` (Archive/ShapeProblem.swift) — it becomes a violation code through
///   `init(_:)` below with no edit here.
public struct ViolationCode: Hashable, Sendable, CustomStringConvertible, Codable {
    private enum Base: Hashable, Sendable {
        case rule(Rule)
        case shape(ShapeProblem.Code)
    }

    /// The policy's own codes.
    private enum Rule: String, Sendable, CaseIterable {
        case classNotAllowed = "policy.class_not_allowed"
        case classMismatch = "policy.class_mismatch"
        case inlineTypeMismatch = "policy.inline_type_mismatch"
        case unknownKey = "policy.unknown_key"
        case missingRequiredKey = "policy.missing_required_key"
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// An object's class is not in the policy's `allow` set where no key schema names classes.
    public static let classNotAllowed = ViolationCode(.rule(.classNotAllowed))
    /// A key (or root, or collection element) expects other classes than the object has.
    public static let classMismatch = ViolationCode(.rule(.classMismatch))
    /// An inline scalar where a different inline kind or a referenced object was expected
    /// (NSString, NSNumber and NSData are not interchangeable).
    public static let inlineTypeMismatch = ViolationCode(.rule(.inlineTypeMismatch))
    /// A key the class schema does not name, under `unknownKeys: reject`.
    public static let unknownKey = ViolationCode(.rule(.unknownKey))
    /// A `required` key is absent or nil.
    public static let missingRequiredKey = ViolationCode(.rule(.missingRequiredKey))

    /// A Foundation object whose fields differ from what its class's `initWithCoder:` decodes.
    public init(_ shape: ShapeProblem.Code) { base = .shape(shape) }

    /// Every code, for catalogues, decoding and tests.
    public static let all: [ViolationCode] = Rule.allCases.map { ViolationCode(.rule($0)) } + ShapeProblem.Code.all.map(ViolationCode.init)

    /// The stable identifier, e.g. `policy.class_not_allowed` or `archive.shape_mismatch`.
    public var rawValue: String {
        switch base {
        case .rule(let rule): rule.rawValue
        case .shape(let shape): shape.rawValue
        }
    }

    public var description: String { rawValue }

    /// The code with this identifier, if the catalogue has one.
    public init?(rawValue: String) {
        guard let known = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    /// Encoded as its bare identifier, so JSON shows `"code":"policy.class_not_allowed"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = Self.init(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown violation code '\(text)'")
        }
        self = code
    }
}
