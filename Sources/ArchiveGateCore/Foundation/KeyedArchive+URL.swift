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
            guard relatives.count < limit, classShape(of: current) == .url,
                  let relative = referencedString(current, "NS.relative") else { return nil }
            relatives.append(relative)
            current = fieldTarget(current, "NS.base") ?? 0
        }
        return relatives
    }

    /// The absolute string of the NSURL built from `relatives` (the URL's own first, then its
    /// bases), or nil when NSURL refuses one of the strings — and with it the whole decode — or
    /// the result is empty.
    ///
    /// A base is handed on as a `URL` made from its absolute string, never by bridging the NSURL:
    /// the bridge traps on an NSURL that `URL` cannot represent (an empty string), and so does
    /// corelibs' decoder, so such a chain is refused here rather than crashing.
    public static func absoluteURLString(relatives: [String]) -> String? {
        // Nearly every archived URL is one absolute string with no base, which NSURL keeps verbatim;
        // asking CFURL costs ~8 µs a URL (45 % of validate's CPU on issue 18's dense archive).
        if relatives.count == 1, isPlainAbsoluteURL(relatives[0]) { return relatives[0] }
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
        // An empty URL is nothing Apple's NSURL builds (`URLWithString:@""` is nil) and corelibs'
        // traps bridging it to URL (NSError's userInfo does), so it is refused too.
        // The decoder hands the NSURL on as a `URL` too, and that bridge traps on a string `URL`
        // refuses (`http://[::1`, an unterminated IPv6 literal, oracle family url-text): refused.
        guard let text = resolved.flatMap({ Optional($0.absoluteString).flatMap { $0 } }), !text.isEmpty, URL(string: text) != nil else {
            return nil
        }
        return text
    }

    /// NSURL's rule: the URL its relatives resolve to is one NSURL accepts.
    func checkURL(_ object: inout ShapeCheckObject) {
        let uid = object.uid
        if plainAbsoluteURLWithoutBase(uid) != nil { return }
        if hasReferencedString(uid, "NS.relative"), let relatives = urlRelatives(uid, limit: objectCount),
           Self.absoluteURLString(relatives: relatives) == nil {
            object.report(ShapeProblem(.invalidValue, key: "NS.relative", "\(object.className) NS.relative is not a URL NSURL accepts"))
        }
    }

    /// The plist index of NSURL object `uid`'s `NS.relative` string when the URL has no `NS.base`
    /// and that string is an inline ASCII or UTF-8 string `isPlainAbsoluteURL` accepts: the common
    /// case, which `absoluteURLString` would return verbatim, decided on the plist's bytes without
    /// building the strings of `urlRelatives` (the shape check asks whether there is one, the
    /// renderer writes it straight from the bytes). Nil means only "ask the general path".
    func plainAbsoluteURLWithoutBase(_ uid: Int) -> Int? {
        guard classShape(of: uid) == .url, (fieldTarget(uid, "NS.base") ?? 0) == 0,
              let target = fieldTarget(uid, "NS.relative"), target != 0,
              let classIndex = classIndex(of: target), classes[classIndex].isInline else { return nil }
        let index = plistIndex(of: target)
        let kind = plist.kind(of: index)
        guard kind == .asciiString || kind == .utf8String else { return nil }
        let (start, length) = plist.stringStorage(at: index)
        // Only ASCII passes the check, and ASCII bytes are their string's UTF-8 exactly.
        let verbatim = plist.bytes.withUnsafeBufferPointer { Self.isPlainAbsoluteURL(UnsafeBufferPointer(rebasing: $0[start ..< start + length])) }
        return verbatim ? index : nil
    }

    /// Whether `text` is an absolute URL NSURL takes as it is, verbatim: a scheme, `://`, then only
    /// RFC 2396's unreserved and reserved characters, `%` with two hex digits, and at most one `#`.
    /// Anything else (spaces, non-ASCII, brackets, a lone `%`, a second `#`, no scheme) goes to NSURL
    /// itself. `KeyedArchiveURLTests` checks the two agree over generated strings.
    static func isPlainAbsoluteURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isPlainAbsoluteURL($0) }
    }

    /// `isPlainAbsoluteURL` of UTF-8 bytes.
    static func isPlainAbsoluteURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var utf8 = bytes.makeIterator()
        // Scheme: a letter, then letters, digits, "+", "-", ".", up to ":".
        guard let first = utf8.next(), isLetter(first) else { return false }
        var byte: UInt8?
        while true {
            byte = utf8.next()
            guard let current = byte else { return false }
            if current == UInt8(ascii: ":") { break }
            guard isLetter(current) || isDigit(current) || current == UInt8(ascii: "+") || current == UInt8(ascii: "-") || current == UInt8(ascii: ".") else { return false }
        }
        guard utf8.next() == UInt8(ascii: "/"), utf8.next() == UInt8(ascii: "/") else { return false }
        var fragments = 0
        var hexDigitsOwed = 0
        while let current = utf8.next() {
            if hexDigitsOwed > 0 {
                guard isHexDigit(current) else { return false }
                hexDigitsOwed -= 1
            } else if current == UInt8(ascii: "%") {
                hexDigitsOwed = 2
            } else if current == UInt8(ascii: "#") {
                fragments += 1
                guard fragments == 1 else { return false }
            } else if !(isLetter(current) || isDigit(current) || isPlainURLPunctuation(current)) {
                return false
            }
        }
        return hexDigitsOwed == 0
    }

    /// RFC 2396's marks `-_.!~*'()` and reserved `;/?:@&=+$,`.
    private static func isPlainURLPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"), UInt8(ascii: "*"),
             UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ";"), UInt8(ascii: "/"), UInt8(ascii: "?"),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "$"),
             UInt8(ascii: ","):
            true
        default:
            false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
