/// Renders the archive graph itself, losslessly: `$archiver`, `$version`, `$top` and the
/// `$objects` table, with UIDs as `{"$uid": n}` and the plist kinds JSON cannot tell apart tagged —
/// `{"$real": 1.0}`, `{"$data": "base64"}`, `{"$date": seconds since 2001}`, `{"$set": […]}`.
/// Strings, integers, booleans, arrays and dictionaries are themselves. `encode` can rebuild an
/// archive from this that Foundation decodes to an equal graph.
///
/// Walks the plist with an explicit stack; nesting beyond `maxDepth` (which includes any plist-level
/// cycle) is an error, and the output budget applies.
struct TypedRenderer {
    let archive: KeyedArchive
    let redactions: Redactions
    let limits: DecodeLimits
    /// The document so far (all of it when rendering whole; the unflushed part when streaming).
    private(set) var output: JSONOutput
    /// Nested archives already rendered as `{"$archive":…}`, by the plist index of their data.
    let nestedJSON: [Int: [UInt8]]

    private enum Item {
        case value(plistIndex: Int, depth: Int)
        case nullUID
        case literal(StaticString)
        case key(plistIndex: Int)
    }

    private var stack: [Item] = []

    /// With a `sink`, the document goes to it in chunks of about `chunkSize` bytes as it is
    /// rendered; without, it is kept whole in `output.bytes`.
    init(archive: KeyedArchive, redactions: Redactions, limits: DecodeLimits, nestedJSON: [Int: [UInt8]] = [:],
         sink: JSONChunkConsumer? = nil, chunkSize: Int = JSONOutput.defaultChunkSize) {
        self.archive = archive
        self.nestedJSON = nestedJSON
        self.redactions = redactions
        self.limits = limits
        self.output = JSONOutput(limits: limits, sink: sink, chunkSize: chunkSize, wholeCapacityHint: archive.plist.bytes.count * 3)
    }

