/// Reads an XML property list (`<plist version="1.0">…</plist>`) into a flat `PropertyList`.
///
/// The input is hostile, so this is not a general XML parser but a hand-written scanner that knows
/// only the plist vocabulary. It never processes a DTD and resolves no entity except the five
/// predefined ones and character references, so there is nothing to expand and nothing to fetch.
/// It does not recurse: open containers live on an explicit stack whose depth is checked before it
/// grows, finished values wait in one `pending` list until their container closes (so each
/// container's children land contiguously in `references`), and decoded text and base64 payloads
/// are appended to a side buffer that string and data objects point into.
///
/// Keyed-archive UIDs, which XML can only spell as
/// `<dict><key>CF$UID</key><integer>N</integer></dict>`, become `.uid` objects, as CoreFoundation
/// does. Errors carry the 1-based line where the problem was found.
struct XMLPropertyListReader {
    let bytes: [UInt8]
    let limits: PropertyListLimits
    /// What the input was before it was transcoded to `bytes` (UTF-8); the declaration must agree.
    let sourceEncoding: XMLSourceEncoding

    init(bytes: [UInt8], limits: PropertyListLimits, sourceEncoding: XMLSourceEncoding = .utf8) {
        self.bytes = bytes
        self.limits = limits
        self.sourceEncoding = sourceEncoding
    }

    /// Whether the input starts like XML: an optional UTF-8 byte-order mark, whitespace, then '<'.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<")
    }

    func read() throws(PropertyListError) -> PropertyList {
        let tables = try bytes.withUnsafeBufferPointer { (buffer) throws(PropertyListError) -> Tables in
            var scanner = Scanner(input: buffer, limits: limits, sourceEncoding: sourceEncoding)
            try scanner.readDocument()
            return Tables(objects: scanner.objects, references: scanner.references, storage: scanner.storage,
                          root: scanner.root, dictionaries: scanner.dictionaries,
                          unaccountedByteOffset: scanner.unaccountedByteOffset)
        }
        var plist = PropertyList(format: .xml, objects: tables.objects, references: tables.references,
                                 bytes: ByteStorage(tables.storage), root: tables.root)
        plist.unaccountedByteOffset = tables.unaccountedByteOffset
        // The key rules compare key text in the finished side buffer, so they run once, at the end.
        for dictionary in tables.dictionaries {
            if let problem = DictionaryKeyRules.check(plist, dictionary: dictionary.index) {
                let line = bytes.withUnsafeBufferPointer { Self.line(at: dictionary.position, in: $0) }
                throw PropertyListError(problem.code, line: line, problem.message)
            }
        }
        return plist
    }

    /// XML's four whitespace bytes.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// The 1-based line of byte `index`; only computed when reporting an error.
    static func line(at index: Int, in input: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        for byte in input[..<min(max(index, 0), input.count)] where byte == 0x0A { line += 1 }
        return line
    }
}

extension XMLPropertyListReader {
    /// The plist vocabulary; any other element name is an error.
    enum Element: String, CaseIterable {
        case plist, dict, array, key, string, integer, real, `true`, `false`, date, data

        /// Every name fits in 8 bytes, so a name is matched as one packed integer: tag names are
        /// the most frequent thing the scanner looks up.
        static let packedNames: [(packed: UInt64, element: Element)] = allCases.map { (pack($0.rawValue.utf8), $0) }

        init?(_ name: Slice<UnsafeBufferPointer<UInt8>>) {
            guard name.count <= 8 else { return nil }
            let packed = Self.pack(name)
            guard let match = Self.packedNames.first(where: { $0.packed == packed }) else { return nil }
            self = match.element
        }

