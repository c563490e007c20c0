/// NSDate's plain form without loss: the fraction of the second carries every digit the double's
/// shortest round-trip decimal holds (at least three, so a whole-millisecond date keeps its
/// `.mmm` form), so reading the timestamp back as an exact decimal gives the archived double.
extension JSONOutput {
    /// Seconds since 2001-01-01T00:00:00Z as quoted ISO 8601 UTC, `"2026-11-22T08:15:30.123456Z"`;
    /// dates outside years 0001…9999 (which ISO 8601 cannot spell in this form) as the plain
    /// number of seconds.
    mutating func appendDate(sinceReferenceDate seconds: Double) {
        let unixMilliseconds = ((seconds + 978_307_200) * 1000).rounded(.down)
        // 0001-01-01 and 9999-12-31T23:59:59.999 in Unix milliseconds.
        guard unixMilliseconds.isFinite, unixMilliseconds >= -62_135_596_800_000, unixMilliseconds <= 253_402_300_799_999,
              let exact = Self.exactUnixSeconds(sinceReferenceDate: seconds) else {
            appendDouble(seconds)
            return
        }
        appendTimestamp(unixSeconds: exact.whole, fraction: exact.fraction)
    }

    /// The Unix time of `seconds` since 2001 as whole seconds (rounded down) and the decimal digits
    /// of the fraction (no trailing zeros), from the shortest decimal that round-trips the double.
    static func exactUnixSeconds(sinceReferenceDate seconds: Double) -> (whole: Int64, fraction: [UInt8])? {
        guard let decimal = ShortestDecimal(seconds.magnitude) else { return nil }
        var fraction = decimal.fraction
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        if seconds.sign == .plus || (decimal.whole == 0 && fraction.isEmpty) {
            return (978_307_200 + decimal.whole, fraction)
        }
        if fraction.isEmpty { return (978_307_200 - decimal.whole, []) }
        // -(w + 0.f) = -(w + 1) + (1 - 0.f): the fraction becomes its ten's complement.
        var complement = fraction
        var borrow = 0
        for position in complement.indices.reversed() {
            let digit = Int(fraction[position] - UInt8(ascii: "0"))
            var value = (position == complement.count - 1 ? 10 : 9) - digit - borrow
            borrow = 0
            if value < 0 { value += 10; borrow = 1 }
            complement[position] = UInt8(ascii: "0") + UInt8(value)
        }
        while complement.last == UInt8(ascii: "0") { complement.removeLast() }
        return (978_307_200 - decimal.whole - 1, complement)
    }

    /// Unix seconds and fraction digits as quoted ISO 8601 UTC, the fraction padded to at least
    /// milliseconds; the caller keeps it within years 0001…9999.
    mutating func appendTimestamp(unixSeconds: Int64, fraction: [UInt8]) {
        var days = unixSeconds / 86_400
        var secondOfDay = unixSeconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.fromDays(sinceEpoch: days)
        var text: [UInt8] = []
        text.reserveCapacity(30 + fraction.count)
        text.append(UInt8(ascii: "\""))
        Self.appendPadded(year, width: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.appendPadded(month, width: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.appendPadded(day, width: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        Self.appendPadded(secondOfDay / 3600, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.appendPadded(secondOfDay / 60 % 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.appendPadded(secondOfDay % 60, width: 2, to: &text)
        text.append(UInt8(ascii: "."))
        text.append(contentsOf: fraction)
        for _ in fraction.count ..< max(3, fraction.count) { text.append(UInt8(ascii: "0")) }
        text.append(UInt8(ascii: "Z"))
        text.append(UInt8(ascii: "\""))
        append(contentsOf: text)
    }

    private static func appendPadded(_ value: Int64, width: Int, to text: inout [UInt8]) {
        let digits = Array(String(value).utf8)
        for _ in digits.count ..< max(width, digits.count) { text.append(UInt8(ascii: "0")) }
        text.append(contentsOf: digits)
    }
}

/// A non-negative finite double's shortest round-trip decimal (Swift's `description`), split into
/// the whole part and the digits after the decimal point.
struct ShortestDecimal {
    let whole: Int64
    let fraction: [UInt8]

    init?(_ value: Double) {
        guard value.isFinite, value >= 0, value < 1e15 else { return nil }
        // `description` is "123.456", "1e-05" or "1.5e-07" for these magnitudes.
        let text = Array(value.description.utf8)
        var mantissa = text[...]
        var exponent = 0
        if let e = text.firstIndex(of: UInt8(ascii: "e")) {
            mantissa = text[..<e]
            guard let parsed = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) else { return nil }
            exponent = parsed
        }
        var digits: [UInt8] = []
        var pointAt = mantissa.count
        for (offset, byte) in mantissa.enumerated() {
            if byte == UInt8(ascii: ".") { pointAt = offset } else { digits.append(byte) }
        }
        pointAt += exponent
        // Move the decimal point: pad with zeros on whichever side it falls outside the digits.
        if pointAt < 0 {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: -pointAt), at: 0)
            pointAt = 0
        }
        if pointAt > digits.count { digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: pointAt - digits.count)) }
        var whole: Int64 = 0
        for digit in digits[..<pointAt] { whole = whole * 10 + Int64(digit - UInt8(ascii: "0")) }
        self.whole = whole
        self.fraction = Array(digits[pointAt...])
    }
}
