/// Scalars: `<integer>`, `<real>`, `<date>` and `<data>`, each parsed straight from the input bytes.
extension XMLPropertyListReader.Scanner {
    /// Reals longer than this are refused: no writer needs more than ~25 characters, and the
    /// conversion then never sees an attacker-sized string.
    static let maxRealLength = 1_024

    /// Reads `<integer>`: optional sign, then decimal digits or `0x` and hex digits, any value of
    /// signed 128 bits. The payload words are the value's low and high 64 bits.
    mutating func readInteger(tagPosition: Int) throws(PropertyListError) -> PropertyListObject {
        let text = try readScalarText(.integer, tagPosition: tagPosition)
        var index = text.lowerBound
        let isNegative = index < text.upperBound && input[index] == UInt8(ascii: "-")
        if index < text.upperBound, isNegative || input[index] == UInt8(ascii: "+") { index += 1 }
        var isHex = false
        if text.upperBound - index >= 2, input[index] == UInt8(ascii: "0"), input[index + 1] | 0x20 == UInt8(ascii: "x") {
            isHex = true
            index += 2
        }
        guard index < text.upperBound else {
            throw failure(.invalidInteger, at: tagPosition, "<integer> \(describe(text)) has no digits")
        }
        var magnitude: UInt128 = 0
        for digitIndex in index ..< text.upperBound {
            guard let digit = XMLPropertyListReader.digitValue(input[digitIndex], hex: isHex) else {
                throw failure(.invalidInteger, at: tagPosition, "<integer> \(describe(text)) is not a number")
            }
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: isHex ? 16 : 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt128(digit))
            guard !overflow, !carry else {
                throw failure(.invalidInteger, at: tagPosition, "<integer> \(describe(text)) does not fit 128 bits")
            }
            magnitude = sum
        }
        let limit: UInt128 = isNegative ? UInt128(1) << 127 : UInt128(Int128.max)
        guard magnitude <= limit else {
            throw failure(.invalidInteger, at: tagPosition, "<integer> \(describe(text)) does not fit signed 128 bits")
        }
        // Two's complement of the magnitude is the signed value's bit pattern.
        let value = isNegative ? 0 &- magnitude : magnitude
        return PropertyListObject(kind: .integer, first: UInt64(truncatingIfNeeded: value),
                                  second: UInt64(truncatingIfNeeded: value >> 64))
    }

    /// Reads `<real>`: a decimal with optional fraction and exponent, or `nan`, `inf` or `infinity`
    /// (with a sign for the infinities) in any case, as CoreFoundation accepts. The grammar is
    /// checked here, so the standard library's conversion only ever sees a plain decimal.
    mutating func readReal(tagPosition: Int) throws(PropertyListError) -> PropertyListObject {
        let text = try readScalarText(.real, tagPosition: tagPosition)
        if let special = specialReal(text) {
            return PropertyListObject(kind: .real, first: special.bitPattern)
        }
        guard text.count <= Self.maxRealLength else {
            throw failure(.invalidReal, at: tagPosition, "<real> is longer than \(Self.maxRealLength) characters")
        }
        guard isDecimal(text),
              let value = Double(String(decoding: UnsafeBufferPointer(rebasing: input[text]), as: UTF8.self)) else {
            throw failure(.invalidReal, at: tagPosition, "<real> \(describe(text)) is not a number")
        }
        return PropertyListObject(kind: .real, first: value.bitPattern)
    }

    /// Reads `<date>` in the form CoreFoundation writes, `YYYY-MM-DDTHH:MM:SSZ` in UTC (the year
    /// may have more digits or a '-'), as seconds since 2001-01-01T00:00:00Z.
    mutating func readDate(tagPosition: Int) throws(PropertyListError) -> PropertyListObject {
        let text = try readScalarText(.date, tagPosition: tagPosition)
        guard let seconds = secondsSinceReferenceDate(text) else {
            throw failure(.invalidDate, at: tagPosition, "<date> \(describe(text)) is not a valid YYYY-MM-DDTHH:MM:SSZ")
        }
        return PropertyListObject(kind: .date, first: seconds.bitPattern)
    }

    /// Reads `<data>`: base64 (RFC 4648 alphabet, whitespace anywhere, padding optional) decoded
    /// group by group into `storage`, so the size limit is checked as the bytes appear.
    mutating func readData(tagPosition: Int) throws(PropertyListError) -> PropertyListObject {
        let offset = storage.count
        var group: UInt32 = 0
        var sextets = 0
        var padding = 0
        while position < input.count, input[position] != UInt8(ascii: "<") {
            let byte = input[position]
            position += 1
            if XMLPropertyListReader.isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "="), padding < 2 {
                padding += 1
                continue
            }
            guard padding == 0, let value = XMLPropertyListReader.base64Value(byte) else {
                throw failure(.invalidBase64, at: position - 1, "<data> holds \(describe(position - 1 ..< position)), which is not base64 here")
            }
            group = group << 6 | UInt32(value)
            sextets += 1
            if sextets == 4 {
                storage.append(UInt8(truncatingIfNeeded: group >> 16))
                storage.append(UInt8(truncatingIfNeeded: group >> 8))
                storage.append(UInt8(truncatingIfNeeded: group))
                (group, sextets) = (0, 0)
                try checkDataSize(storage.count - offset, tagPosition: tagPosition)
            }
        }
        // A final partial group of 2 or 3 characters (padded or not) carries 1 or 2 bytes.
        switch (sextets, padding) {
        case (0, 0):
            break
        case (2, 0), (2, 2):
            storage.append(UInt8(truncatingIfNeeded: group >> 4))
        case (3, 0), (3, 1):
            storage.append(UInt8(truncatingIfNeeded: group >> 10))
            storage.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            throw failure(.invalidBase64, at: tagPosition, "<data> ends with an incomplete base64 group")
        }
        try checkDataSize(storage.count - offset, tagPosition: tagPosition)
        try readEndTag(closing: .data, openedAt: tagPosition)
        return PropertyListObject(kind: .data, first: UInt64(offset), second: UInt64(storage.count - offset))
    }

    // MARK: - Helpers

    /// Reads the content of a number or date up to its end tag, without surrounding whitespace.
    /// These hold plain characters only: a reference or CDATA section makes them invalid.
    private mutating func readScalarText(_ element: Element, tagPosition: Int) throws(PropertyListError) -> Range<Int> {
        var start = position
        while position < input.count, input[position] != UInt8(ascii: "<") { position += 1 }
        var end = position
        try readEndTag(closing: element, openedAt: tagPosition)
        while start < end, XMLPropertyListReader.isWhitespace(input[start]) { start += 1 }
        while end > start, XMLPropertyListReader.isWhitespace(input[end - 1]) { end -= 1 }
        return start ..< end
    }

    private func checkDataSize(_ byteCount: Int, tagPosition: Int) throws(PropertyListError) {
        guard byteCount <= limits.maxDataBytes else {
            throw failure(.dataTooLarge, at: tagPosition, "data longer than \(limits.maxDataBytes) bytes")
        }
    }

    /// `nan`, `inf`, `infinity`, the latter two optionally signed, in any case.
    private func specialReal(_ text: Range<Int>) -> Double? {
        if equalsIgnoringCase(text, "nan") { return .nan }
        var word = text
        var sign: Double = 1
        if let first = word.first, input[first] == UInt8(ascii: "-") || input[first] == UInt8(ascii: "+") {
            sign = input[first] == UInt8(ascii: "-") ? -1 : 1
            word = word.dropFirst()
        }
        guard equalsIgnoringCase(word, "inf") || equalsIgnoringCase(word, "infinity") else { return nil }
        return sign * .infinity
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    private func isDecimal(_ text: Range<Int>) -> Bool {
        var index = text.lowerBound
        let end = text.upperBound
        func skipSign() {
            if index < end, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
        }
        func digits() -> Int {
            let start = index
            while index < end, XMLPropertyListReader.digitValue(input[index], hex: false) != nil { index += 1 }
            return index - start
        }
        skipSign()
        var mantissaDigits = digits()
        if index < end, input[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if index < end, input[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            skipSign()
            guard digits() > 0 else { return false }
        }
        return index == end
    }

    /// Seconds from 2001-01-01T00:00:00Z to the date in `text`, or nil when it is malformed or
    /// names a day or time that does not exist.
    private func secondsSinceReferenceDate(_ text: Range<Int>) -> Double? {
        var index = text.lowerBound
        let end = text.upperBound
        func number(digits range: ClosedRange<Int>) -> Int? {
            var value = 0
            let start = index
            while index < end, index - start < range.upperBound,
                  let digit = XMLPropertyListReader.digitValue(input[index], hex: false) {
                value = value * 10 + Int(digit)
                index += 1
            }
            return range.contains(index - start) ? value : nil
        }
        func separator(_ byte: UInt8) -> Bool {
            guard index < end, input[index] == byte else { return false }
            index += 1
            return true
        }
        let isNegative = separator(UInt8(ascii: "-"))
        // Nine year digits at most keeps every later product far inside Int.
        guard let year = number(digits: 1 ... 9), separator(UInt8(ascii: "-")),
              let month = number(digits: 2 ... 2), separator(UInt8(ascii: "-")),
              let day = number(digits: 2 ... 2), separator(UInt8(ascii: "T")),
              let hour = number(digits: 2 ... 2), separator(UInt8(ascii: ":")),
              let minute = number(digits: 2 ... 2), separator(UInt8(ascii: ":")),
              let second = number(digits: 2 ... 2), separator(UInt8(ascii: "Z")), index == end else { return nil }
        let signedYear = isNegative ? -year : year
        guard (1 ... 12).contains(month), (1 ... XMLPropertyListReader.daysIn(month: month, year: signedYear)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = XMLPropertyListReader.daysSince1970(year: signedYear, month: month, day: day)
            - XMLPropertyListReader.referenceDay
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }
}

extension XMLPropertyListReader {
    /// 2001-01-01, the reference date of property-list dates, as days since 1970-01-01.
    static let referenceDay = 11_323

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (year 0 is 1 BC), by
    /// counting 400-year eras of 146,097 days from a year that starts in March, so that the leap
    /// day falls at the end.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func digitValue(_ byte: UInt8, hex: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f") where hex: return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F") where hex: return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The 6-bit value of a base64 character (RFC 4648 standard alphabet), or nil.
    static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
