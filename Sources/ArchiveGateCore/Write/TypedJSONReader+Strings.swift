/// JSON strings: escapes, surrogate pairs, UTF-8 validation and the string limits.
extension TypedJSONReader {
    /// Reads the string at `position` (which holds the opening quote).
    mutating func readString() throws(EncodeError) -> String {
        let start = position
        position += 1
        var bytes = [UInt8]()
        var runStart = position
        while true {
            guard position < input.count else { throw syntax("the string is not closed") }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                bytes.append(contentsOf: input[runStart ..< position])
                position += 1
                break
            }
            if byte < 0x20 { throw syntax("a control character in a string must be escaped") }
            if byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: input[runStart ..< position])
                try readEscape(into: &bytes)
                runStart = position
                continue
            }
            position += 1
        }
        guard bytes.count <= limits.maxStringBytes else {
            throw failure(.stringTooLarge, "a string of \(bytes.count) bytes; the limit is \(limits.maxStringBytes)", offset: start)
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw failure(.invalidJSON, "a string is not valid UTF-8", offset: start)
        }
        if format == .xml, let bad = string.unicodeScalars.first(where: Self.isForbiddenInXML) {
            throw failure(.notRepresentable, "U+\(String(bad.value, radix: 16, uppercase: true)) cannot be written in an XML property list; write the archive as binary", offset: start)
        }
        return string
    }

    /// XML 1.0 allows tab, line feed and carriage return (as a reference) among the C0 controls, and
    /// no U+FFFE or U+FFFF.
    static func isForbiddenInXML(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    private mutating func readEscape(into bytes: inout [UInt8]) throws(EncodeError) {
        position += 1
        guard position < input.count else { throw syntax("the string ends inside an escape") }
        let byte = input[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800 ... 0xDBFF).contains(scalar) {
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u") else {
                    throw failure(.invalidValue, "a lone UTF-16 surrogate; property-list strings here are Unicode text", offset: position)
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00 ... 0xDFFF).contains(low) else {
                    throw failure(.invalidValue, "a lone UTF-16 surrogate; property-list strings here are Unicode text", offset: position)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00 ... 0xDFFF).contains(scalar) {
                throw failure(.invalidValue, "a lone UTF-16 surrogate; property-list strings here are Unicode text", offset: position)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw syntax("an invalid \\u escape") }
            bytes.append(contentsOf: String(unicode).utf8)
        default:
            throw syntax("an invalid escape")
        }
    }

    private mutating func readHex4() throws(EncodeError) -> UInt32 {
        guard position + 4 <= input.count else { throw syntax("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
