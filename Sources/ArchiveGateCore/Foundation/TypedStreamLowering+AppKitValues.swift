/// NSFont and NSValue's geometry forms (`TypedStreamLayout.font`, `.value`).
extension TypedStreamLowerer {
    /// `i` length, `[Nc]` the serialized name, `f` size, `c` × 4 flags → `NSName`, `NSSize`, `NSfFlags`.
    mutating func font(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard let length = cursor.integer() else { return nil }
        let serialized: [UInt8]
        if length == 0 {
            serialized = []
        } else {
            guard case .byteArray(let bytes)? = cursor.single("[\(length)c]") else { return nil }
            serialized = bytes
        }
        guard let name = Self.serializedString(serialized), case .float(let size)? = cursor.single("f") else { return nil }
        var flags: Int64 = 0
        for _ in 0..<4 {
            guard let flag = cursor.integer(), (-128...255).contains(flag) else { return nil }
            flags = flags << 8 | (flag & 0xFF)
        }
        guard cursor.isAtEnd else { return nil }
        return [PropertyListValue.Entry(key: "NSName", value: .uid(builder.add(.string(name)))),
                PropertyListValue.Entry(key: "NSSize", value: .real(Double(size))),
                PropertyListValue.Entry(key: "NSfFlags", value: .integer(Int128(flags)))]
    }

    /// A string in NeXT's serialized property-list form: tag 6, byte length, UTF-16 text with a
    /// byte-order mark, zero-padded to a multiple of 4 bytes; nil otherwise.
    static func serializedString(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 10 else { return nil }
        // The 4-byte numbers are in the writer's order (little-endian in the PowerPC-era nibs too);
        // the tag, 6, tells which.
        let littleEndian = bytes[0] == 6
        func word(_ at: Int) -> Int {
            let word = bytes[at ..< at + 4]
            return (littleEndian ? word.reversed() : Array(word)).reduce(0) { $0 << 8 | Int($1) }
        }
        let length = word(4)
        // The text is padded with zeros to a multiple of 4 bytes.
        let padding = bytes.count - 8 - length
        guard word(0) == 6, length >= 2, length % 2 == 0, (0..<4).contains(padding),
              bytes[(8 + length)...].allSatisfy({ $0 == 0 }) else { return nil }
        let bigEndian: Bool
        switch (bytes[8], bytes[9]) {
        case (0xFE, 0xFF): bigEndian = true
        case (0xFF, 0xFE): bigEndian = false
        default: return nil
        }
        var units = [UInt16]()
        units.reserveCapacity(length / 2 - 1)
        var index = 10
        while index < 8 + length {
            let high = UInt16(bytes[bigEndian ? index : index + 1]), low = UInt16(bytes[bigEndian ? index + 1 : index])
            units.append(high << 8 | low)
            index += 2
        }
        return String(validating: units, as: UTF16.self)
    }

    /// `*` the type, then a point, size, rect or range structure → the keyed NSValue of that kind.
    mutating func value(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard case .cString(let type?)? = cursor.single("*"), let encoding = String(validating: type, as: UTF8.self),
              case .structure(let name, let fields)? = cursor.single(encoding), cursor.isAtEnd else { return nil }
        var numbers = [Double]()
        var pending = fields[...]
        // Structures nest one level at most here (a rect's point and size); flattened without recursion.
        var flattened = [TypedStreamValue]()
        while let field = pending.popFirst() {
            if case .structure(_, let inner) = field { flattened += inner } else { flattened.append(field) }
        }
        for field in flattened {
            switch field {
            case .float(let number): numbers.append(Double(number))
            case .double(let number): numbers.append(number)
            case .signed(let number): numbers.append(Double(number))
            case .unsigned(let number): numbers.append(Double(number))
            default: return nil
            }
        }
        func text(_ values: ArraySlice<Double>) -> String { "{" + values.map(Self.geometryNumber).joined(separator: ", ") + "}" }
        func special(_ kind: Int, _ key: String, _ value: String) -> [PropertyListValue.Entry] {
            [PropertyListValue.Entry(key: "NS.special", value: .integer(Int128(kind))),
             PropertyListValue.Entry(key: key, value: .uid(builder.add(.string(value))))]
        }
        switch (name, numbers.count) {
        case ("CGPoint", 2), ("_NSPoint", 2): return special(1, "NS.pointval", text(numbers[...]))
        case ("CGSize", 2), ("_NSSize", 2): return special(2, "NS.sizeval", text(numbers[...]))
        case ("CGRect", 4), ("_NSRect", 4):
            return special(3, "NS.rectval", "{" + text(numbers[0..<2]) + ", " + text(numbers[2..<4]) + "}")
        case ("_NSRange", 2):
            guard case let location? = flattened[0].integer, case let length? = flattened[1].integer else { return nil }
            return [PropertyListValue.Entry(key: "NS.special", value: .integer(4)),
                    PropertyListValue.Entry(key: "NS.rangeval.location", value: .integer(Int128(location))),
                    PropertyListValue.Entry(key: "NS.rangeval.length", value: .integer(Int128(length)))]
        default:
            return nil
        }
    }

    /// A geometry number as `NSStringFromSize` writes it: integral values without a fraction.
    private static func geometryNumber(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
