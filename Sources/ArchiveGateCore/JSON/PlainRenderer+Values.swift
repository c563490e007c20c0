import Foundation

/// Rendering of the compact encodings inside some Foundation classes: NSURL base chains, NSValue
/// and geometry (decoded by `KeyedArchive+FoundationValues`).
extension PlainRenderer {
    /// The absolute string of an NSURL, resolving `NS.relative` against the chain of `NS.base`s as
    /// NSURL does (`KeyedArchive+URL`).
    func resolveURL(_ uid: Int) throws(ArchiveError) -> String {
        guard let relatives = archive.urlRelatives(uid, limit: limits.maxDepth) else {
            throw malformed(uid, "has no NS.relative string, or a base chain longer than \(limits.maxDepth)")
        }
        // A chain NSURL refuses is a shape finding (the walk reported it); inspection still shows
        // the URL's own string.
        return KeyedArchive.absoluteURLString(relatives: relatives) ?? relatives[0]
    }

    /// The plist string object an NSURL renders as, when `resolveURL` would return it unchanged:
    /// no `NS.base` and a plain absolute `NS.relative` (`KeyedArchive.plainAbsoluteURLWithoutBase`),
    /// nearly every archived URL. It is then written straight from the plist bytes, without
    /// building a `String`; nil sends anything else to `resolveURL`.
    func verbatimURLString(_ uid: Int) -> Int? {
        // `urlRelatives`' limit must admit a chain of one, as `resolveURL` asks it to.
        guard limits.maxDepth > 0 else { return nil }
        return archive.plainAbsoluteURLWithoutBase(uid)
    }

    /// NSValue's geometry and range forms; false for anything else (ObjC-typed values, which then
    /// render as `{"$class":"NSValue",…}`).
    mutating func appendValue(_ uid: Int) -> Bool {
        guard let contents = archive.valueContents(uid) else { return false }
        if let range = contents.range {
            output.append("{\"location\":")
            output.appendInteger(Int128(range.location))
            output.append(",\"length\":")
            output.appendInteger(Int128(range.length))
            output.append(UInt8(ascii: "}"))
            return true
        }
        output.append(UInt8(ascii: "{"))
        for (position, name) in contents.names.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            output.append(name)
            output.append("\":")
            output.appendDouble(contents.values[position])
        }
        output.append(UInt8(ascii: "}"))
        return true
    }
}
