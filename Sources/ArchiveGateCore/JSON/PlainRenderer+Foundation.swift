import Foundation

/// Natural JSON shapes of the Foundation classes ArchiveGate knows (docs/JSON.md "JSON conventions").
extension PlainRenderer {
    /// Writes a Foundation object that renders without children, in its table `jsonForm`. Returns
    /// false for forms that are containers, or for a value ArchiveGate cannot shape (it then renders
    /// as `{"$class": …}`).
    mutating func renderLeaf(_ uid: Int, shape: FoundationShape, component: PathComponent) throws(ArchiveError) -> Bool {
        switch shape.jsonForm {
        case .string:
            // An inline NS.string is written straight from the plist bytes (the reader validated
            // them): no `String` is built for it, and its text is not checked a second time.
            // Every branch writes a value or throws: no path leaves the JSON without one. (NS.bytes
            // is validated once, by `stringValue`, not first by `hasStringValue` as well.)
            if let inline = archive.scalarField(uid, "NS.string"), archive.hasStringValue(ofObject: uid) {
                appendStringObject(inline)
            } else if let text = archive.stringValue(ofObject: uid) {
                output.appendString(text)
            } else {
                throw malformed(uid, "has no NS.string or UTF-8 NS.bytes")
            }
        case .base64:
            guard let index = archive.dataIndex(archive.field(uid, "NS.data")), archive.plist.data(at: index) != nil else {
                throw malformed(uid, "has no NS.data")
            }
            appendData(at: index)
        case .date:
            guard let index = archive.scalarField(uid, "NS.time"), let seconds = archive.plist.double(at: index), seconds.isFinite,
                  archive.plist.kind(of: index) != .bool else {
                throw malformed(uid, "has no finite NS.time")
            }
            output.appendDate(sinceReferenceDate: seconds)
        case .null:
            output.append("null")
        case .uuid:
            guard let index = archive.dataIndex(archive.field(uid, "NS.uuidbytes")), let bytes = archive.plist.data(at: index), bytes.count == 16 else {
                throw malformed(uid, "has no 16-byte NS.uuidbytes")
            }
            bytes.withUnsafeBufferPointer { output.appendUUID($0) }
        case .url:
            if let verbatim = verbatimURLString(uid) { appendStringObject(verbatim) } else { output.appendString(try resolveURL(uid)) }
        case .referencedString(let key):
            guard let name = archive.referencedString(uid, key) else { throw malformed(uid, "has no \(key) string") }
            // A time zone renders under the name Foundation decodes it to (shown as archived when
            // it refuses the name: the walk reported that).
            output.appendString(shape == .timeZone ? archive.timeZoneName(uid) ?? name : name)
        case .value:
            return appendValue(uid)
        case .decimal:
            guard let text = archive.decimalString(uid) else { return false }
            output.appendString(text)
        case .ranges:
            guard let ranges = archive.indexRanges(uid) else { return false }
            output.append(UInt8(ascii: "["))
            for (position, range) in ranges.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                output.append("{\"location\":")
                output.appendInteger(Int128(range.location))
                output.append(",\"length\":")
                output.appendInteger(Int128(range.length))
                output.append(UInt8(ascii: "}"))
            }
            output.append(UInt8(ascii: "]"))
        case .indexes:
            guard let indexes = archive.indexPath(uid) else { return false }
            output.append(UInt8(ascii: "["))
            for (position, index) in indexes.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                output.appendInteger(Int128(index))
            }
            output.append(UInt8(ascii: "]"))
        case .transform:
            guard let matrix = archive.affineTransform(uid) else { return false }
            for (position, name) in KeyedArchive.affineTransformMembers.enumerated() {
                output.append(position == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
                output.append(name)
                output.appendDouble(matrix[position])
            }
            output.append(UInt8(ascii: "}"))
        case .color:
            return appendColor(uid)
        case .array, .dictionary, .members, .attributedRuns:
            return false
        }
        return true
    }

    /// Opens a Foundation container and pushes its children: its edges
    /// (`KeyedArchive.edges(of:shape:layouts:)`) in document order, with the JSON between them.
    mutating func pushFoundationContainer(_ uid: Int, shape: FoundationShape) throws(ArchiveError) {
        switch shape.jsonForm {
        case .members:
            pushMembers(uid, shape: shape)
            return
        case .dictionary:
            guard let dictionary = shapes.layouts.dictionary(uid, in: archive) else {
                throw malformed(uid, "needs NS.keys and NS.objects arrays of UIDs of the same length")
            }
            output.append(dictionary.stringKeys ? UInt8(ascii: "{") : UInt8(ascii: "["))
            stack.append(.literal(dictionary.stringKeys ? "}" : "]"))
        default:
            output.append(UInt8(ascii: "["))
            stack.append(.literal("]"))
        }
        var edges = archive.edges(of: uid, shape: shape, layouts: &shapes.layouts)
        // `shape(of:)` read the runs before choosing the form.
        if case .attributedRuns = shape.jsonForm {
            guard edges.reads else { throw malformed(uid, "has no readable attribute runs") }
            runTexts[uid] = edges.attributedText
        }
        let first = stack.count
        while let event = edges.next() {
            switch event {
            case .entry(let key, let value):
                if value.position > 0 { stack.append(.literal(",")) }
                if value.stringKey >= 0 {
                    stack.append(.dictionaryKey(keyUID: key.target))
                    stack.append(.edge(target: value.target, site: value.site, topIndex: -1, component: value.step))
                } else {
                    stack.append(.literal("{\"key\":"))
                    stack.append(.edge(target: key.target, site: key.site, topIndex: -1, component: key.step))
                    stack.append(.literal(",\"value\":"))
                    stack.append(.edge(target: value.target, site: value.site, topIndex: -1, component: value.step))
                    stack.append(.literal("}"))
                }
            case .edge(let edge):
                switch edge.kind {
                case .element:
                    if edge.position > 0 { stack.append(.literal(",")) }
                    stack.append(.edge(target: edge.target, site: edge.site, topIndex: -1, component: edge.step))
                case .runAttributes:
                    let run = edges.run(Int(edge.position))
                    stack.append(.literal(edge.position > 0 ? ",{\"text\":" : "{\"text\":"))
                    stack.append(.runText(uid: uid, start: run.start, length: run.length))
                    stack.append(.literal(",\"attributes\":"))
                    stack.append(.edge(target: edge.target, site: edge.site, topIndex: -1, component: edge.step))
                    stack.append(.literal("}"))
                default:
                    // An attributed string's text field: written by its runs.
                    break
                }
            case .field, .inlineElement:
                break
            }
        }
        stack.reverseSuffix(from: first)
    }

    /// `.members`: the table's fields with a JSON member, in order, pushed last first; a reference
    /// member is that reference field's edge (`KeyedArchive.referenceFieldEdge`).
    private mutating func pushMembers(_ uid: Int, shape: FoundationShape) {
        output.append(UInt8(ascii: "{"))
        stack.append(.literal("}"))
        var referenceIndex = 0
        let named = shape.fields.compactMap { field in
            defer { if field.accepts != nil { referenceIndex += 1 } }
            return field.json.map { (key: field.key, member: $0, kind: field.kind, reference: field.accepts != nil ? referenceIndex : -1) }
        }
        let source = memberSource(uid, shape: shape)
        for (position, field) in named.enumerated().reversed() {
            // A number Foundation reads as a double renders as that double's value.
            func scalar(_ index: Int) -> Item {
                if case .finiteNumber? = field.kind { return .doubleScalar(plistIndex: index) }
                return .scalar(plistIndex: index)
            }
            switch field.member {
            case .reference(let name):
                if field.reference >= 0, let edge = archive.referenceFieldEdge(of: source, shape: shape, index: field.reference) {
                    stack.append(.edge(target: edge.target, site: edge.site, topIndex: -1, component: edge.step))
                } else {
                    stack.append(.literal("null"))
                }
                pushMemberName(name, first: position == 0)
            case .scalar(let name):
                if let value = archive.scalarField(uid, field.key) { stack.append(scalar(value)) } else { stack.append(.literal("null")) }
                pushMemberName(name, first: position == 0)
            case .component(let name):
                if let value = archive.scalarField(uid, field.key), archive.plist.int64(at: value) != Int64.max {
                    stack.append(.scalar(plistIndex: value))
                } else {
                    stack.append(.literal("null"))
                }
                pushMemberName(name, first: position == 0)
            case .defaulted(let name):
                if let value = archive.scalarField(uid, field.key) { stack.append(scalar(value)) } else { stack.append(.literal("0")) }
                pushMemberName(name, first: position == 0)
            case .scalarDate(let name):
                if let value = archive.scalarField(uid, field.key) { stack.append(.dateScalar(plistIndex: value)) } else { stack.append(.literal("null")) }
                pushMemberName(name, first: position == 0)
            }
        }
    }

    /// The object whose fields a `.members` form shows: Apple's NSPersonNameComponents keeps its
    /// parts in the `_NSPersonNameComponentsData` under `NS.nameComponentsPrivate`.
    private func memberSource(_ uid: Int, shape: FoundationShape) -> Int {
        guard shape == .personNameComponents, let target = archive.fieldTarget(uid, "NS.nameComponentsPrivate"), target != 0 else { return uid }
        return target
    }

    /// Pushes `,"name":` (no comma for the first member), to be written before what was pushed last.
    private mutating func pushMemberName(_ name: StaticString, first: Bool) {
        stack.append(.literal("\":"))
        stack.append(.literal(name))
        stack.append(.literal(first ? "\"" : ",\""))
    }

    func malformed(_ uid: Int, _ what: String) -> ArchiveError {
        ArchiveError(.malformedFoundationObject, path: "/$objects/\(uid)", "\(archive.archiveClass(of: uid)?.name ?? "object") \(what)")
    }
}
