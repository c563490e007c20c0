/// A Foundation object whose archive entry holds fields its class's definition does not read
/// (`KeyedArchive.unreadFieldPairs`) renders as
/// `{"$unread": {"<key>": <value>, …}, "$value": <its natural form>}`, so nothing the archive holds
/// is dropped silently (README "JSON conventions", docs/FOUNDATION-LAYOUTS.md).
///
/// Foundation does not decode those fields, so the policy walk never checks what they refer to:
/// they are shown as data, never walked. An inline value is written as plain JSON (an inline array
/// or dictionary element by element, on an explicit stack); a reference to `$null` is `null`, to a
/// string or number written inline in `$objects` that value, and to any other object
/// `{"$uid": n}` (typed mode shows that object). Inside `$value`, pointers carry the `/$value`
/// step, and a `{"$ref"}` to the object names its `$value`.
extension PlainRenderer {
    private enum UnreadStep {
        case value(Int)
        case key(Int)
        case literal(StaticString)
    }

    /// Whether `shape`'s natural form is a container whose children the renderer walks: with unread
    /// fields, the object is entered and its form written under `$value`.
    static func isContainerForm(_ shape: FoundationShape?) -> Bool {
        switch shape?.jsonForm {
        case .some(.array), .some(.dictionary), .some(.members), .some(.attributedRuns): true
        default: false
        }
    }

    /// A value form (a string, date, URL, NSValue …) with unread fields `pairs`: the value is
    /// rendered first, to a scratch buffer, so that one ArchiveGate cannot shape — which the caller
    /// then writes as `{"$class": …}` with every field — is not wrapped. Returns whether it wrote it.
    mutating func renderLeafWithUnreadFields(_ uid: Int, shape: FoundationShape, component: PathComponent,
                                             pairs: [Int]) throws(ArchiveError) -> Bool {
        if Self.isContainerForm(shape) { return false }
        let document = output
        output = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: 0)
        let rendered: Bool
        do {
            rendered = try renderLeaf(uid, shape: shape, component: component)
        } catch {
            output = document
            throw error
        }
        let value = output.bytes
        output = document
        guard rendered else { return false }
        try appendUnreadOpening(uid, pairs: pairs)
        output.append(contentsOf: value)
        output.append(UInt8(ascii: "}"))
        return true
    }

    /// Writes `{"$unread":{…},"$value":` for the fields `pairs` of object `uid`; the caller writes
    /// the natural form and the closing `}`.
    mutating func appendUnreadOpening(_ uid: Int, pairs: [Int]) throws(ArchiveError) {
        let index = archive.plistIndex(of: uid)
        output.append("{\"$unread\":{")
        var steps: [UnreadStep] = []
        for (position, pair) in pairs.enumerated().reversed() {
            steps.append(.value(archive.plist.dictionaryValue(index, pair: pair)))
            steps.append(.key(archive.plist.dictionaryKey(index, pair: pair)))
            if position > 0 { steps.append(.literal(",")) }
        }
        while let step = steps.popLast() {
            switch step {
            case .literal(let text):
                output.append(text)
            case .key(let key):
                appendStringObject(key)
                output.append(UInt8(ascii: ":"))
            case .value(let value):
                if let problem = output.countNode() { throw ArchiveError(.outputLimitExceeded, path: pointer(), problem) }
                appendUnreadValue(value, steps: &steps)
            }
        }
        output.append("},\"$value\":")
    }

    private mutating func appendUnreadValue(_ value: Int, steps: inout [UnreadStep]) {
        let plist = archive.plist
        switch plist.kind(of: value) {
        case .uid:
            let target = plist.uidValue(at: value)
            if target == 0 || target >= archive.objectCount {
                output.append("null")
            } else if let classIndex = archive.classIndex(of: target), archive.classes[classIndex].isInline {
                appendScalar(archive.plistIndex(of: target))
            } else {
                output.append("{\"$uid\":")
                output.appendInteger(Int128(target))
                output.append(UInt8(ascii: "}"))
            }
        case .array, .set:
            output.append(UInt8(ascii: "["))
            steps.append(.literal("]"))
            let children = plist.children(of: value)
            for position in (0 ..< children.count).reversed() {
                steps.append(.value(Int(children[children.startIndex + position])))
                if position > 0 { steps.append(.literal(",")) }
            }
        case .dictionary:
            output.append(UInt8(ascii: "{"))
            steps.append(.literal("}"))
            for pair in (0 ..< plist.count(of: value)).reversed() {
                steps.append(.value(plist.dictionaryValue(value, pair: pair)))
                steps.append(.key(plist.dictionaryKey(value, pair: pair)))
                if pair > 0 { steps.append(.literal(",")) }
            }
        default:
            appendScalar(value)
        }
    }
}