        private static func pack(_ bytes: some Sequence<UInt8>) -> UInt64 {
            bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// An open `<plist>`, `<array>` or `<dict>`: where its children start in `pending`, and where
    /// its start tag is (for messages and for the key rules).
    struct Frame {
        var element: Element
        var pendingStart: Int
        var position: Int
    }

    /// What a scan produces, without the input buffer it scanned.
    struct Tables {
        var objects: PropertyListObjectTable
        var references: [UInt32]
        var storage: [UInt8]
        var root: Int
        var dictionaries: [(index: Int, position: Int)]
        var unaccountedByteOffset: Int?
    }

    /// The scan of one input buffer. It lives only inside `withUnsafeBufferPointer`.
    struct Scanner {
        let input: UnsafeBufferPointer<UInt8>
        let limits: PropertyListLimits
        let sourceEncoding: XMLSourceEncoding
        /// The next byte to read.
        var position = 0
        var objects = PropertyListObjectTable()
        var references: [UInt32] = []
        /// Decoded string bytes and base64 payloads; string and data objects point here.
        var storage: [UInt8] = []
        /// Finished values whose container is still open, in document order. A closing container
        /// moves its children from the end of this list to `references`.
        var pending: [UInt32] = []
        /// Open elements: `<plist>` at the bottom, then arrays and dictionaries.
        var frames: [Frame] = []
        var root = 0
        /// Every non-empty dictionary and where its tag is, for the key rules after the scan.
        var dictionaries: [(index: Int, position: Int)] = []
        /// The first byte after `</plist>` that is neither whitespace nor a comment, if any.
        var unaccountedByteOffset: Int?

        init(input: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits, sourceEncoding: XMLSourceEncoding = .utf8) {
            self.input = input
            self.limits = limits
            self.sourceEncoding = sourceEncoding
        }

        /// The most objects the table may hold: the configured limit, and what a `UInt32`
        /// reference can name.
        var objectLimit: Int { min(limits.maxObjects, Int(UInt32.max)) }

        func failure(_ code: PropertyListError.Code, at index: Int, _ message: String) -> PropertyListError {
            PropertyListError(code, line: line(at: index), message)
        }

        func line(at index: Int) -> Int { XMLPropertyListReader.line(at: index, in: input) }
    }
}

extension XMLPropertyListReader.Scanner {
    typealias Element = XMLPropertyListReader.Element
    typealias Frame = XMLPropertyListReader.Frame

    /// Reads the whole document: prolog, `<plist>` with exactly one value; after `</plist>`, whitespace
    /// and comments are skipped and the first other byte is recorded (`unaccountedByteOffset`). One loop handles every tag between; it never recurses.
    mutating func readDocument() throws(PropertyListError) {
        try readProlog()
        let rootPosition = position
        let (element, isEmpty) = try readStartTag()
        guard element == .plist else {
            throw failure(.invalidXML, at: rootPosition, "the root element must be <plist>, not <\(element.rawValue)>")
        }
        guard !isEmpty else { throw failure(.invalidXML, at: rootPosition, "<plist/> holds no value") }
        frames.append(Frame(element: .plist, pendingStart: 0, position: rootPosition))

        while let frame = frames.last {
            try skipMisc()
            guard position + 1 < input.count else {
                throw failure(.truncated, at: input.count,
                              "the input ends inside <\(frame.element.rawValue)> opened at line \(line(at: frame.position))")
            }
            guard input[position] == UInt8(ascii: "<") else {
                throw failure(.invalidXML, at: position, "text is not allowed directly inside <\(frame.element.rawValue)>")
            }
            switch input[position + 1] {
            case UInt8(ascii: "/"): try closeContainer(frame)
            case UInt8(ascii: "!"), UInt8(ascii: "?"): throw markupFailure()
            default: try readValue(in: frame)
            }
        }

        // Anything else after </plist> is not read (Foundation ignores it too): the plist is whole,
        // but the input holds bytes nothing accounts for (`PropertyList.unaccountedByteOffset`).
        if (try? skipMisc()) == nil || position < input.count { unaccountedByteOffset = position }
    }

    /// Reads one value's start tag and, for everything but a non-empty container, the whole value.
    private mutating func readValue(in frame: Frame) throws(PropertyListError) {
        let tagPosition = position
        let (element, isEmpty) = try readStartTag()
        try checkPlacement(of: element, in: frame, at: tagPosition)
        let object: PropertyListObject
        switch element {
        case .plist:
            throw failure(.invalidXML, at: tagPosition, "<plist> cannot be nested")
        case .array, .dict:
            if isEmpty {
                object = PropertyListObject(kind: element == .array ? .array : .dictionary, first: UInt64(references.count))
            } else {
                // `frames` holds `<plist>` plus the open containers, so its count is the new depth.
                guard frames.count <= limits.maxDepth else {
                    throw failure(.depthLimitExceeded, at: tagPosition, "containers nest deeper than \(limits.maxDepth)")
                }
                frames.append(Frame(element: element, pendingStart: pending.count, position: tagPosition))
                return
            }
        case .key, .string:
            object = isEmpty
                ? PropertyListObject(kind: .utf8String, first: UInt64(storage.count))
                : try readText(element, tagPosition: tagPosition)
        case .integer:
            guard !isEmpty else { throw failure(.invalidInteger, at: tagPosition, "<integer/> holds no number") }
            object = try readInteger(tagPosition: tagPosition)
        case .real:
            guard !isEmpty else { throw failure(.invalidReal, at: tagPosition, "<real/> holds no number") }
            object = try readReal(tagPosition: tagPosition)
        case .date:
            guard !isEmpty else { throw failure(.invalidDate, at: tagPosition, "<date/> holds no date") }
            object = try readDate(tagPosition: tagPosition)
        case .data:
            object = isEmpty
                ? PropertyListObject(kind: .data, first: UInt64(storage.count))
                : try readData(tagPosition: tagPosition)
        case .true, .false:
            // `<true></true>` is accepted as CoreFoundation does, but nothing may sit between.
            if !isEmpty { try readEndTag(closing: element, openedAt: tagPosition) }
            object = PropertyListObject(kind: .bool, first: element == .true ? 1 : 0)
        }
        try append(object, at: tagPosition)
    }

