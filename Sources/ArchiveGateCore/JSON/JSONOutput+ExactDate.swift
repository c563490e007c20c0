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
        // Written straight into the document: no scratch array, no `String` per field (dates were
        // 6 % of converting c_large).
        append(UInt8(ascii: "\""))
        appendPadded(year, width: 4)
        append(UInt8(ascii: "-"))
        appendPadded(month, width: 2)
        append(UInt8(ascii: "-"))
        appendPadded(day, width: 2)
        append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2)
        append(UInt8(ascii: "."))
        append(contentsOf: fraction)
        for _ in fraction.count ..< max(3, fraction.count) { append(UInt8(ascii: "0")) }
        append(UInt8(ascii: "Z"))
        append(UInt8(ascii: "\""))
    }

    /// `value` in decimal, zero-padded on the left to `width` digits (a negative value as `String`
    /// spells it, padded before its sign).
    private mutating func appendPadded(_ value: Int64, width: Int) {
        guard value >= 0 else {
            let digits = Array(String(value).utf8)
            for _ in digits.count ..< max(width, digits.count) { append(UInt8(ascii: "0")) }
            append(contentsOf: digits)
            return
        }
        var divisor: Int64 = 1
        var count = 1
        while divisor <= value / 10 {
            divisor *= 10
            count += 1
        }
        for _ in count ..< max(width, count) { append(UInt8(ascii: "0")) }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

/// A non-negative finite double's shortest round-trip decimal (Swift's `description`), split into
/// the whole part and the digits after the decimal point.
struct ShortestDecimal {
    let whole: Int64
    let fraction: [UInt8]

    init?(_ value: Double) {
        guard value.isFinite, value >= 0, value < 1e15 else { return nil }
        // `description` is "123.456", "1e-05" or "1.5e-07" for these magnitudes (a small string:
        // read in place, digit by digit, without copying it into arrays).
        var text = value.description
        let parsed = text.withUTF8 { utf8 -> (whole: Int64, fraction: [UInt8])? in
            var mantissa = utf8[...]
            var exponent = 0
            if let e = utf8.firstIndex(of: UInt8(ascii: "e")) {
                mantissa = utf8[..<e]
                guard let parsed = Int(String(decoding: utf8[(e + 1)...], as: UTF8.self)) else { return nil }
                exponent = parsed
            }
            var digitCount = 0
            var pointAt = mantissa.count
            for (offset, byte) in mantissa.enumerated() {
                if byte == UInt8(ascii: ".") { pointAt = offset } else { digitCount += 1 }
            }
            pointAt += exponent
            // The decimal point moved: zeros before the digits when it falls left of them, after
            // them (a larger whole part) when it falls right.
            var whole: Int64 = 0
            var fraction: [UInt8] = []
            if pointAt < 0 { fraction.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -pointAt)) }
            var position = 0
            for byte in mantissa where byte != UInt8(ascii: ".") {
                if position < pointAt { whole = whole * 10 + Int64(byte - UInt8(ascii: "0")) } else { fraction.append(byte) }
                position += 1
            }
            for _ in digitCount ..< max(pointAt, digitCount) { whole *= 10 }
            return (whole, fraction)
        }
        guard let parsed else { return nil }
        self.whole = parsed.whole
        self.fraction = parsed.fraction
    }
}
