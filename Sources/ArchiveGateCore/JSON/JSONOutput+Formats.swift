/// The string formats plain JSON uses for data, dates and UUIDs.
extension JSONOutput {
    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Quoted standard base64 with padding.
    mutating func appendBase64(_ data: ArraySlice<UInt8>) {
        append(UInt8(ascii: "\""))
        let alphabet = JSONOutput.base64Alphabet
        var index = data.startIndex
        while data.endIndex - index >= 3 {
            let chunk = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
            append(alphabet[Int(chunk >> 18 & 63)])
            append(alphabet[Int(chunk >> 12 & 63)])
            append(alphabet[Int(chunk >> 6 & 63)])
            append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = data.endIndex - index
        if remaining > 0 {
            let chunk = UInt32(data[index]) << 16 | (remaining == 2 ? UInt32(data[index + 1]) << 8 : 0)
            append(alphabet[Int(chunk >> 18 & 63)])
            append(alphabet[Int(chunk >> 12 & 63)])
            append(remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            append(UInt8(ascii: "="))
        }
        append(UInt8(ascii: "\""))
    }

    /// Seconds since 2001-01-01T00:00:00Z as quoted ISO 8601 UTC with milliseconds; dates outside
    /// years 0001…9999 (which ISO 8601 cannot spell in this form) as the plain number of seconds.
    mutating func appendDate(sinceReferenceDate seconds: Double) {
        let unixMilliseconds = ((seconds + 978_307_200) * 1000).rounded(.down)
        // 0001-01-01 and 9999-12-31T23:59:59.999 in Unix milliseconds.
        guard unixMilliseconds.isFinite, unixMilliseconds >= -62_135_596_800_000, unixMilliseconds <= 253_402_300_799_999 else {
            appendDouble(seconds)
            return
        }
        let totalMilliseconds = Int64(unixMilliseconds)
        var days = totalMilliseconds / 86_400_000
        var millisecondOfDay = totalMilliseconds % 86_400_000
        if millisecondOfDay < 0 {
            millisecondOfDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        append(UInt8(ascii: "\""))
        appendPadded(year, width: 4)
        append(UInt8(ascii: "-"))
        appendPadded(month, width: 2)
        append(UInt8(ascii: "-"))
        appendPadded(day, width: 2)
        append(UInt8(ascii: "T"))
        appendPadded(millisecondOfDay / 3_600_000, width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(millisecondOfDay / 60_000 % 60, width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(millisecondOfDay / 1000 % 60, width: 2)
        append(UInt8(ascii: "."))
        appendPadded(millisecondOfDay % 1000, width: 3)
        append("Z\"")
    }

    /// Proleptic Gregorian year, month and day of a day count since 1970-01-01 (Hinnant's algorithm).
    static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private mutating func appendPadded(_ value: Int64, width: Int) {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var remaining = value
        var position = width - 1
        while remaining > 0, position >= 0 {
            digits[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            position -= 1
        }
        append(contentsOf: digits)
    }

    /// 16 bytes as the canonical upper-case UUID string.
    mutating func appendUUID(_ bytes: ArraySlice<UInt8>) {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        append(UInt8(ascii: "\""))
        for (position, byte) in bytes.enumerated() {
            if position == 4 || position == 6 || position == 8 || position == 10 { append(UInt8(ascii: "-")) }
            append(digits[Int(byte >> 4)])
            append(digits[Int(byte & 0xF)])
        }
        append(UInt8(ascii: "\""))
    }
}
