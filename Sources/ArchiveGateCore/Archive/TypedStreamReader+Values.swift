/// Reading one value of a scalar type or a byte array, and starting a group.
extension TypedStreamParser {
    /// A group whose type encoding's head byte, at `offset`, is `head`.
    mutating func beginGroup(head: Int8, at offset: Int) throws(TypedStreamError) -> GroupCursor {
        guard let index = try sharedString(head: head, at: offset) else {
            throw TypedStreamError(.invalidTypeEncoding, offset: offset, "a nil type encoding")
        }
        if let parsed = encodingCache[index] { return GroupCursor(encoding: parsed, offset: offset) }
        let parsed = try TypedStreamTypeEncoding(sharedStrings[index], offset: offset)
        encodingCache[index] = parsed
        return GroupCursor(encoding: parsed, offset: offset)
    }

    /// The value of type `node` (a scalar or byte array); nil when an `@` opened a new object (the object is then
    /// in `graph.objects` with its class read, and its groups follow in the stream).
    mutating func readScalar(_ node: TypedStreamTypeEncoding.Node) throws(TypedStreamError) -> TypedStreamValue? {
        let type: UInt8
        switch node {
        case .byteArray(let count):
            guard count <= limits.maxDataBytes else {
                throw TypedStreamError(.lengthLimitExceeded, offset: input.position, "a byte array of \(count) bytes; the limit is \(limits.maxDataBytes)")
            }
            return .byteArray(try input.rawBytes(count, "a byte array"))
        case .scalar(let character):
            type = character
        case .array, .structure:
            preconditionFailure("GroupCursor returns only scalars and byte arrays")
        }
        switch type {
        case UInt8(ascii: "c"), UInt8(ascii: "B"):
            return .signed(Int64(Int8(bitPattern: try input.rawByte())))
        case UInt8(ascii: "C"):
            return .unsigned(UInt64(try input.rawByte()))
        case UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            return .signed(Int64(bitPattern: try input.integer(signed: true, "an integer")))
        case UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return .unsigned(try input.integer(signed: false, "an integer"))
        case UInt8(ascii: "f"):
            return .float(try input.float())
        case UInt8(ascii: "d"):
            return .double(try input.double())
        case UInt8(ascii: "+"):
            let offset = input.position
            guard let bytes = try input.unsharedString(head: input.head("a byte string"), limit: limits.maxStringBytes) else {
                throw TypedStreamError(.unexpectedTag, offset: offset, "a nil where a '+' byte string belongs")
            }
            return .bytes(bytes)
        case UInt8(ascii: "*"), UInt8(ascii: "%"):
            return .cString(try cString())
        case UInt8(ascii: ":"):
            let offset = input.position
            return .selector(try sharedString(head: input.head("a selector"), at: offset).map { sharedStrings[$0] })
        case UInt8(ascii: "#"):
            let offset = input.position
            return .classReference(try classChain(head: input.head("a class"), at: offset))
        default:
            return try object()
        }
    }

    /// `@`: nil, a reference to an object already introduced (possibly still being read: a cycle),
    /// or a new object, whose class chain is read here; nil then (see `readScalar`).
    private mutating func object() throws(TypedStreamError) -> TypedStreamValue? {
        let offset = input.position
        let head = try input.head("an object")
        switch head {
        case TypedStreamInput.tagNil:
            return .object(nil)
        case TypedStreamInput.tagNew:
            try count(at: offset)
            let index = graph.objects.count
            graph.objects.append(TypedStreamObject(classIndex: 0, groups: [], offset: offset))
            referents.append(.object(index))
            let classOffset = input.position
            guard let classIndex = try classChain(head: input.head("an object's class"), at: classOffset) else {
                throw TypedStreamError(.unexpectedTag, offset: classOffset, "an object whose class is Nil")
            }
            graph.objects[index].classIndex = classIndex
            return nil
        default:
            guard case .object(let index) = try referent(head: head, at: offset) else {
                throw TypedStreamError(.danglingReference, offset: offset, "an object reference that names a class or C string")
            }
            return .object(index)
        }
    }

    /// `*`: NULL, a new C string (a shared string, and an entry in the reference numbering), or a reference to one.
    private mutating func cString() throws(TypedStreamError) -> [UInt8]? {
        let offset = input.position
        let head = try input.head("a C string")
        switch head {
        case TypedStreamInput.tagNil:
            return nil
        case TypedStreamInput.tagNew:
            let stringOffset = input.position
            guard let index = try sharedString(head: input.head("a C string"), at: stringOffset) else {
                throw TypedStreamError(.unexpectedTag, offset: stringOffset, "a new C string whose contents are nil")
            }
            referents.append(.cString(sharedStrings[index]))
            return sharedStrings[index]
        default:
            guard case .cString(let bytes) = try referent(head: head, at: offset) else {
                throw TypedStreamError(.danglingReference, offset: offset, "a C string reference that names an object or class")
            }
            return bytes
        }
    }
}
