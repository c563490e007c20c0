/// NSString and NSAttributedString (`TypedStreamLayout.string`, `.attributedString`).
extension TypedStreamLowerer {
    /// `+` UTF-8 bytes → `NS.string`; nil when the bytes are not UTF-8.
    mutating func string(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard case .bytes(let bytes)? = cursor.single("+"), cursor.isAtEnd,
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return [PropertyListValue.Entry(key: "NS.string", value: .string(text))]
    }

    /// `@` the string, then `iI` runs (attribute-set index, length in UTF-16 units), each index's
    /// dictionary `@` after its first run → the keyed layout `KeyedArchive+AttributedRuns` reads:
    /// one run's dictionary as `NSAttributes`, or an NSArray of the dictionaries in first-seen
    /// order with `NSAttributeInfo` data of varint pairs (length, position in that array).
    mutating func attributedString(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard case .object(let stringIndex?)? = cursor.single("@") else { return nil }
        var positions = [Int64: Int]()
        var dictionaries = [UInt32]()
        var runs = [(position: Int, length: UInt64)]()
        while !cursor.isAtEnd {
            guard let pair = cursor.group("iI"), pair.count == 2, let index = pair[0].integer,
                  let length = pair[1].integer, length >= 0 else { return nil }
            if positions[index] == nil {
                guard case .object(let dictionary?)? = cursor.single("@") else { return nil }
                positions[index] = dictionaries.count
                dictionaries.append(uid(dictionary))
            }
            runs.append((positions[index] ?? 0, UInt64(length)))
        }
        var fields = [PropertyListValue.Entry(key: "NSString", value: .uid(uid(stringIndex)))]
        if dictionaries.count == 1, runs.count == 1 {
            fields.append(PropertyListValue.Entry(key: "NSAttributes", value: .uid(dictionaries[0])))
        } else if !dictionaries.isEmpty {
            let arrayClass = builder.classRecord("NSArray")
            let array = builder.object(class: arrayClass, fields: ["NS.objects": .array(dictionaries.map(PropertyListValue.uid))])
            var info = [UInt8]()
            for run in runs {
                Self.appendVarint(run.length, to: &info)
                Self.appendVarint(UInt64(run.position), to: &info)
            }
            fields.append(PropertyListValue.Entry(key: "NSAttributes", value: .uid(array)))
            fields.append(PropertyListValue.Entry(key: "NSAttributeInfo", value: .uid(builder.add(.data(info)))))
        }
        return fields
    }

    /// Foundation's run-table varint: 7 bits a byte, least significant first, high bit = more.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