    /// Writes the document into `output`; its last bytes stay buffered (see `JSONOutput.flushIfFull`).
    /// Returns early, unfinished, when a streaming sink stops taking bytes.
    mutating func render() throws(ArchiveError) {
        let plist = archive.plist
        output.append("{\"$archiver\":\"NSKeyedArchiver\",\"$version\":")
        if let version = plist.dictionaryValue(plist.root, forKey: "$version") {
            output.appendInteger(plist.integer128(plist[version]))
        }
        output.append(",\"$top\":{")
        for (position, entry) in archive.top.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output.appendString(entry.name)
            if let inline = entry.inlineValue, !redactions.topNames.contains(entry.name) {
                output.append(UInt8(ascii: ":"))
                stack.append(.value(plistIndex: inline, depth: 1))
                try drain()
                continue
            }
            output.append(":{\"$uid\":")
            output.appendInteger(redactions.topNames.contains(entry.name) ? 0 : entry.uid)
            output.append(UInt8(ascii: "}"))
        }
        output.append("},\"$objects\":[")
        for uid in 0 ..< archive.objectCount {
            if output.flushIfFull() { return }
            if uid > 0 { output.append(UInt8(ascii: ",")) }
            try renderEntry(uid)
        }
        output.append("]}")
        try output.checkFinalSize()
    }

    /// One `$objects` entry; redacted objects become null, redacted sites `{"$uid":0}`.
    private mutating func renderEntry(_ uid: Int) throws(ArchiveError) {
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        if !redactions.objects.isEmpty, redactions.objects.contains(uid) {
            output.append("null")
            return
        }
        guard !redactions.isEmpty, plist.kind(of: index) == .dictionary, case .object = archive.entries[uid] else {
            stack.append(.value(plistIndex: index, depth: 1))
            try drain()
            return
        }
        output.append(UInt8(ascii: "{"))
        for pair in 0 ..< plist.count(of: index) {
            if pair > 0 { output.append(UInt8(ascii: ",")) }
            appendKey(plist.dictionaryKey(index, pair: pair))
            let value = plist.dictionaryValue(index, pair: pair)
            if redactions.sites.contains(ReferenceSite(uid: uid, pair: pair)) {
                output.append("{\"$uid\":0}")
            } else if plist.kind(of: value) == .array || plist.kind(of: value) == .set {
                output.append(plist.kind(of: value) == .set ? "{\"$set\":[" : "[")
                for (position, element) in plist.children(of: value).enumerated() {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    if redactions.sites.contains(ReferenceSite(uid: uid, pair: pair, element: position)) {
                        output.append("{\"$uid\":0}")
                    } else {
                        stack.append(.value(plistIndex: Int(element), depth: 3))
                        try drain()
                    }
                }
                output.append(plist.kind(of: value) == .set ? "]}" : "]")
            } else {
                stack.append(.value(plistIndex: value, depth: 2))
                try drain()
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func drain() throws(ArchiveError) {
        let plist = archive.plist
        while let item = stack.popLast() {
            if output.flushIfFull() {
                stack.removeAll()
                return
            }
            switch item {
            case .literal(let text):
                output.append(text)
            case .nullUID:
                output.append("{\"$uid\":0}")
            case .key(let index):
                appendKey(index)
            case .value(let index, let depth):
                if let problem = output.countNode() { throw ArchiveError(.outputLimitExceeded, path: "/$objects", problem) }
                guard depth <= limits.maxDepth else {
                    throw ArchiveError(.depthLimitExceeded, path: "/$objects", "plist values nest deeper than \(limits.maxDepth)")
                }
                let object = plist[index]
                switch object.kind {
                case .integer: output.appendInteger(plist.integer128(object))
                case .bool: output.append(plist.boolValue(at: index) ? "true" : "false")
                case .null: output.append("null")
                case .asciiString, .utf8String, .utf16String: appendStringObject(index)
                case .real:
                    output.append("{\"$real\":")
                    output.appendDouble(plist.realValue(at: index))
                    output.append(UInt8(ascii: "}"))
                case .date:
                    output.append("{\"$date\":")
                    output.appendDouble(plist.realValue(at: index))
                    output.append(UInt8(ascii: "}"))
                case .data where nestedJSON[index] != nil:
                    output.append(contentsOf: nestedJSON[index]!)
                case .data:
                    output.append("{\"$data\":")
                    output.appendBase64(plist.data(at: index)!)
                    output.append(UInt8(ascii: "}"))
                case .uid:
                    output.append("{\"$uid\":")
                    output.appendInteger(plist.uidValue(at: index))
                    output.append(UInt8(ascii: "}"))
                case .array, .set:
                    output.append(object.kind == .set ? "{\"$set\":[" : "[")
                    stack.append(.literal(object.kind == .set ? "]}" : "]"))
                    let children = plist.children(of: index)
                    for position in (0 ..< children.count).reversed() {
                        stack.append(.value(plistIndex: Int(children[children.startIndex + position]), depth: depth + 1))
                        if position > 0 { stack.append(.literal(",")) }
                    }
                case .dictionary:
                    output.append(UInt8(ascii: "{"))
                    stack.append(.literal("}"))
                    for pair in (0 ..< plist.count(of: index)).reversed() {
                        stack.append(.value(plistIndex: plist.dictionaryValue(index, pair: pair), depth: depth + 1))
                        stack.append(.key(plistIndex: plist.dictionaryKey(index, pair: pair)))
                        if pair > 0 { stack.append(.literal(",")) }
                    }
                }
            }
        }
    }

    private mutating func appendKey(_ index: Int) {
        appendStringObject(index)
        output.append(UInt8(ascii: ":"))
    }

    private mutating func appendStringObject(_ index: Int) {
        let object = archive.plist[index]
        archive.plist.bytes.withUnsafeBufferPointer { buffer in
            let (start, length) = archive.plist.stringStorage(at: index)
            if object.kind == .utf16String {
                output.appendString(utf16BigEndian: UnsafeBufferPointer(rebasing: buffer[start...]), units: length)
            } else {
                output.appendString(utf8: UnsafeBufferPointer(rebasing: buffer[start ..< start + length]))
            }
        }
    }
}
