import Foundation

/// NSURL as Foundation's `initWithCoder:` builds it: `NS.relative` resolved against the NSURL in
/// `NS.base` (itself built the same way), by NSURL's own resolution — which keeps a `..` that
/// climbs above the root (`../d` against `https://h.example/p` is `https://h.example/../d`), unlike
/// RFC 3986's `URL` resolution.
extension KeyedArchive {
    /// The `NS.relative` strings of an NSURL and its chain of `NS.base`s, the URL's own first; nil
    /// when a link is not an NSURL with a string `NS.relative`, or the chain is longer than `limit`
    /// (a cycle of bases is one).
    public func urlRelatives(_ uid: Int, limit: Int) -> [String]? {
        var relatives = [String]()
        var current = uid
        while current != 0 {
            guard relatives.count < limit, archiveClass(of: current)?.shape == .url,
                  let relative = referencedString(current, "NS.relative") else { return nil }
            relatives.append(relative)
            current = field(current, "NS.base").flatMap(referencedUID) ?? 0
        }
        return relatives
    }

    /// The absolute string of the NSURL built from `relatives` (the URL's own first, then its
    /// bases), or nil when NSURL refuses one of the strings — and with it the whole decode.
    ///
    /// A base is handed on as a `URL` made from its absolute string, never by bridging the NSURL:
    /// the bridge traps on an NSURL that `URL` cannot represent (an empty string), and so does
    /// corelibs' decoder, so such a chain is refused here rather than crashing.
    public static func absoluteURLString(relatives: [String]) -> String? {
        var resolved: NSURL?
        for relative in relatives.reversed() {
            var base: URL?
            if let resolved {
                guard let text = Optional(resolved.absoluteString).flatMap({ $0 }), !text.isEmpty, let url = URL(string: text) else { return nil }
                base = url
            }
            guard let url = NSURL(string: relative, relativeTo: base) else { return nil }
            resolved = url
        }
        return resolved.flatMap { Optional($0.absoluteString).flatMap { $0 } }
    }
}
