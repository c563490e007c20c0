/// The lossless typed JSON of a typedstream (`--mode typed`): header, classes with versions and
/// superclasses, objects with their groups' type encodings and values, references as indexes
/// (docs/TYPEDSTREAM.md "Typed JSON"):
///
///     {"header": {"byteOrder": "little", "streamerVersion": 4, "systemVersion": 1000},
///      "classes": [{"name": "NSString", "version": 1, "superclass": {"$class": 1}, "offset": 17}, …],
///      "objects": [{"class": {"$class": 0}, "offset": 16, "groups": [{"type": "+", "values": [{"$data": "aGk="}]}]}, …],
///      "top": [{"type": "@", "values": [{"$object": 0}]}]}
public enum TypedStreamJSON {
    /// The document for `graph`; objects in `redacted` (stream object indexes) are written as
    /// `{"$redacted": {"$class": n}}` without their contents. The output byte budget of `limits` applies.
    public static func render(_ graph: TypedStreamGraph, redacted: Set<Int>, limits: DecodeLimits) throws(ArchiveError) -> [UInt8] {
        var writer = TypedStreamJSONWriter(output: JSONOutput(maxBytes: limits.maxOutputBytes, maxNodes: limits.maxOutputNodes,
                                                              capacityHint: 4096))
        try writer.document(graph, redacted: redacted)
        try writer.output.checkFinalSize()
        return writer.output.bytes
    }
}

/// Writes the document into a budgeted `JSONOutput`; values nest through an explicit stack.
struct TypedStreamJSONWriter {
    var output: JSONOutput

    /// Counts one value against the output budget.
    private mutating func counted() throws(ArchiveError) {
        if let problem = output.countNode() { throw ArchiveError(.outputLimitExceeded, path: "", problem) }
    }

    mutating func document(_ graph: TypedStreamGraph, redacted: Set<Int>) throws(ArchiveError) {
        output.append("{\"header\":{\"byteOrder\":")
        output.appendString(graph.byteOrder.rawValue)
        output.append(",\"streamerVersion\":")
        output.appendInteger(graph.streamerVersion)
        output.append(",\"systemVersion\":")
        output.appendInteger(graph.systemVersion)
        output.append("},\"classes\":[")
        for (index, entry) in graph.classes.enumerated() {
            try counted()
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append("{\"name\":")
            output.appendString(entry.name)
            output.append(",\"version\":")
            output.appendInteger(entry.version)
            output.append(",\"superclass\":")
            reference("$class", entry.superclass)
            output.append(",\"offset\":")
            output.appendInteger(entry.offset)
            output.append(UInt8(ascii: "}"))
        }
        output.append("],\"objects\":[")
        for (index, object) in graph.objects.enumerated() {
            try counted()
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if redacted.contains(index) {
                output.append("{\"$redacted\":")
                reference("$class", object.classIndex)
                output.append(UInt8(ascii: "}"))
                continue
            }
            output.append("{\"class\":")
            reference("$class", object.classIndex)
            output.append(",\"offset\":")
            output.appendInteger(object.offset)
            output.append(",\"groups\":")
            try groups(object.groups)
            output.append(UInt8(ascii: "}"))
        }
        output.append("],\"top\":")
        try groups(graph.top)
        output.append(UInt8(ascii: "}"))
    }

    /// `{"$object": n}` / `{"$class": n}`, or null.
    private mutating func reference(_ tag: StaticString, _ index: Int?) {
        guard let index else { output.append("null"); return }
        output.append("{\"")
        output.append(tag)
        output.append("\":")
        output.appendInteger(index)
        output.append(UInt8(ascii: "}"))
    }

    private mutating func groups(_ groups: [TypedStreamGroup]) throws(ArchiveError) {
        output.append(UInt8(ascii: "["))
        for (index, group) in groups.enumerated() {
            try counted()
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append("{\"type\":")
            output.appendString(group.encoding)
            output.append(",\"values\":")
            try values(group.values)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A JSON array of `values`; arrays and structs inside it open a level of the stack, not a call.
    private mutating func values(_ values: [TypedStreamValue]) throws(ArchiveError) {
        var stack: [(values: [TypedStreamValue], next: Int)] = [(values, 0)]
        output.append(UInt8(ascii: "["))
        while let top = stack.last {
            guard top.next < top.values.count else {
                output.append(UInt8(ascii: "]"))
                stack.removeLast()
                continue
            }
            let value = top.values[top.next]
            if top.next > 0 { output.append(UInt8(ascii: ",")) }
            stack[stack.count - 1].next += 1
            try counted()
            switch value {
            case .array(let inner), .structure(_, let inner):
                output.append(UInt8(ascii: "["))
                stack.append((inner, 0))
            default:
                scalar(value)
            }
        }
    }

    private mutating func scalar(_ value: TypedStreamValue) {
        switch value {
        case .signed(let number): output.appendInteger(number)
        case .unsigned(let number): output.appendInteger(Int128(number))
        case .float(let number):
            // The float's own shortest form: a reader that parses it as a double and narrows it gets the same float.
            if number.isFinite, number != number.rounded(.towardZero) {
                output.append(contentsOf: number.description.utf8)
            } else {
                output.appendDouble(Double(number))
            }
        case .double(let number): output.appendDouble(number)
        case .cString(let bytes), .selector(let bytes):
            guard let bytes else { output.append("null"); return }
            text(bytes)
        case .bytes(let bytes), .byteArray(let bytes): data(bytes)
        case .object(let index): reference("$object", index)
        case .classReference(let index): reference("$class", index)
        case .array, .structure: preconditionFailure("containers are opened by values(_:)")
        }
    }

    /// A string when the bytes are UTF-8, else `{"$data": "<base64>"}`: nothing is lost either way.
    private mutating func text(_ bytes: [UInt8]) {
        if let string = String(validating: bytes, as: UTF8.self) { output.appendString(string) } else { data(bytes) }
    }

    private mutating func data(_ bytes: [UInt8]) {
        output.append("{\"$data\":")
        output.appendBase64(ByteStorage(bytes)[...])
        output.append(UInt8(ascii: "}"))
    }
}
