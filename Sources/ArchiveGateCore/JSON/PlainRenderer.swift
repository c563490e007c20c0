/// Renders the archive as natural JSON (docs/JSON.md "JSON conventions"): an object keyed by the `$top`
/// names, Foundation values as JSON values, other classes as `{"$class": …}` with their fields in
/// archive order.
///
/// The walk runs on an explicit stack. Values (strings, numbers, data, dates and the Foundation
/// values that render without children) are written at every site. An object that renders as a
/// JSON object or array (a custom class, a non-empty Foundation collection or members form) is written once,
/// at its first site in document order; a later site, and a cycle, is
/// `{"$ref": "<pointer of that first rendering>"}` (docs/JSON.md "JSON conventions"), so the output stays
/// proportional to the archive however widely objects are shared. Object nesting is bounded by
/// `maxDepth` — whatever the archive's shape, nothing recurses.
struct PlainRenderer {
    let archive: KeyedArchive
    let redactions: Redactions
    let limits: DecodeLimits
    /// The document so far (all of it when rendering whole; the unflushed part when streaming).
    var output: JSONOutput
    /// JSON-pointer components from the root to the object being written.
    var path: [PathComponent] = []
    /// For objects currently being written: the path length at which they were entered; -1 otherwise.
    private var enteredAt: [Int32]
    /// The objects being written, outermost first.
    private var openUIDs: [Int] = []
    /// Per UID: the index in `firstRenderings` of the object's rendering, -1 before it is entered.
    private(set) var renderedAt: [Int32]
    /// Where each entered object was written: the object it was written in (-1 at the top) and the
    /// step from there, so a later site can spell the pointer of that first rendering; `inValue`:
    /// the object is written with its unread fields, its natural form under `/$value`.
    private(set) var firstRenderings: [(parent: Int32, component: PathComponent, inValue: Bool)] = []
    /// The `$ref` pointers already spelled (PlainRenderer+Pointers).
    var pointers = RenderedPointers()
    /// Foundation shapes, mostly already worked out by the policy walk.
    var shapes: ShapeMemo
    /// `{"$class":"Name"` of each class, built on first use.
    private var classOpenings: [[UInt8]]
    /// Nested archives already rendered as `{"$archive":…}`, by the plist index of their data.
    let nestedJSON: [Int: [UInt8]]

    /// One step of the output; plain data, so pushing and popping never touches reference counts.
    enum Item {
        case edge(target: Int, site: ReferenceSite?, topIndex: Int, component: PathComponent)
        case scalar(plistIndex: Int)
        /// An inline number of seconds since 2001 (a `scalarDate` member), as an ISO 8601 timestamp.
        case dateScalar(plistIndex: Int)
        /// An inline number Foundation reads with `decodeDouble` (a `.finiteNumber` field): the
        /// value of the double it becomes, so an integer beyond 2^53 is rounded as Foundation's is.
        case doubleScalar(plistIndex: Int)
        case inlineArray(uid: Int, pair: Int, plistIndex: Int)
        case literal(StaticString)
        /// UTF-16 units `start ..< start + length` of attributed string `uid`'s text (in `runTexts`).
        case runText(uid: Int, start: Int, length: Int)
        case fieldKey(uid: Int, pair: Int)
        case dictionaryKey(keyUID: Int)
        case leave(uid: Int, popsPath: Bool)
        /// Leaves the `$value` of an object written with its unread fields.
        case popPath
    }

    var stack: [Item] = []
    /// The UTF-16 text of each attributed string being written, for its `runText` items.
    var runTexts: [Int: [UInt16]] = [:]

    /// With a `sink`, the document goes to it in chunks of about `chunkSize` bytes as it is
    /// rendered; without, it is kept whole in `output.bytes`.
    init(archive: KeyedArchive, redactions: Redactions, limits: DecodeLimits, shapes: ShapeMemo? = nil,
         nestedJSON: [Int: [UInt8]] = [:], sink: JSONChunkConsumer? = nil, chunkSize: Int = JSONOutput.defaultChunkSize) {
        self.archive = archive
        self.nestedJSON = nestedJSON
        self.shapes = shapes ?? ShapeMemo(objectCount: archive.objectCount)
        self.classOpenings = Array(repeating: [], count: archive.classes.count)
        self.redactions = redactions
        self.limits = limits
        self.output = JSONOutput(limits: limits, sink: sink, chunkSize: chunkSize, wholeCapacityHint: archive.plist.bytes.count * 2)
        self.enteredAt = Array(repeating: -1, count: archive.objectCount)
        self.renderedAt = Array(repeating: -1, count: archive.objectCount)
    }

