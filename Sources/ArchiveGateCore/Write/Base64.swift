/// Strict RFC 4648 base64 (standard alphabet, `=` padding required), the form typed JSON's `$data`
/// is rendered in.
enum Base64 {
    /// The bytes `text` encodes, or nil when it is not canonical padded base64.
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var chunk: UInt32 = 0
            var padding = 0
            for offset in 0 ..< 4 {
                let byte = input[index + offset]
                if byte == UInt8(ascii: "="), isLast, offset >= 2 {
                    padding += 1
                    chunk <<= 6
                    continue
                }
                guard padding == 0, let value = sextet(byte) else { return nil }
                chunk = chunk << 6 | UInt32(value)
            }
            output.append(UInt8(chunk >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(chunk >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(chunk & 0xFF)) }
            // Canonical: the bits padding drops must be zero, so each byte string has one spelling.
            if padding == 2, chunk & 0xFFFF != 0 { return nil }
            if padding == 1, chunk & 0xFF != 0 { return nil }
            index += 4
        }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
