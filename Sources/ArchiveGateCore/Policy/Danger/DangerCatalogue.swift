/// The built-in, versioned list of classes and archive shapes that the public record of
/// NSKeyedUnarchiver exploitation names. It is data: the matcher (`DangerMatcher`) reads it and
/// nothing else decides what is dangerous. A new entry is a new row here and a bumped `version`.
public struct DangerCatalogue: Sendable {
    /// Bumped whenever an entry is added, removed or changes meaning; reports carry it.
    public let version: Int
    public let entries: [DangerEntry]

    /// The entry with `code`, if any.
    public func entry(_ code: DangerCode) -> DangerEntry? { entries.first { $0.code == code } }

    /// The entry whose class list names `className` exactly or by prefix (first match wins).
    public func classEntry(for className: String) -> DangerEntry? {
        classMatch(for: className)?.entry
    }

    /// The entry whose class list names `className` (compared as Swift strings: canonically
    /// equivalent spellings match) and the catalogue's own spelling of what it matched.
    public func classMatch(for className: String) -> (entry: DangerEntry, name: String)? {
        for entry in entries {
            switch entry.match {
            case .classes(let names):
                if let found = names.firstIndex(of: className) { return (entry, names[found]) }
            case .classPrefix(let prefix) where className.hasPrefix(prefix):
                return (entry, className)
            default:
                continue
            }
        }
        return nil
    }

    /// The entries that also recognise an object by its field keys, whatever its class says.
    public var keyEntries: [DangerEntry] { entries.filter { !$0.keys.isEmpty } }

    /// The entry that matches `shape`.
    public func shapeEntry(_ shape: DangerEntry.Shape) -> DangerEntry? {
        entries.first { if case .shape(shape) = $0.match { true } else { false } }
    }
}

/// One row of the catalogue.
public struct DangerEntry: Hashable, Sendable {
    /// What the entry matches in an archive.
    public enum Match: Hashable, Sendable {
        /// Exact `$classname`s.
        case classes(Set<String>)
        /// Any `$classname` starting with this text.
        case classPrefix(String)
        /// A structural pattern (see `Shape`).
        case shape(Shape)
    }

    /// Archive shapes that are dangerous whatever the classes involved.
    public enum Shape: String, Hashable, Sendable {
        /// An NSURL whose `NS.minimalBookmarkData` field carries bookmark bytes to be resolved.
        case urlBookmark
        /// A `$classname` that is not a Foundation class while `$classes` claims a Foundation
        /// superclass, so that an `isKindOfClass:` check in the app admits it.
        case claimedFoundationSuperclass
        /// NSData whose bytes are themselves a property list or keyed archive (a second decode).
        case nestedArchive
    }

    /// Stable `danger.*` code (`DangerCode`), as reports, metrics and logs show it.
    public let code: DangerCode
    public let match: Match
    /// Field keys that also recognise the entry's objects whatever their class says: an object with
    /// at least one of them (the keys Foundation's own `encodeWithCoder:` writes for the class) is
    /// found under a renamed or unknown class too. Empty for most entries.
    public let keys: Set<String>
    /// One line: why this is dangerous.
    public let reason: String
    /// Where the public record says so (advisory, article or pull request).
    public let reference: String

    public init(code: DangerCode, match: Match, keys: Set<String> = [], reason: String, reference: String) {
        self.code = code
        self.match = match
        self.keys = keys
        self.reason = reason
        self.reference = reference
    }
}
