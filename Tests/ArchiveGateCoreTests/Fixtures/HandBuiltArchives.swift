@testable import ArchiveGateCore

/// Archives built with `KeyedArchiveBuilder` where Foundation on Linux cannot write the encoding
/// (NSDecimalNumber and NSError crash its archiver; it writes NSString/NSData inline and never as
/// `NS.string`/`NS.bytes`/`NS.data` instances; it writes NSValue ranges by UID where Apple writes
/// them inline), and for archives no honest archiver writes (spoofed `$classes`, wrong field kinds).
/// Encodings mimic what Apple's Foundation writes.
enum HandBuilt {
    /// An archive whose `$top["root"]` is the UID `build` returns.
    static func root(_ build: (inout KeyedArchiveBuilder) -> UInt32) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", build(&builder))
        return builder.binary()
    }

    /// One object of class `name` (claimed chain `chain`) with `fields`, as the root.
    static func object(_ name: String, chain: [String]? = nil, _ fields: KeyValuePairs<String, PropertyListValue>) -> [UInt8] {
        root { builder in
            let record = builder.classRecord(name, chain: chain)
            return builder.object(class: record, fields: fields)
        }
    }

    /// Apple's NSError: inline `NSCode`, `NSDomain` and `NSUserInfo` by reference.
    static func error(domain: String, code: Int128, userInfo: [(String, String)]) -> [UInt8] {
        root { builder in
            let domainUID = builder.add(.string(domain))
            let keys = userInfo.map { builder.add(.string($0.0)) }
            let values = userInfo.map { builder.add(.string($0.1)) }
            let info = builder.dictionary(keys: keys, values: values)
            let record = builder.classRecord("NSError")
            return builder.object(class: record, fields: ["NSCode": .integer(code), "NSDomain": .uid(domainUID),
                                                          "NSUserInfo": .uid(info)])
        }
    }

    /// Apple's NSDecimalNumber: a little-endian mantissa of 16-bit words, `NS.length` of them.
    static func decimal(mantissa: UInt64, exponent: Int128, negative: Bool, length: Int128? = nil) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        var remaining = mantissa
        var words: Int128 = 0
        for position in 0 ..< 8 where remaining > 0 {
            bytes[2 * position] = UInt8(remaining & 0xFF)
            bytes[2 * position + 1] = UInt8(remaining >> 8 & 0xFF)
            remaining >>= 16
            words = Int128(position + 1)
        }
        return object("NSDecimalNumber", ["NS.exponent": .integer(exponent), "NS.length": .integer(length ?? words),
                                          "NS.negative": .bool(negative), "NS.compact": true, "NS.mantissa.bo": 1,
                                          "NS.mantissa": .data(bytes)])
    }

    /// A custom object whose `$classes` claims whatever `chain` says.
    static func spoofed(_ name: String, claiming chain: [String], fields: KeyValuePairs<String, PropertyListValue> = [:]) -> [UInt8] {
        object(name, chain: chain, fields)
    }
}
