import Foundation

/// Rendering of the compact encodings inside some Foundation classes: NSURL base chains, NSValue
/// geometry and the run table of NSAttributedString (decoded by `KeyedArchive+FoundationValues`).
extension PlainRenderer {
    /// The absolute string of an NSURL, resolving `NS.relative` against the chain of `NS.base`s.
    func resolveURL(_ uid: Int) throws(ArchiveError) -> String {
        var relatives = [String]()
        var current = uid
        while current != 0 {
            guard relatives.count < limits.maxDepth else {
                throw ArchiveError(.depthLimitExceeded, path: "/$objects/\(uid)", "NSURL base chain is longer than \(limits.maxDepth)")
            }
            guard archive.archiveClass(of: current)?.shape == .url,
                  let relative = archive.field(current, "NS.relative").flatMap(archive.referencedUID).flatMap(archive.stringValue(ofObject:)) else {
                throw malformed(current, "has no NS.relative string")
            }
            relatives.append(relative)
            current = archive.field(current, "NS.base").flatMap(archive.referencedUID) ?? 0
        }
        var resolved: URL?
        for relative in relatives.reversed() {
            resolved = URL(string: relative, relativeTo: resolved)?.absoluteURL ?? resolved
        }
        return resolved?.absoluteString ?? relatives[0]
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

    /// NSAttributedString's `NSAttributeInfo`: varint pairs (run length, attribute-dictionary index)
    /// as JSON objects `{"location","length","attributes"}`.
    mutating func appendRuns(from data: ArraySlice<UInt8>) {
        var reader = VarintReader(data)
        var location: UInt64 = 0
        var first = true
        while let length = reader.next(), let attributes = reader.next() {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            output.append("{\"location\":")
            output.appendInteger(Int128(location))
            output.append(",\"length\":")
            output.appendInteger(Int128(length))
            output.append(",\"attributes\":")
            output.appendInteger(Int128(attributes))
            output.append(UInt8(ascii: "}"))
            location &+= length
        }
    }
}
