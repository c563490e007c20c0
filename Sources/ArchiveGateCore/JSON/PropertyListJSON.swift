/// A property list that is not a keyed archive (verdict `plist`) as JSON, by plain mode's
/// conventions: dictionaries as objects, arrays and sets as arrays, dates as ISO 8601 strings,
/// data as base64, UIDs as `{"$uid": n}`. A container that contains itself is refused first
/// (`archive.collection_cycle`). The walk keeps its own stack (no recursion on input depth) and counts every value against the output byte
/// and node budget, so an object shared by many references cannot amplify past `maxOutputBytes`.
public enum PropertyListJSON {
    private enum Step {
        case value(Int)
        case key(Int)
        case literal(StaticString)
    }

    /// The JSON of `plist`, compact, under `limits`' output budget.
    public static func render(_ plist: PropertyList, limits: DecodeLimits) throws(ArchiveError) -> [UInt8] {
        if let problem = plist.cyclicReferenceProblem() { throw ArchiveError(.collectionCycle, path: "", problem) }
        var output = JSONOutput(maxBytes: limits.maxOutputBytes, maxNodes: limits.maxOutputNodes,
                                capacityHint: plist.bytes.count * 2)
        var stack: [Step] = [.value(plist.root)]
        while let step = stack.popLast() {
            switch step {
            case .literal(let text):
                output.append(text)
            case .key(let index):
                output.appendString(plist.string(at: index) ?? "")
                output.append(UInt8(ascii: ":"))
            case .value(let index):
                if let problem = output.countNode() { throw ArchiveError(.outputLimitExceeded, path: "", problem) }
                append(index, of: plist, to: &output, stack: &stack)
            }
        }
        try output.checkFinalSize()
        return output.bytes
    }

    private static func append(_ index: Int, of plist: PropertyList, to output: inout JSONOutput, stack: inout [Step]) {
        switch plist.kind(of: index) {
        case .array, .set:
            output.append(UInt8(ascii: "["))
            stack.append(.literal("]"))
            let children = plist.children(of: index)
            for position in (0 ..< children.count).reversed() {
                stack.append(.value(Int(children[children.startIndex + position])))
                if position > 0 { stack.append(.literal(",")) }
            }
        case .dictionary:
            output.append(UInt8(ascii: "{"))
            stack.append(.literal("}"))
            for pair in (0 ..< plist.count(of: index)).reversed() {
                stack.append(.value(plist.dictionaryValue(index, pair: pair)))
                stack.append(.key(plist.dictionaryKey(index, pair: pair)))
                if pair > 0 { stack.append(.literal(",")) }
            }
        case .integer: output.appendInteger(plist.integer128(plist[index]))
        case .real: output.appendDouble(plist.realValue(at: index))
        case .bool: output.append(plist.boolValue(at: index) ? "true" : "false")
        case .date: output.appendDate(sinceReferenceDate: plist.realValue(at: index))
        case .data:
            if let data = plist.data(at: index) { output.appendBase64(data) } else { output.append("null") }
        case .asciiString, .utf8String, .utf16String: output.appendString(plist.string(at: index) ?? "")
        case .uid:
            output.append("{\"$uid\":")
            output.appendInteger(plist.uidValue(at: index))
            output.append(UInt8(ascii: "}"))
        case .null: output.append("null")
        }
    }
}
