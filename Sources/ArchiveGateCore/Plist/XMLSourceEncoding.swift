/// The character encodings an XML property list may arrive in, as CoreFoundation reads them:
/// UTF-8 (with or without a byte-order mark), UTF-16 little- or big-endian (told by its byte-order
/// mark, or by `<?` spelled in two-byte units), and ISO-8859-1 when the declaration names it.
/// Anything but UTF-8 is transcoded to UTF-8 before the scanner runs, so the scanner reads one
/// encoding; the declaration must then agree with what was detected.
enum XMLSourceEncoding: Sendable {
    case utf8, utf16LittleEndian, utf16BigEndian, latin1

    /// The encoding of `bytes`, from the byte-order mark, the first two characters or the declaration.
    static func detect(_ bytes: [UInt8]) -> XMLSourceEncoding {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return .utf16LittleEndian }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return .utf16BigEndian }
        if let name = declaredEncoding(bytes), ["iso-8859-1", "latin1", "iso_8859-1", "latin-1"].contains(name) { return .latin1 }
        return .utf8
    }

    /// Whether a declaration's `encoding="…"` (lowercased) agrees with the detected encoding.
    func accepts(declared name: String) -> Bool {
        switch self {
        case .utf8: ["utf-8", "utf8", "us-ascii", "ascii"].contains(name)
        case .utf16LittleEndian, .utf16BigEndian: ["utf-16", "utf16", "utf-16le", "utf-16be"].contains(name)
        case .latin1: ["iso-8859-1", "latin1", "iso_8859-1", "latin-1"].contains(name)
        }
    }

    /// `bytes` as UTF-8, without a byte-order mark. Unpaired surrogates and an odd UTF-16 length
    /// are errors at their byte offset.
    func utf8(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
        switch self {
        case .utf8:
            return bytes
        case .latin1:
            var output = [UInt8]()
            output.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes {
                if byte < 0x80 {
                    output.append(byte)
                } else {
                    output.append(0xC0 | byte >> 6)
                    output.append(0x80 | byte & 0x3F)
                }
            }
            return output
        case .utf16LittleEndian, .utf16BigEndian:
            return try transcodeUTF16(bytes, littleEndian: self == .utf16LittleEndian)
        }
    }

    private func transcodeUTF16(_ bytes: [UInt8], littleEndian: Bool) throws(PropertyListError) -> [UInt8] {
        guard bytes.count % 2 == 0 else {
            throw PropertyListError(.truncated, offset: bytes.count - 1, "UTF-16 input has an odd number of bytes")
        }
        func unit(at offset: Int) -> UInt32 {
            littleEndian ? UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 : UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
        }
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var offset = unit(at: 0) == 0xFEFF ? 2 : 0
        while offset < bytes.count {
            var scalar = unit(at: offset)
            let start = offset
            offset += 2
            if (0xD800 ... 0xDBFF).contains(scalar) {
                guard offset < bytes.count, (0xDC00 ... 0xDFFF).contains(unit(at: offset)) else {
                    throw PropertyListError(.invalidXML, offset: start, "UTF-16 input has an unpaired surrogate")
                }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (unit(at: offset) - 0xDC00)
                offset += 2
            } else if (0xDC00 ... 0xDFFF).contains(scalar) {
                throw PropertyListError(.invalidXML, offset: start, "UTF-16 input has an unpaired surrogate")
            }
            switch scalar {
            case ..<0x80:
                output.append(UInt8(scalar))
            case ..<0x800:
                output.append(UInt8(0xC0 | scalar >> 6))
                output.append(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                output.append(UInt8(0xE0 | scalar >> 12))
                output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                output.append(UInt8(0x80 | scalar & 0x3F))
            default:
                output.append(UInt8(0xF0 | scalar >> 18))
                output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                output.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        return output
    }

    /// The lowercased `encoding` of a leading `<?xml …?>` in an ASCII-compatible input, if any.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, XMLPropertyListReader.isWhitespace(bytes[start]) { start += 1 }
        guard bytes[start...].starts(with: Array("<?xml".utf8)) else { return nil }
        let window = bytes[start ..< min(bytes.count, start + 256)]
        guard let end = window.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = Array(String(decoding: bytes[start ..< end], as: UTF8.self).lowercased().utf8)
        let name = Array("encoding".utf8)
        guard let found = (0 ..< max(0, declaration.count - name.count + 1)).first(where: { declaration[$0...].starts(with: name) }) else {
            return nil
        }
        var position = found + name.count
        while position < declaration.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(declaration[position]) { position += 1 }
        guard position < declaration.count, declaration[position] == UInt8(ascii: "\"") || declaration[position] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = declaration[position]
        let value = declaration[(position + 1)...].prefix { $0 != quote }
        return String(decoding: value, as: UTF8.self)
    }
}