    /// Dictionaries alternate `<key>` and value; `<key>` appears nowhere else; `<plist>` holds one value.
    private func checkPlacement(of element: Element, in frame: Frame, at tagPosition: Int) throws(PropertyListError) {
        let held = pending.count - frame.pendingStart
        switch frame.element {
        case .dict where held % 2 == 0:
            guard element == .key else {
                throw failure(.invalidXML, at: tagPosition, "expected <key> in <dict>, found <\(element.rawValue)>")
            }
        case .dict:
            guard element != .key else {
                throw failure(.invalidXML, at: tagPosition, "a <key> must be followed by a value, not by another <key>")
            }
        default:
            guard element != .key else {
                throw failure(.invalidXML, at: tagPosition, "<key> is allowed only directly inside <dict>")
            }
            guard frame.element != .plist || held == 0 else {
                throw failure(.invalidXML, at: tagPosition, "<plist> holds more than one value")
            }
        }
    }

    /// Reads the end tag of the innermost open element and turns it into an object.
    private mutating func closeContainer(_ frame: Frame) throws(PropertyListError) {
        let tagPosition = position
        let element = try readEndTag()
        guard element == frame.element else {
            throw failure(.invalidXML, at: tagPosition,
                          "</\(element.rawValue)> does not close <\(frame.element.rawValue)> opened at line \(line(at: frame.position))")
        }
        frames.removeLast()
        let held = pending.count - frame.pendingStart
        switch frame.element {
        case .plist:
            guard held == 1 else { throw failure(.invalidXML, at: tagPosition, "<plist> holds no value") }
            root = Int(pending[frame.pendingStart])
            pending.removeLast()
        case .dict:
            guard held % 2 == 0 else {
                throw failure(.invalidXML, at: tagPosition,
                              "the last <key> of <dict> opened at line \(line(at: frame.position)) has no value")
            }
            if held == 2, let uid = try uid(key: Int(pending[frame.pendingStart]),
                                             value: Int(pending[frame.pendingStart + 1]), dictionaryAt: frame.position) {
                pending.removeLast(2)
                try append(uid, at: frame.position)
                return
            }
            if held > 0 { dictionaries.append((objects.count, frame.position)) }
            try appendContainer(.dictionary, from: frame, count: held / 2)
        default:
            try appendContainer(.array, from: frame, count: held)
        }
    }

    /// Moves a closing container's children from `pending` to `references` and appends it.
    private mutating func appendContainer(_ kind: PropertyListObject.Kind, from frame: Frame, count: Int) throws(PropertyListError) {
        let start = references.count
        references.append(contentsOf: pending[frame.pendingStart...])
        pending.removeSubrange(frame.pendingStart...)
        try append(PropertyListObject(kind: kind, first: UInt64(start), second: UInt64(count)), at: frame.position)
    }

    /// The UID a one-pair dictionary `{CF$UID: N}` stands for, or nil when it is an ordinary
    /// dictionary. Like CoreFoundation, only an integer value makes a UID; unlike it, a value
    /// outside 0…2^32-1 is an error instead of being truncated.
    private mutating func uid(key: Int, value: Int, dictionaryAt position: Int) throws(PropertyListError) -> PropertyListObject? {
        let keyObject = objects[key]
        let valueObject = objects[value]
        guard valueObject.kind == .integer, keyObject.second == 6,
              storage[Int(keyObject.first) ..< Int(keyObject.first) + 6].elementsEqual("CF$UID".utf8) else { return nil }
        guard valueObject.second == 0, valueObject.first <= UInt64(UInt32.max) else {
            let number = Int128(_low: valueObject.first, _high: Int64(bitPattern: valueObject.second))
            throw failure(.invalidUID, at: position, "CF$UID \(number) is outside 0…\(UInt32.max)")
        }
        // The key and the number were the last objects added and the key's text the last bytes
        // stored; drop them so that the UID takes their place and XML archives stay compact.
        if key == objects.count - 2, value == objects.count - 1, Int(keyObject.first) + 6 == storage.count {
            objects.removeLast(2)
            storage.removeLast(6)
        }
        return PropertyListObject(kind: .uid, first: valueObject.first)
    }

    /// Adds a finished value to the table and to its container's pending children.
    private mutating func append(_ object: PropertyListObject, at tagPosition: Int) throws(PropertyListError) {
        guard objects.count < objectLimit else {
            throw failure(.objectLimitExceeded, at: tagPosition, "more than \(objectLimit) objects")
        }
        pending.append(UInt32(objects.count))
        objects.append(object)
    }
}
