/// The string formats plain JSON uses for data, dates and UUIDs.
extension JSONOutput {
    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Quoted standard base64 with padding, encoded in a stack buffer a block at a time.
    mutating func appendBase64(_ data: Slice<ByteStorage>) {
        append(UInt8(ascii: "\""))
        data.withUnsafeBufferPointer { source in
            JSONOutput.base64Alphabet.withUnsafeBufferPointer { alphabet in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { block in
                    var filled = 0
                    var index = 0
                    while source.count - index >= 3 {
                        let chunk = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8 | UInt32(source[index + 2])
                        block[filled] = alphabet[Int(chunk >> 18 & 63)]
                        block[filled + 1] = alphabet[Int(chunk >> 12 & 63)]
                        block[filled + 2] = alphabet[Int(chunk >> 6 & 63)]
                        block[filled + 3] = alphabet[Int(chunk & 63)]
                        filled += 4
                        index += 3
                        if filled == 256 {
                            append(contentsOf: UnsafeBufferPointer(block))
                            filled = 0
                        }
                    }
                    let remaining = source.count - index
                    if remaining > 0 {
                        let chunk = UInt32(source[index]) << 16 | (remaining == 2 ? UInt32(source[index + 1]) << 8 : 0)
                        block[filled] = alphabet[Int(chunk >> 18 & 63)]
                        block[filled + 1] = alphabet[Int(chunk >> 12 & 63)]
                        block[filled + 2] = remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "=")
                        block[filled + 3] = UInt8(ascii: "=")
                        filled += 4
                    }
                    if filled > 0 { append(contentsOf: UnsafeBufferPointer(rebasing: block[0 ..< filled])) }
                }
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// Milliseconds since 1970-01-01T00:00:00Z as quoted ISO 8601 UTC with milliseconds
    /// (`"2026-11-22T08:15:30.123Z"`); the caller keeps it within years 0001…9999.
    mutating func appendTimestamp(unixMilliseconds totalMilliseconds: Int64) {
        var seconds = totalMilliseconds / 1000
        var milliseconds = totalMilliseconds % 1000
        if milliseconds < 0 {
            milliseconds += 1000
            seconds -= 1
        }
        let digits = Array(String(milliseconds).utf8)
        appendTimestamp(unixSeconds: seconds, fraction: Array(repeating: UInt8(ascii: "0"), count: 3 - digits.count) + digits)
    }

    /// 16 bytes as the canonical upper-case UUID string, formatted in a stack buffer and appended at once.
    mutating func appendUUID(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        let digits: StaticString = "0123456789ABCDEF"
        // `"` + 32 hex digits + 4 dashes + `"`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 38) { text in
            var position = 0
            text[position] = UInt8(ascii: "\"")
            position += 1
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = digits.utf8Start[Int(byte >> 4)]
                text[position + 1] = digits.utf8Start[Int(byte & 0xF)]
                position += 2
            }
            text[position] = UInt8(ascii: "\"")
            append(contentsOf: UnsafeBufferPointer(rebasing: text[0 ... position]))
        }
    }
}
