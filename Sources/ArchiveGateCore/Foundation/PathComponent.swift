/// One step of a JSON pointer into the plain rendering, kept unmaterialized until a violation
/// needs the text. Plain data: no strings are held, only indices.
enum PathComponent {
    /// The step adds nothing (the target renders inside its parent's value, like NSURL's parts).
    case none
    /// The name of `$top` entry number `index`.
    case top(Int)
    /// A fixed name: a field of a natural shape (`userInfo`).
    case fixed(StaticString)
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
    /// `/i/attributes`: the attribute dictionary of an attributed string's run `i`.
    case runAttributes(Int)

    /// Whether the step adds nothing to the pointer.
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    func token(in archive: KeyedArchive) -> String {
        switch self {
        case .none: return ""
        case .top(let index): return "/" + JSONPointer.escape(archive.top[index].name)
        case .fixed(let name): return "/" + JSONPointer.escape(name.description)
        case .field(let uid, let pair):
            return "/" + JSONPointer.escape(archive.plist.string(at: archive.plist.dictionaryKey(archive.plistIndex(of: uid), pair: pair)) ?? "")
        case .fieldElement(let uid, let pair, let element):
            return PathComponent.field(uid: uid, pair: pair).token(in: archive) + "/\(element)"
        case .index(let index): return "/\(index)"
        case .dictionaryKey(let keyUID): return "/" + JSONPointer.escape(archive.stringValue(ofObject: keyUID) ?? "")
        case .pairKey(let index): return "/\(index)/key"
        case .pairValue(let index): return "/\(index)/value"
        case .runAttributes(let index): return "/\(index)/attributes"
        }
    }
}
