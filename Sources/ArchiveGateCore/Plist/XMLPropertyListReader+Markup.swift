/// Markup: the prolog (declaration, comments, DOCTYPE), tags and attributes, and the refusal of
/// every DTD construct and processing instruction.
extension XMLPropertyListReader.Scanner {
    /// Reads what may precede `<plist>`: a byte-order mark, the XML declaration, comments and one
    /// DOCTYPE without an internal subset. Leaves `position` at the root element's '<'.
    mutating func readProlog() throws(PropertyListError) {
        if matches("\u{FEFF}", at: 0) { position = 3 }
        skipWhitespace()
        if matches("<?xml", at: position), position + 5 < input.count,
           XMLPropertyListReader.isWhitespace(input[position + 5]) || input[position + 5] == UInt8(ascii: "?") {
            try readDeclaration()
        }
        var sawDoctype = false
        while true {
            try skipMisc()
            guard position < input.count else { throw failure(.truncated, at: position, "the input ends before <plist>") }
            guard input[position] == UInt8(ascii: "<") else {
                throw failure(.invalidXML, at: position, "text is not allowed before <plist>")
            }
            if matches("<!DOCTYPE", at: position) {
                guard !sawDoctype else { throw failure(.invalidXML, at: position, "a second DOCTYPE") }
                try readDoctype()
                sawDoctype = true
            } else if matches("<!", at: position) || matches("<?", at: position) {
                throw markupFailure()
            } else {
                return
            }
        }
    }

    /// Reads `<?xml version="1.0" encoding="UTF-8"?>`. The declared encoding must be the one the
    /// input was detected in (`XMLSourceEncoding`), so a declaration naming another encoding is
    /// refused rather than misread.
    private mutating func readDeclaration() throws(PropertyListError) {
        let start = position
        position += 5
        for attribute in try readAttributes() where equalsIgnoringCase(attribute.name, "encoding") {
            let value = attribute.value
            let name = String(decoding: input[value], as: UTF8.self).lowercased()
            guard sourceEncoding.accepts(declared: name) else {
                throw failure(.invalidXML, at: start, "encoding \(describe(value)) is not supported here; UTF-8, UTF-16 with a byte-order mark and ISO-8859-1 are")
            }
        }
        guard matches("?>", at: position) else {
            throw failure(.invalidXML, at: start, "the XML declaration does not end with '?>'")
        }
        position += 2
    }

    /// Reads `<!DOCTYPE plist PUBLIC "…" "…">` (or `<!DOCTYPE plist>`). Its identifiers are never
    /// fetched. An internal subset, where entities would be declared, and a SYSTEM-only DTD are refused.
    private mutating func readDoctype() throws(PropertyListError) {
        let start = position
        // Find the end first, refusing an internal subset wherever it is, so that one is reported
        // as forbidden even when the rest of the DOCTYPE is also malformed.
        var end = start + 9
        var quote: UInt8?
        while end < input.count {
            let byte = input[end]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw failure(.forbiddenXMLConstruct, at: end, "a DOCTYPE internal subset ('[…]') is not allowed: it could declare entities")
            } else if byte == UInt8(ascii: ">") {
                break
            }
            end += 1
        }
        guard end < input.count else { throw failure(.truncated, at: start, "the DOCTYPE is not closed with '>'") }

