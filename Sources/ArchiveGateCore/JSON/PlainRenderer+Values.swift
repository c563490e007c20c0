import Foundation

/// Decoding of the compact encodings inside some Foundation classes: NSURL base chains, NSValue
/// geometry strings, NSDecimalNumber mantissas and the varint run tables of NSIndexSet and
/// NSAttributedString. All bounded by the bytes present; none recurse.
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
        let plist = archive.plist
        guard let specialIndex = archive.scalarField(uid, "NS.special"), let special = plist.int64(at: specialIndex) else { return false }
        func numbers(_ key: StaticString, count: Int) -> [Double]? {
            guard let index = archive.field(uid, key).flatMap(archive.referencedUID).flatMap(archive.stringValue(ofObject:))
                    ?? archive.scalarField(uid, key).flatMap(plist.string(at:)) else { return nil }
            let values = Self.numbersIn(index)
            return values.count == count ? values : nil
        }
        let names: [StaticString]
        let values: [Double]
        switch special {
        case 1:
            guard let found = numbers("NS.pointval", count: 2) else { return false }
            (names, values) = (["x", "y"], found)
        case 2:
            guard let found = numbers("NS.sizeval", count: 2) else { return false }
            (names, values) = (["width", "height"], found)
        case 3:
            guard let found = numbers("NS.rectval", count: 4) else { return false }
            (names, values) = (["x", "y", "width", "height"], found)
        case 4:
            guard let location = archive.scalarField(uid, "NS.rangeval.location").flatMap(plist.int64(at:)),
                  let length = archive.scalarField(uid, "NS.rangeval.length").flatMap(plist.int64(at:)) else { return false }
            (names, values) = (["location", "length"], [])
            output.append("{\"location\":")
            output.appendInteger(Int128(location))
            output.append(",\"length\":")
            output.appendInteger(Int128(length))
            output.append(UInt8(ascii: "}"))
            return true
        case 12:
            var insets = [Double]()
            for key: StaticString in ["NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"] {
                guard let value = archive.scalarField(uid, key).flatMap(plist.double(at:)) else { return false }
                insets.append(value)
            }
            (names, values) = (["top", "left", "bottom", "right"], insets)
        default:
            return false
        }
        output.append(UInt8(ascii: "{"))
        for (position, name) in names.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            output.append(name)
            output.append("\":")
            output.appendDouble(values[position])
        }
        output.append(UInt8(ascii: "}"))
        return true
    }

    /// The numbers in an NSStringFromPoint-style string such as `{{1, 2}, {3.5, 4}}`.
    static func numbersIn(_ text: String) -> [Double] {
        var values = [Double]()
        var current = ""
        for character in text {
            if character.isNumber || character == "." || character == "-" || character == "+" || character == "e" || character == "E" {
                current.append(character)
            } else if !current.isEmpty {
                if let value = Double(current) { values.append(value) }
                current = ""
            }
            if values.count > 8 { break }
        }
        if !current.isEmpty, let value = Double(current) { values.append(value) }
        return values
    }

    /// An NSDecimalNumber as its exact decimal text (`"-123.45"`, `"NaN"`), or nil when unreadable.
    func decimalString(_ uid: Int) -> String? {
        let plist = archive.plist
        guard let exponent = archive.scalarField(uid, "NS.exponent").flatMap(plist.int64(at:)),
              let length = archive.scalarField(uid, "NS.length").flatMap(plist.int64(at:)),
              let mantissaIndex = archive.scalarField(uid, "NS.mantissa"), let mantissa = plist.data(at: mantissaIndex),
              (0 ... 8).contains(length), mantissa.count >= Int(length) * 2, (-128 ... 127).contains(exponent) else { return nil }
        let negative = archive.scalarField(uid, "NS.negative").map { plist[$0].first != 0 } ?? false
        if length == 0 { return negative ? "NaN" : "0" }
        var value: UInt128 = 0
        for word in (0 ..< Int(length)).reversed() {
            let low = UInt128(mantissa[mantissa.startIndex + 2 * word])
            let high = UInt128(mantissa[mantissa.startIndex + 2 * word + 1])
            value = value << 16 | high << 8 | low
        }
        var digits = String(value)
        if exponent > 0 {
            digits += String(repeating: "0", count: Int(exponent))
        } else if exponent < 0 {
            let shift = Int(-exponent)
            if digits.count <= shift { digits = String(repeating: "0", count: shift - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -shift))
        }
        return (negative ? "-" : "") + digits
    }

    /// NSIndexSet's ranges: one inline (`NSLocation`/`NSLength`) or varint pairs in `NSRangeData`.
    func indexRanges(_ uid: Int) -> [(location: UInt64, length: UInt64)]? {
        let plist = archive.plist
        guard let count = archive.scalarField(uid, "NSRangeCount").flatMap(plist.int64(at:)), count >= 0 else { return nil }
        if count == 0 { return [] }
        if count == 1,
           let location = archive.scalarField(uid, "NSLocation").flatMap(plist.int64(at:)),
           let length = archive.scalarField(uid, "NSLength").flatMap(plist.int64(at:)), location >= 0, length >= 0 {
            return [(UInt64(location), UInt64(length))]
        }
        guard let dataIndex = archive.dataIndex(archive.field(uid, "NSRangeData")), let data = plist.data(at: dataIndex) else { return nil }
        var reader = VarintReader(data)
        var ranges = [(location: UInt64, length: UInt64)]()
        while ranges.count < count, let location = reader.next(), let length = reader.next() {
            ranges.append((location, length))
        }
        return ranges.count == count ? ranges : nil
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

/// Little-endian base-128 varints, as NSIndexSet and NSAttributedString pack their runs.
struct VarintReader {
    private let data: ArraySlice<UInt8>
    private var position: Int

    init(_ data: ArraySlice<UInt8>) {
        self.data = data
        self.position = data.startIndex
    }

    mutating func next() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < data.endIndex, shift < 64 {
            let byte = data[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