    /// Writes the document into `output`; its last bytes stay buffered (see `JSONOutput.flushIfFull`).
    /// Returns early, unfinished, when a streaming sink stops taking bytes.
    mutating func render() throws(ArchiveError) {
        output.append(UInt8(ascii: "{"))
        stack.append(.literal("}"))
        for (position, entry) in archive.top.enumerated().reversed() {
            if let inline = entry.inlineValue, !redactions.topNames.contains(entry.name) {
                stack.append(.scalar(plistIndex: inline))
            } else {
                stack.append(.edge(target: entry.uid, site: nil, topIndex: position, component: .top(position)))
            }
            stack.append(.literal(":"))
            stack.append(.dictionaryKey(keyUID: -1 - position))
            if position > 0 { stack.append(.literal(",")) }
        }
        while let item = stack.popLast() {
            if output.flushIfFull() { return }
            switch item {
            case .literal(let text):
                output.append(text)
            case .runText(let uid, let start, let length):
                try countNode()
                output.appendString(String(decoding: runTexts[uid, default: []][start ..< start + length], as: UTF16.self))
            case .fieldKey(let uid, let pair):
                output.append(UInt8(ascii: ","))
                appendStringObject(archive.plist.dictionaryKey(archive.plistIndex(of: uid), pair: pair))
                output.append(UInt8(ascii: ":"))
            case .dictionaryKey(let keyUID):
                if keyUID < 0 {
                    output.appendString(archive.top[-1 - keyUID].name)
                } else {
                    try appendDictionaryKey(keyUID)
                }
            case .scalar(let index):
                try countNode()
                appendScalar(index)
            case .dateScalar(let index):
                try countNode()
                // The shape check admits only finite numbers here; anything else renders as the scalar it is.
                if let seconds = archive.plist.double(at: index), seconds.isFinite, archive.plist.kind(of: index) != .bool {
                    output.appendDate(sinceReferenceDate: seconds)
                } else {
                    appendScalar(index)
                }
            case .doubleScalar(let index):
                try countNode()
                if archive.plist.kind(of: index) == .integer, let value = archive.plist.int64(at: index), Int64(exactly: Double(value)) != value {
                    output.appendDouble(Double(value))
                } else {
                    appendScalar(index)
                }
            case .inlineArray(let uid, let pair, let index):
                try countNode()
                pushInlineArray(uid: uid, pair: pair, plistIndex: index)
            case .leave(let uid, let popsPath):
                enteredAt[uid] = -1
                openUIDs.removeLast()
                if popsPath { path.removeLast() }
            case .popPath:
                path.removeLast()
            case .edge(let target, let site, let topIndex, let component):
                try renderEdge(target: target, site: site, topIndex: topIndex, component: component)
            }
        }
        try output.checkFinalSize()
    }

