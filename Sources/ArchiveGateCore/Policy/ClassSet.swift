/// What a reference site accepts: class names (exact `$classname` matches, declared subclasses
/// already added) and inline scalar kinds.
public struct ClassSet: Hashable, Sendable {
    /// Exact `$classname`s accepted.
    public var names: Set<String>
    /// Inline (non-UID) scalar kinds accepted.
    public var inlineKinds: Set<InlineKind>
    /// True when any class at all is accepted (the `*` group; inspection mode).
    public var acceptsAnyClass: Bool

    public init(names: Set<String> = [], inlineKinds: Set<InlineKind> = [], acceptsAnyClass: Bool = false) {
        self.names = names
        self.inlineKinds = inlineKinds
        self.acceptsAnyClass = acceptsAnyClass
    }

    /// Whether an object of class `name` may stand here.
    @inlinable
    public func accepts(className name: String) -> Bool { acceptsAnyClass || names.contains(name) }

    /// How the set reads in messages: `NSString | NSNumber`.
    public var summary: String {
        if acceptsAnyClass { return "any class" }
        let all = names.sorted() + inlineKinds.map(\.rawValue).sorted()
        return all.isEmpty ? "nothing" : all.joined(separator: " | ")
    }
}

/// A scalar stored directly in an object's dictionary rather than behind a UID
/// (`encodeInt:forKey:`, `encodeBool:forKey:`, `encodeBytes:length:forKey:` …).
public enum InlineKind: String, Hashable, Sendable, CaseIterable {
    case integer, real, bool, string, data

    /// The inline kind of a plist object, or nil for UIDs and containers.
    public init?(_ kind: PropertyListObject.Kind) {
        switch kind {
        case .integer: self = .integer
        case .real: self = .real
        case .bool: self = .bool
        case .asciiString, .utf8String, .utf16String: self = .string
        case .data: self = .data
        default: return nil
        }
    }
}

/// The expectation at one reference site: the classes the site accepts, and for collection
/// values what their elements (and dictionary keys) may be.
public struct Expectation: Hashable, Sendable {
    public var accepted: ClassSet
    /// Classes of array/set/ordered-set elements and of dictionary values, when constrained.
    public var elements: ClassSet?
    /// Classes of dictionary keys, when constrained.
    public var dictionaryKeys: ClassSet?

    public init(accepted: ClassSet, elements: ClassSet? = nil, dictionaryKeys: ClassSet? = nil) {
        self.accepted = accepted
        self.elements = elements
        self.dictionaryKeys = dictionaryKeys
    }
}