        position = start + 9
        guard skipWhitespace(), matches("plist", at: position) else {
            throw failure(.invalidXML, at: start, "the DOCTYPE must name the plist element")
        }
        position += 5
        let spaced = skipWhitespace()
        if spaced, matches("PUBLIC", at: position) {
            position += 6
            for _ in 0 ..< 2 {
                guard skipWhitespace(), position < end,
                      input[position] == UInt8(ascii: "\"") || input[position] == UInt8(ascii: "'") else {
                    throw failure(.invalidXML, at: start, "DOCTYPE PUBLIC needs a quoted public and system identifier")
                }
                let quote = input[position]
                position += 1
                while position < end, input[position] != quote { position += 1 }
                position += 1
            }
            skipWhitespace()
        } else if spaced, matches("SYSTEM", at: position) {
            throw failure(.forbiddenXMLConstruct, at: start,
                          "a SYSTEM DOCTYPE names an external DTD; only <!DOCTYPE plist PUBLIC …> is accepted")
        }
        guard position == end else { throw failure(.invalidXML, at: position, "unexpected content in the DOCTYPE") }
        position = end + 1
    }

    /// The error for `<!…>` or `<?…?>` where only an element, text or a comment may be: DTD
    /// declarations and processing instructions are refused outright, anything else is malformed.
    func markupFailure() -> PropertyListError {
        if matches("<?", at: position) {
            return failure(.forbiddenXMLConstruct, at: position,
                           "processing instructions are not allowed (only the leading <?xml …?> declaration)")
        }
        let declarations: [StaticString] = ["<!ENTITY", "<!DOCTYPE", "<!ELEMENT", "<!ATTLIST", "<!NOTATION"]
        for keyword in declarations where matches(keyword, at: position) {
            return failure(.forbiddenXMLConstruct, at: position, "DTD declarations (\(keyword)) are not allowed")
        }
        if matches("<![CDATA[", at: position) {
            return failure(.invalidXML, at: position, "CDATA is allowed only inside <string> and <key>")
        }
        return failure(.invalidXML, at: position, "malformed markup \(describe(position ..< position + 2))")
    }

    /// Advances past whitespace and comments, the only things allowed between elements.
    mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipWhitespace()
            guard matches("<!--", at: position) else { return }
            guard let end = find("-->", from: position + 4) else {
                throw failure(.truncated, at: position, "comment is not closed with '-->'")
            }
            position = end + 3
        }
    }

    // MARK: - Tags

    /// Reads a start tag at `position` ('<'), leaving `position` after its '>'. Only `<plist>` may
    /// carry attributes, and they are checked for form but otherwise ignored.
    mutating func readStartTag() throws(PropertyListError) -> (element: Element, isEmpty: Bool) {
        let start = position
        position += 1
        let element = try readElementName()
        let attributes = try readAttributes()
        guard attributes.isEmpty || element == .plist else {
            throw failure(.invalidXML, at: start, "<\(element.rawValue)> takes no attributes")
        }
        if matches("/>", at: position) {
            position += 2
            return (element, true)
        }
        guard input[position] == UInt8(ascii: ">") else {
            throw failure(.invalidXML, at: start, "<\(element.rawValue) is not closed with '>'")
        }
        position += 1
        return (element, false)
    }

    /// Reads an end tag `</name>` at `position`, leaving `position` after its '>'.
    mutating func readEndTag() throws(PropertyListError) -> Element {
        let start = position
        position += 2
        let element = try readElementName()
        skipWhitespace()
        guard position < input.count else { throw failure(.truncated, at: start, "the input ends inside a tag") }
        guard input[position] == UInt8(ascii: ">") else {
            throw failure(.invalidXML, at: start, "</\(element.rawValue) is not closed with '>'")
        }
        position += 1
        return element
    }

    /// Reads the end tag of a value element whose content has just been read.
    mutating func readEndTag(closing element: Element, openedAt tagPosition: Int) throws(PropertyListError) {
        guard position < input.count else {
            throw failure(.truncated, at: position, "the input ends inside <\(element.rawValue)> opened at line \(line(at: tagPosition))")
        }
        guard matches("</", at: position) else {
            throw failure(.invalidXML, at: position, "unexpected content in <\(element.rawValue)>; expected </\(element.rawValue)>")
        }
        let closePosition = position
        let closing = try readEndTag()
        guard closing == element else {
            throw failure(.invalidXML, at: closePosition,
                          "</\(closing.rawValue)> does not close <\(element.rawValue)> opened at line \(line(at: tagPosition))")
        }
    }

    private mutating func readElementName() throws(PropertyListError) -> Element {
        let start = position
        while position < input.count, !isNameDelimiter(input[position]) { position += 1 }
        guard position < input.count else { throw failure(.truncated, at: start, "the input ends inside a tag") }
        guard let element = Element(input[start ..< position]) else {
            throw failure(.invalidXML, at: start, "unknown element \(describe(start ..< position))")
        }
        return element
    }

    /// Reads `name="value"` pairs until '>', '/' or '?', leaving `position` there. Values may hold
    /// only the references text may hold.
    private mutating func readAttributes() throws(PropertyListError) -> [(name: Range<Int>, value: Range<Int>)] {
        var attributes: [(name: Range<Int>, value: Range<Int>)] = []
        while true {
            let spaced = skipWhitespace()
            guard position < input.count else { throw failure(.truncated, at: position, "the input ends inside a tag") }
            let byte = input[position]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") { return attributes }
            let nameStart = position
            while position < input.count, !isNameDelimiter(input[position]) { position += 1 }
            let name = nameStart ..< position
            guard spaced, !name.isEmpty else { throw failure(.invalidXML, at: nameStart, "malformed attribute in a tag") }
            skipWhitespace()
            guard position < input.count, input[position] == UInt8(ascii: "=") else {
                throw failure(.invalidXML, at: nameStart, "attribute \(describe(name)) has no value")
            }
            position += 1
            skipWhitespace()
            guard position < input.count,
                  input[position] == UInt8(ascii: "\"") || input[position] == UInt8(ascii: "'") else {
                throw failure(.invalidXML, at: nameStart, "the value of attribute \(describe(name)) is not quoted")
            }
            let quote = input[position]
            position += 1
            let valueStart = position
            while position < input.count, input[position] != quote {
                if input[position] == UInt8(ascii: "<") {
                    throw failure(.invalidXML, at: position, "'<' in an attribute value")
                } else if input[position] == UInt8(ascii: "&") {
                    position = try readReference(at: position).end
                } else {
                    position += 1
                }
            }
            guard position < input.count else { throw failure(.truncated, at: valueStart, "attribute value is not closed") }
            attributes.append((name, valueStart ..< position))
            position += 1
        }
    }

    // MARK: - Bytes

    /// Advances past XML whitespace; returns whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position
        while position < input.count, XMLPropertyListReader.isWhitespace(input[position]) { position += 1 }
        return position > start
    }

    /// Whether `literal` occurs at `index`.
    func matches(_ literal: StaticString, at index: Int) -> Bool {
        literal.withUTF8Buffer { expected in
            guard index >= 0, expected.count <= input.count - index else { return false }
            for offset in 0 ..< expected.count where input[index + offset] != expected[offset] { return false }
            return true
        }
    }

    /// Whether the bytes in `range` spell `literal`, ASCII letters compared without case.
    func equalsIgnoringCase(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { expected in
            guard range.count == expected.count else { return false }
            for offset in 0 ..< expected.count where lowercased(input[range.lowerBound + offset]) != lowercased(expected[offset]) {
                return false
            }
            return true
        }
    }

    /// The index of the next `literal` at or after `index`, or nil.
    func find(_ literal: StaticString, from index: Int) -> Int? {
        let first = literal.withUTF8Buffer { $0[0] }
        var cursor = index
        while cursor < input.count {
            if input[cursor] == first, matches(literal, at: cursor) { return cursor }
            cursor += 1
        }
        return nil
    }

    /// A short, printable, quoted rendering of input bytes for messages: they come from an attacker.
    func describe(_ range: Range<Int>) -> String {
        let shown = range.clamped(to: 0 ..< input.count)
        var text = "'"
        for byte in input[shown.prefix(32)] {
            text.append(byte >= 0x20 && byte < 0x7F ? Character(Unicode.Scalar(byte)) : "?")
        }
        return text + (shown.count > 32 ? "…'" : "'")
    }

    private func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private func isNameDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "?"),
             UInt8(ascii: "<"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            return true
        default:
            return false
        }
    }
}
