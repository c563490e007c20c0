/// What a reference site expects of its target. Small and payload-free of references, because
/// the walk creates one per edge.
enum SiteExpectation {
    /// Any class in the policy's `allow` set.
    case allowed
    /// Already checked where the enclosing collection was referenced.
    case unchecked
    /// An `ExpectationTable` entry: a key schema's or the root's expectation, or what Foundation
    /// itself decodes inside one of its classes (NSURL's `NS.relative` is a string …).
    case entry(Int32)
}

/// One reference from an object (or `$top`) to another object.
struct Edge {
    var target: Int
    /// Nil for `$top` entries.
    var site: ReferenceSite?
    var topName: String?
    var expectation: SiteExpectation
    var component: PathComponent

    init(target: Int, site: ReferenceSite?, topName: String? = nil, expectation: SiteExpectation, component: PathComponent) {
        self.target = target
        self.site = site
        self.topName = topName
        self.expectation = expectation
        self.component = component
    }
}

/// One step of a JSON pointer into the plain rendering, kept unmaterialized until a violation
/// needs the text.
enum PathComponent: Equatable {
    /// The step adds nothing (the target renders inside its parent's value, like NSURL's parts).
    case none
    /// A fixed name: a `$top` key, or a field of a natural shape (`userInfo`).
    case name(String)
    /// Field pair `pair` of object `uid`, named by its archive key verbatim.
    case field(uid: Int, pair: Int)
    /// Element `element` of the array held inline in field pair `pair` of `uid`.
    case fieldElement(uid: Int, pair: Int, element: Int)
    case index(Int)
    /// A dictionary value under a string key object.
    case dictionaryKey(keyUID: Int)
    /// `/i/key` and `/i/value` of a dictionary with non-string keys.
    case pairKey(Int)
    case pairValue(Int)

    func token(in archive: KeyedArchive) -> String {
        switch self {
        case .none: return ""
        case .name(let name): return "/" + JSONPointer.escape(name)
        case .field(let uid, let pair):
            return "/" + JSONPointer.escape(archive.plist.string(at: archive.plist.dictionaryKey(archive.plistIndex(of: uid), pair: pair)) ?? "")
        case .fieldElement(let uid, let pair, let element):
            return PathComponent.field(uid: uid, pair: pair).token(in: archive) + "/\(element)"
        case .index(let index): return "/\(index)"
        case .dictionaryKey(let keyUID): return "/" + JSONPointer.escape(archive.stringValue(ofObject: keyUID) ?? "")
        case .pairKey(let index): return "/\(index)/key"
        case .pairValue(let index): return "/\(index)/value"
        }
    }
}
