/// Text: the content of `<string>` and `<key>`, references, CDATA sections and UTF-8 validation.
extension XMLPropertyListReader.Scanner {
    /// Reads the text of `<string>` or `<key>` up to its end tag, decoding references and CDATA
    /// sections straight into `storage`. `position` is just after the start tag.
    mutating func readText(_ element: Element, tagPosition: Int) throws(PropertyListError) -> PropertyListObject {
        let offset = storage.count
        while true {
            // Copy each run of plain bytes in one go; only '<' and '&' need attention.
            let runStart = position
            while position < input.count, input[position] != UInt8(ascii: "<"), input[position] != UInt8(ascii: "&") {
                position += 1
            }
            try appendText(runStart ..< position, stringAt: offset, tagPosition: tagPosition)
            guard position < input.count else {
                throw failure(.truncated, at: position, "the input ends inside <\(element.rawValue)> opened at line \(line(at: tagPosition))")
            }
            if input[position] == UInt8(ascii: "&") {
                let reference = try readReference(at: position)
                try appendScalar(reference.scalar, stringAt: offset, tagPosition: tagPosition)
                position = reference.end
            } else if matches("<![CDATA[", at: position) {
                let contentStart = position + 9
                guard let contentEnd = find("]]>", from: contentStart) else {
                    throw failure(.truncated, at: position, "CDATA section is not closed with ']]>'")
                }
                try appendText(contentStart ..< contentEnd, stringAt: offset, tagPosition: tagPosition)
                position = contentEnd + 3
            } else {
                // Anything but the end tag (a nested element, a comment) is refused, as CoreFoundation does.
                try readEndTag(closing: element, openedAt: tagPosition)
                return PropertyListObject(kind: .utf8String, first: UInt64(offset), second: UInt64(storage.count - offset))
            }
        }
    }

    /// Decodes the reference at `index` ('&'): one of the five predefined entities or a character
    /// reference. Any other entity is forbidden: nothing can define one, because DTDs are refused,
    /// and expanding entities is how XML entity attacks start.
    func readReference(at index: Int) throws(PropertyListError) -> (scalar: UInt32, end: Int) {
        var cursor = index + 1
        if cursor < input.count, input[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let isHex = cursor < input.count && input[cursor] == UInt8(ascii: "x")
            if isHex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < input.count, let digit = XMLPropertyListReader.digitValue(input[cursor], hex: isHex) {
                value = value * (isHex ? 16 : 10) + UInt32(digit)
                // Checked per digit, so that a long run of digits cannot overflow.
                guard value <= 0x10FFFF else {
                    throw failure(.invalidXML, at: index, "character reference beyond U+10FFFF")
                }
                cursor += 1
            }
            guard cursor > digitsStart, cursor < input.count, input[cursor] == UInt8(ascii: ";") else {
                throw failure(.invalidXML, at: index, "malformed character reference \(describe(index ..< cursor + 1))")
            }
            guard value != 0, !(0xD800 ... 0xDFFF).contains(value) else {
                throw failure(.invalidXML, at: index, "character reference \(describe(index ..< cursor + 1)) is not a character")
            }
            return (value, cursor + 1)
        }

        let nameStart = cursor
        while cursor < input.count, isEntityNameByte(input[cursor]) { cursor += 1 }
        let name = nameStart ..< cursor
        guard !name.isEmpty, cursor < input.count, input[cursor] == UInt8(ascii: ";") else {
            throw failure(.invalidXML, at: index, "'&' must start a reference such as &amp;")
        }
        let predefined: [(name: StaticString, scalar: UInt8)] = [
            ("lt", UInt8(ascii: "<")), ("gt", UInt8(ascii: ">")), ("amp", UInt8(ascii: "&")),
            ("quot", UInt8(ascii: "\"")), ("apos", UInt8(ascii: "'")),
        ]
        for entity in predefined where name.count == entity.name.utf8CodeUnitCount && matches(entity.name, at: nameStart) {
            return (UInt32(entity.scalar), cursor + 1)
        }
        throw failure(.forbiddenXMLConstruct, at: index,
                      "entity \(describe(index ..< cursor + 1)) is not allowed; only &lt; &gt; &amp; &quot; &apos; and &#…; are")
    }

    /// Appends a run of input bytes to the string being built, after the size and UTF-8 checks.
    /// Runs end only at ASCII bytes ('<', '&'), so a well-formed document's runs are each valid.
    private mutating func appendText(_ run: Range<Int>, stringAt offset: Int, tagPosition: Int) throws(PropertyListError) {
        guard !run.isEmpty else { return }
        try checkStringSize(storage.count - offset + run.count, tagPosition: tagPosition)
        if let bad = firstInvalidUTF8(in: run) {
            throw failure(.invalidString, at: bad, "invalid UTF-8 (byte 0x\(hex(input[bad])))")
        }
        storage.append(contentsOf: UnsafeBufferPointer(rebasing: input[run]))
    }

    /// Appends the UTF-8 encoding of a scalar decoded from a reference.
    private mutating func appendScalar(_ scalar: UInt32, stringAt offset: Int, tagPosition: Int) throws(PropertyListError) {
        let width = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
        try checkStringSize(storage.count - offset + width, tagPosition: tagPosition)
        switch width {
        case 1:
            storage.append(UInt8(scalar))
        case 2:
            storage.append(0xC0 | UInt8(scalar >> 6))
            storage.append(0x80 | UInt8(scalar & 0x3F))
        case 3:
            storage.append(0xE0 | UInt8(scalar >> 12))
            storage.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            storage.append(0x80 | UInt8(scalar & 0x3F))
        default:
            storage.append(0xF0 | UInt8(scalar >> 18))
            storage.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            storage.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            storage.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    private func checkStringSize(_ byteCount: Int, tagPosition: Int) throws(PropertyListError) {
        guard byteCount <= limits.maxStringBytes else {
            throw failure(.stringTooLarge, at: tagPosition, "string longer than \(limits.maxStringBytes) bytes")
        }
    }

    /// The index of the first byte in `run` that is not well-formed UTF-8 (Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF), or nil.
    func firstInvalidUTF8(in run: Range<Int>) -> Int? {
        var index = run.lowerBound
        let end = run.upperBound
        while index < end {
            let lead = input[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let second: ClosedRange<UInt8>
            switch lead {
            case 0xC2 ... 0xDF: (length, second) = (2, 0x80 ... 0xBF)
            case 0xE0: (length, second) = (3, 0xA0 ... 0xBF)
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: (length, second) = (3, 0x80 ... 0xBF)
            case 0xED: (length, second) = (3, 0x80 ... 0x9F)
            case 0xF0: (length, second) = (4, 0x90 ... 0xBF)
            case 0xF1 ... 0xF3: (length, second) = (4, 0x80 ... 0xBF)
            case 0xF4: (length, second) = (4, 0x80 ... 0x8F)
            default: return index
            }
            guard end - index >= length, second.contains(input[index + 1]) else { return index }
            for offset in 2 ..< length where input[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }

    /// ASCII letters, digits, '_', ':', '.', '-' and any non-ASCII byte: enough to take in a whole
    /// entity name so that it can be reported, without judging it.
    private func isEntityNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
             UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."),
             UInt8(ascii: "-"), 0x80 ... 0xFF:
            return true
        default:
            return false
        }
    }
}
