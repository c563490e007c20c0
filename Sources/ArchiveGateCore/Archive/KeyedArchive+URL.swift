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
    public static func absoluteURLString(relatives: [String]) -> String? {
        var resolved: NSURL?
        for relative in relatives.reversed() {
            guard let url = NSURL(string: relative, relativeTo: resolved.map { $0 as URL }) else { return nil }
            resolved = url
        }
        return resolved?.absoluteString
    }
}
