/// NSNumber, NSData, NSDate, NSURL and NSColor (`TypedStreamLayout`).
extension TypedStreamLowerer {
    /// NSValue's `*` type encoding, then one value of that type → the inline number NSKeyedArchiver
    /// writes for an NSNumber (a `c` of 0 or 1 is a boolean: `@YES`/`@NO` are `c` numbers).
    mutating func number(_ cursor: inout TypedStreamGroupCursor) -> PropertyListValue? {
        guard case .cString(let type?)? = cursor.single("*"), let encoding = String(validating: type, as: UTF8.self),
              let value = cursor.single(encoding), cursor.isAtEnd else { return nil }
        switch (encoding, value) {
        case ("c", .signed(let flag)) where flag == 0 || flag == 1: return .bool(flag == 1)
        case ("c", .signed(let number)), ("s", .signed(let number)), ("i", .signed(let number)),
             ("l", .signed(let number)), ("q", .signed(let number)): return .integer(Int128(number))
        case ("C", .unsigned(let number)), ("S", .unsigned(let number)), ("I", .unsigned(let number)),
             ("L", .unsigned(let number)), ("Q", .unsigned(let number)): return .integer(Int128(number))
        case ("f", .float(let number)): return .real(Double(number))
        case ("d", .double(let number)): return .real(number)
        default: return nil
        }
    }

    /// `i` length, then `[Nc]` the bytes (absent when empty) → `NS.data`.
    mutating func data(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard let length = cursor.integer() else { return nil }
        var bytes = [UInt8]()
        if !cursor.isAtEnd {
            let values = cursor.rest()
            guard values.count == 1, case .byteArray(let array) = values[0] else { return nil }
            bytes = array
        }
        guard Int64(bytes.count) == length else { return nil }
        return [PropertyListValue.Entry(key: "NS.data", value: .data(bytes))]
    }

    /// `d` seconds since 2001-01-01 → `NS.time`.
    mutating func date(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard case .double(let seconds)? = cursor.single("d") else { return nil }
        return [PropertyListValue.Entry(key: "NS.time", value: .real(seconds))]
    }

    /// `c` 0 and `@` the string, or `c` 1, `@` the base URL and `@` the string → `NS.base`, `NS.relative`.
    mutating func url(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard let relative = cursor.integer(), relative == 0 || relative == 1 else { return nil }
        var base: Int?
        if relative == 1 {
            guard case .object(let index)? = cursor.single("@") else { return nil }
            base = index
        }
        guard case .object(let string?)? = cursor.single("@") else { return nil }
        return [PropertyListValue.Entry(key: "NS.base", value: .uid(uid(base))),
                PropertyListValue.Entry(key: "NS.relative", value: .uid(uid(string)))]
    }

    /// `c` the kind (the keyed `NSColorSpace` number), then the float components as the keyed text
    /// (`NSRGB` "r g b a", `NSWhite` "w a", `NSCMYK` "c m y k a"), or a catalog color's `@` catalog
    /// name, `@` color name and `@` fallback color.
    mutating func color(_ cursor: inout TypedStreamGroupCursor) -> [PropertyListValue.Entry]? {
        guard let kind = cursor.integer() else { return nil }
        let values = cursor.rest()
        let space = PropertyListValue.Entry(key: "NSColorSpace", value: .integer(Int128(kind)))
        if kind == 6 {
            guard values.count == 3, case .object(let catalog?) = values[0], case .object(let name?) = values[1],
                  case .object(let fallback) = values[2] else { return nil }
            return [space, PropertyListValue.Entry(key: "NSCatalogName", value: .uid(uid(catalog))),
                    PropertyListValue.Entry(key: "NSColorName", value: .uid(uid(name))),
                    PropertyListValue.Entry(key: "NSColor", value: .uid(uid(fallback)))]
        }
        let components = values.compactMap { value -> Float? in
            if case .float(let number) = value { number } else { nil }
        }
        let key: String
        switch (kind, components.count) {
        case (1, 4), (2, 4): key = "NSRGB"
        case (3, 2), (4, 2): key = "NSWhite"
        case (5, 5): key = "NSCMYK"
        default: return nil
        }
        guard components.count == values.count else { return nil }
        let text = components.map { "\($0)" }.joined(separator: " ")
        return [space, PropertyListValue.Entry(key: key, value: .data(Array(text.utf8)))]
    }
}