    private mutating func renderEdge(target: Int, site: ReferenceSite?, topIndex: Int, component: PathComponent) throws(ArchiveError) {
        try countNode(component)
        // (The emptiness test inline: most renderings redact nothing, and this runs per object.)
        if target == 0 || (!redactions.isEmpty && isRedacted(target: target, site: site, topIndex: topIndex)) {
            output.append("null")
            return
        }
        if enteredAt[target] >= 0 {
            try rejectCollectionCycle(closingAt: target)
            output.append("{\"$ref\":")
            // An open object is at its first rendering: its pointer is the path down to it.
            if renderedAt[target] >= 0 {
                appendRenderingPointer(Int(renderedAt[target]))
            } else {
                output.appendString(pointer(depth: Int(enteredAt[target])))
            }
            output.append(UInt8(ascii: "}"))
            return
        }
        if renderedAt[target] >= 0 {
            output.append("{\"$ref\":")
            appendRenderingPointer(Int(renderedAt[target]))
            output.append(UInt8(ascii: "}"))
            return
        }
        guard let classIndex = archive.classIndex(of: target) else {
            output.append("null")
            return
        }
        if archive.classes[classIndex].isInline {
            appendScalar(archive.plistIndex(of: target))
            return
        }
        let shape = try shapes.shape(of: target, in: archive)
        // Fields the class's definition does not read are shown, not dropped (PlainRenderer+UnreadFields).
        var unread = shape.map { archive.unreadFieldPairs(of: target, shape: $0) } ?? []
        if let shape, try unread.isEmpty ? renderLeaf(target, shape: shape, component: component)
            : renderLeafWithUnreadFields(target, shape: shape, component: component, pairs: unread) {
            return
        }
        if !unread.isEmpty {
            if Self.isContainerForm(shape) { try appendUnreadOpening(target, pairs: unread) } else { unread = [] }
        }
        let popsPath = !component.isNone
        if popsPath { path.append(component) }
        if !unread.isEmpty { path.append(.fixed("$value")) }
        if path.count > limits.maxDepth {
            throw ArchiveError(.depthLimitExceeded, path: pointer(), "objects nest deeper than the limit of \(limits.maxDepth)")
        }
        enteredAt[target] = Int32(path.count)
        if !isEmptyCollection(target, shape: shape) {
            renderedAt[target] = Int32(firstRenderings.count)
            firstRenderings.append((parent: Int32(openUIDs.last ?? -1), component: component, inValue: !unread.isEmpty))
        }
        openUIDs.append(target)
        stack.append(.leave(uid: target, popsPath: popsPath))
        if !unread.isEmpty {
            stack.append(.popPath)
            stack.append(.literal("}"))
        }
        switch shape?.jsonForm {
        case .some(.array), .some(.dictionary), .some(.members), .some(.attributedRuns):
            try pushFoundationContainer(target, shape: shape!)
        default:
            pushCustomObject(target, classIndex: classIndex)
        }
    }

    /// The policy walk's rule (`ShapeMemo.isValueOnlyCycle`): a cycle of Foundation value objects
    /// alone cannot be decoded.
    private mutating func rejectCollectionCycle(closingAt target: Int) throws(ArchiveError) {
        guard let start = openUIDs.lastIndex(of: target) else { return }
        let members = openUIDs[start...]
        if try shapes.isValueOnlyCycle(members, in: archive) {
            throw ArchiveError(.collectionCycle, path: pointer(), "Foundation objects contain each other (UIDs \(members.map(String.init).joined(separator: " → ")) → \(target))")
        }
    }

    private func isRedacted(target: Int, site: ReferenceSite?, topIndex: Int) -> Bool {
        if redactions.isEmpty { return false }
        if redactions.objects.contains(target) { return true }
        if let site { return redactions.sites.contains(site) }
        return topIndex >= 0 && redactions.topNames.contains(archive.top[topIndex].name)
    }

