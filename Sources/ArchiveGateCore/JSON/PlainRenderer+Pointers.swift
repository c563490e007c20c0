/// The pointers of `{"$ref": …}`: the JSON pointer of an object's first rendering, spelled from the
/// renderer's table of first renderings (each one's parent rendering and step), written as bytes.
///
/// A pointer is worked out once per referenced object, in O(its depth), and kept quoted and escaped
/// in `RenderedPointers`; every later `$ref` to that object copies those bytes. The kept text is
/// never more than the `$ref` bytes the document already holds, so neither time nor memory grows
/// faster than the output, however often and from however deep an object is shared.
struct RenderedPointers {
    /// The quoted JSON strings of the pointers worked out so far, back to back.
    var text = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: 0)
    /// Per first rendering (its index in the renderer's table): its pointer's bytes in `text`.
    var spans: [Int32: Range<Int>] = [:]
    /// The unquoted pointer being spelled (reused).
    var scratch: [UInt8] = []
    /// The renderings from the one asked for up to the top (reused).
    var chain: [Int32] = []
}

extension PlainRenderer {
    /// Writes `"<pointer>"`, the JSON pointer of first rendering `index` as a quoted JSON string:
    /// the steps from the top down to it (`/$value` after the step of one written with its unread
    /// fields).
    mutating func appendRenderingPointer(_ index: Int) {
        if let span = pointers.spans[Int32(index)] {
            pointers.text.bytes.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[span])) }
            return
        }
        pointers.chain.removeAll(keepingCapacity: true)
        var current = index
        while current >= 0 {
            pointers.chain.append(Int32(current))
            let parent = Int(firstRenderings[current].parent)
            current = parent >= 0 ? Int(renderedAt[parent]) : -1
        }
        var scratch = pointers.scratch
        pointers.scratch = []
        scratch.removeAll(keepingCapacity: true)
        for rendering in pointers.chain.reversed() {
            let step = firstRenderings[Int(rendering)]
            appendToken(step.component, to: &scratch)
            if step.inValue { scratch.append(contentsOf: "/$value".utf8) }
        }
        let start = pointers.text.bytes.count
        scratch.withUnsafeBufferPointer { pointers.text.appendString(utf8: $0) }
        pointers.scratch = scratch
        let span = start ..< pointers.text.bytes.count
        pointers.spans[Int32(index)] = span
        pointers.text.bytes.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[span])) }
    }

    /// Appends `component.token(in:)`'s bytes: an archive key or string key straight from the
    /// plist's UTF-8 or ASCII bytes when it holds no `~` or `/` (the pointer escape then leaves it
    /// as it is); any other token through `PathComponent.token(in:)`, the one spelling of a step.
    func appendToken(_ component: PathComponent, to bytes: inout [UInt8]) {
        switch component {
        case .none:
            return
        case .index(let index):
            bytes.append(UInt8(ascii: "/"))
            appendDecimal(index, to: &bytes)
            return
        case .field(let uid, let pair):
            if appendKeyToken(archive.plist.dictionaryKey(archive.plistIndex(of: uid), pair: pair), to: &bytes) { return }
        case .fieldElement(let uid, let pair, let element):
            if appendKeyToken(archive.plist.dictionaryKey(archive.plistIndex(of: uid), pair: pair), to: &bytes) {
                bytes.append(UInt8(ascii: "/"))
                appendDecimal(element, to: &bytes)
                return
            }
        case .dictionaryKey(let keyUID):
            if keyUID > 0, let classIndex = archive.classIndex(of: keyUID), archive.classes[classIndex].isInline,
               appendKeyToken(archive.plistIndex(of: keyUID), to: &bytes) {
                return
            }
        default:
            break
        }
        bytes.append(contentsOf: component.token(in: archive).utf8)
    }

    /// `/` and plist string `index`'s bytes, when it is an ASCII or UTF-8 string without `~` or `/`;
    /// false (nothing appended) otherwise.
    private func appendKeyToken(_ index: Int, to bytes: inout [UInt8]) -> Bool {
        let kind = archive.plist.kind(of: index)
        guard kind == .asciiString || kind == .utf8String else { return false }
        let (start, length) = archive.plist.stringStorage(at: index)
        return archive.plist.bytes.withUnsafeBufferPointer { buffer in
            let key = UnsafeBufferPointer(rebasing: buffer[start ..< start + length])
            if key.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) { return false }
            bytes.append(UInt8(ascii: "/"))
            bytes.append(contentsOf: key)
            return true
        }
    }

    private func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 0, value <= 9 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }
}
