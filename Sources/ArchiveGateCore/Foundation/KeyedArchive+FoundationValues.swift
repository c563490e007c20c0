/// The compact encodings inside some Foundation classes — NSValue geometry strings, NSDecimalNumber
/// mantissas, NSIndexSet run tables — decoded once here, so that the shape check and the renderers
/// agree on what is readable. All bounded by the bytes present; none recurse.
extension KeyedArchive {
    /// What an NSValue holds, in the forms ArchiveGate renders.
    public struct ValueContents: Sendable {
        /// The JSON member names (`x`, `y`, `width`, …).
        public let names: [StaticString]
        /// Doubles for geometry; empty for ranges (see `range`).
        public let values: [Double]
        /// NSRange's location and length, exact.
        public let range: (location: Int64, length: Int64)?
    }

    /// NSValue's geometry and range forms (`NS.special` 1, 2, 3, 4, 12); nil for anything else.
    public func valueContents(_ uid: Int) -> ValueContents? {
        // Read with decodeInteger, in place: a reference is no number to it.
        guard let special = inlineInteger(uid, "NS.special") else { return nil }
        func numbers(_ key: StaticString, count: Int) -> [Double]? {
            // Foundation decodes the geometry string as an object: a reference, never inline.
            guard let text = referencedString(uid, key) else { return nil }
            let values = Self.numbersIn(text)
            return values.count == count ? values : nil
        }
        switch special {
        case 1:
            return numbers("NS.pointval", count: 2).map { ValueContents(names: ["x", "y"], values: $0, range: nil) }
        case 2:
            return numbers("NS.sizeval", count: 2).map { ValueContents(names: ["width", "height"], values: $0, range: nil) }
        case 3:
            return numbers("NS.rectval", count: 4).map { ValueContents(names: ["x", "y", "width", "height"], values: $0, range: nil) }
        case 4:
            guard let location = scalarField(uid, "NS.rangeval.location").flatMap(plist.int64(at:)),
                  let length = scalarField(uid, "NS.rangeval.length").flatMap(plist.int64(at:)) else { return nil }
            return ValueContents(names: ["location", "length"], values: [], range: (location, length))
        case 12:
            var insets = [Double]()
            for key: StaticString in ["NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"] {
                // Read with decodeDouble, which does not follow a UID: inline only. An integer beyond
                // 64 bits is no number decodeDouble reads (Foundation gives 0; oracle --seed 7 --only 562045).
                guard let index = field(uid, key),
                      plist.kind(of: index) == .real || (plist.kind(of: index) == .integer && plist.int64(at: index) != nil),
                      let value = plist.double(at: index) else { return nil }
                insets.append(value)
            }
            return ValueContents(names: ["top", "left", "bottom", "right"], values: insets, range: nil)
        default:
            return nil
        }
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
    public func decimalString(_ uid: Int) -> String? {
        // Apple reads every field raw (decodeInt32/decodeBool/decodeBytes): a reference is no value
        // to it. (corelibs reads NS.mantissa with decodeObject and mis-combines it: bug 1 of the oracle.)
        guard let exponent = inlineInteger(uid, "NS.exponent"), let length = inlineInteger(uid, "NS.length"),
              let mantissa = field(uid, "NS.mantissa").flatMap({ plist.data(at: $0) }),
              (0 ... 8).contains(length), mantissa.count == 16, (-128 ... 127).contains(exponent) else { return nil }
        if let flag = field(uid, "NS.negative"), plist.uid(at: flag) != nil { return nil }
        let negative = field(uid, "NS.negative").map { plist.boolValue(at: $0) } ?? false
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
    public func indexRanges(_ uid: Int) -> [(location: UInt64, length: UInt64)]? {
        // Foundation reads NSRangeCount, NSLocation and NSLength with decodeInteger, in place: a
        // reference there is no number to it (corelibs reads 0), so only inline integers count.
        guard let count = inlineInteger(uid, "NSRangeCount"), count >= 0 else { return nil }
        if count == 0 { return [] }
        if count == 1, let location = inlineInteger(uid, "NSLocation"), let length = inlineInteger(uid, "NSLength"), location >= 0, length >= 0 {
            guard Self.withinIndexRange(location: UInt64(location), length: UInt64(length)) else { return nil }
            // `NSIndexSet(indexesIn:)` of an empty range is the empty set.
            return length == 0 ? [] : [(UInt64(location), UInt64(length))]
        }
        if count == 1 { return nil }
        guard let dataIndex = dataIndex(field(uid, "NSRangeData")), let data = plist.data(at: dataIndex) else { return nil }
        var reader = VarintReader(data)
        var ranges = [(location: UInt64, length: UInt64)]()
        while ranges.count < count, let location = reader.next(), let length = reader.next() {
            guard Self.withinIndexRange(location: location, length: length) else { return nil }
            ranges.append((location, length))
        }
        // Foundation refuses a table with bytes left over, as one with too few; adding an empty
        // range adds no index.
        return ranges.count == count && reader.isAtEnd ? ranges.filter { $0.length > 0 } : nil
    }
}

extension KeyedArchive {
    /// Whether a range of indexes ends at or before `NSNotFound` (Int.max), the largest end an
    /// NSIndexSet can hold: a range past it overflows Foundation's arithmetic (oracle --seed 7
    /// --only 399311 traps corelibs enumerating a range at Int.max).
    static func withinIndexRange(location: UInt64, length: UInt64) -> Bool {
        let (end, overflow) = location.addingReportingOverflow(length)
        return !overflow && end <= UInt64(Int64.max)
    }
}

/// Little-endian base-128 varints, as NSIndexSet and NSAttributedString pack their runs.
struct VarintReader {
    private let data: Slice<ByteStorage>
    private var position: Int

    init(_ data: Slice<ByteStorage>) {
        self.data = data
        self.position = data.startIndex
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == data.endIndex }

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