    /// `{"$class":"Name","key":value,…}` in archive key order; keys verbatim (user keys that start
    /// with `$` keep the archive's `$$` escape, so they can never be confused with `$class`).
    private mutating func pushCustomObject(_ uid: Int, classIndex: Int) {
        if classOpenings[classIndex].isEmpty {
            var opening = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: 0)
            opening.append("{\"$class\":")
            opening.appendString(archive.classes[classIndex].name)
            classOpenings[classIndex] = opening.bytes
        }
        output.append(contentsOf: classOpenings[classIndex])
        stack.append(.literal("}"))
        let first = stack.count
        var edges = archive.fieldEdges(of: uid)
        while let event = edges.next() {
            switch event {
            case .field(let pair, _, let value):
                stack.append(.fieldKey(uid: uid, pair: pair))
                switch archive.plist.kind(of: value) {
                case .uid:
                    break
                case _ where !redactions.isEmpty && redactions.sites.contains(ReferenceSite(uid: uid, pair: pair)):
                    // An inline value the policy faulted (inline kind mismatch, unknown key): null, like a referenced one.
                    stack.append(.literal("null"))
                    edges.skipField()
                case .array, .set:
                    // Its elements are pushed when it is written (`pushInlineArray`).
                    stack.append(.inlineArray(uid: uid, pair: pair, plistIndex: value))
                    edges.skipField()
                default:
                    stack.append(.scalar(plistIndex: value))
                }
            case .edge(let edge):
                stack.append(.edge(target: edge.target, site: edge.site, topIndex: -1, component: edge.step))
            case .entry, .inlineElement:
                break
            }
        }
        stack.reverseSuffix(from: first)
    }

    private mutating func pushInlineArray(uid: Int, pair: Int, plistIndex: Int) {
        output.append(UInt8(ascii: "["))
        stack.append(.literal("]"))
        let first = stack.count
        var elements = archive.inlineElements(of: uid, pair: pair, value: plistIndex)
        while let event = elements.next() {
            switch event {
            case .edge(let edge):
                if edge.site.element > 0 { stack.append(.literal(",")) }
                stack.append(.edge(target: edge.target, site: edge.site, topIndex: -1, component: edge.step))
            case .inlineElement(let position, let value):
                if position > 0 { stack.append(.literal(",")) }
                stack.append(.scalar(plistIndex: value))
            case .field, .entry:
                break
            }
        }
        stack.reverseSuffix(from: first)
    }

    // MARK: - Scalars

    /// Writes an inline plist scalar as its plain JSON value.
    mutating func appendScalar(_ index: Int) {
        let object = archive.plist[index]
        switch object.kind {
        case .integer: output.appendInteger(archive.plist.integer128(object))
        case .real: output.appendDouble(archive.plist.realValue(at: index))
        case .bool: output.append(archive.plist.boolValue(at: index) ? "true" : "false")
        case .date: output.appendDate(sinceReferenceDate: archive.plist.realValue(at: index))
        case .data: appendData(at: index)
        case .asciiString, .utf8String, .utf16String: appendStringObject(index)
        default: output.append("null")
        }
    }

    /// Data as base64, or, when it holds a nested archive that was decoded, that archive in place.
    mutating func appendData(at index: Int) {
        if let nested = nestedJSON[index] {
            output.append(contentsOf: nested)
        } else if let data = archive.plist.data(at: index) {
            output.appendBase64(data)
        }
    }

    /// Writes a plist string object as a JSON string, straight from its bytes.
    mutating func appendStringObject(_ index: Int) {
        let kind = archive.plist.kind(of: index)
        guard kind == .asciiString || kind == .utf8String || kind == .utf16String else {
            output.append("\"\"")
            return
        }
        let (start, length) = archive.plist.stringStorage(at: index)
        archive.plist.bytes.withUnsafeBufferPointer { buffer in
            if kind == .utf16String {
                output.appendString(utf16BigEndian: UnsafeBufferPointer(rebasing: buffer[start...]), units: length)
            } else {
                output.appendString(utf8: UnsafeBufferPointer(rebasing: buffer[start ..< start + length]))
            }
        }
    }

    private mutating func appendDictionaryKey(_ keyUID: Int) throws(ArchiveError) {
        if case .object(let classIndex) = archive.entries[keyUID], archive.classes[classIndex].isInline {
            appendStringObject(archive.plistIndex(of: keyUID))
        } else {
            output.appendString(archive.stringValue(ofObject: keyUID) ?? "")
        }
        output.append(UInt8(ascii: ":"))
    }

    private mutating func countNode(_ component: PathComponent = .none) throws(ArchiveError) {
        if let problem = output.countNode() {
            throw ArchiveError(.outputLimitExceeded, path: pointer(appending: component), problem)
        }
    }

    // MARK: - Paths

    func pointer(appending component: PathComponent = .none) -> String {
        pointer(depth: path.count) + component.token(in: archive)
    }

    /// An empty Foundation collection (`[]`, `{}`) is shorter than any `$ref`: it expands at every
    /// site like a value.
    private mutating func isEmptyCollection(_ uid: Int, shape: FoundationShape?) -> Bool {
        switch shape?.jsonForm {
        case .some(.array): shapes.layouts.collection(uid, in: archive)?.count == 0
        case .some(.dictionary): shapes.layouts.dictionary(uid, in: archive)?.keys.count == 0
        default: false
        }
    }

    func pointer(depth: Int) -> String {
        var result = ""
        for part in path.prefix(depth) { result += part.token(in: archive) }
        return result
    }
}
