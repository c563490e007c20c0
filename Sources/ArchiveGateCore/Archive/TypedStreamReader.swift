/// Reads an `NSArchiver` typedstream into a `TypedStreamGraph`: flat (an explicit stack, no
/// recursion on input), every read bounds-checked, typed errors with the byte offset.
///
/// The grammar (learnt from the public decoders, see docs/TYPEDSTREAM.md): a header (streamer
/// version 4, the 11-byte signature that fixes the byte order, a system version), then groups until
/// the end of input. A group is a type-encoding shared string and the values it announces; an `@`
/// value may open a new object, whose class chain and own groups follow until an end-of-object tag.
/// Objects, classes and C strings share one reference numbering; type encodings, class names and
/// C string contents share another (the shared strings).
public enum TypedStreamReader {
    /// The graph of `bytes`, which must start with a typedstream header (`TypedStream.hasHeader`).
    public static func read(_ bytes: ByteStorage, limits: PropertyListLimits) throws(TypedStreamError) -> TypedStreamGraph {
        guard bytes.count <= limits.maxInputBytes else {
            throw TypedStreamError(.lengthLimitExceeded, offset: 0, "input of \(bytes.count) bytes; the limit is \(limits.maxInputBytes)")
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(TypedStreamError) -> TypedStreamGraph in
            var parser = try TypedStreamParser(buffer, limits: limits)
            try parser.readAll()
            return parser.graph
        }
    }
}

/// The reader's state: the input, the graph so far, the two reference tables and the stack of
/// objects being read (each suspended inside the group whose `@` value opened the next one).
struct TypedStreamParser {
    /// What a reference number can name.
    enum Referent {
        case object(Int)
        case classEntry(Int)
        case cString([UInt8])
    }

    /// One object being read (or the top level): its finished groups and the group in progress.
    struct Frame {
        /// Index in `graph.objects`; nil for the top level.
        var object: Int?
        var groups: [TypedStreamGroup] = []
        var group: GroupCursor?
    }

    var input: TypedStreamInput
    let limits: PropertyListLimits
    var graph: TypedStreamGraph
    /// Type encodings, class names and C string contents, in first-seen order.
    var sharedStrings: [[UInt8]] = []
    /// Parsed type encodings and decoded class names, by shared-string index (each parsed once;
    /// arrays beside `sharedStrings`, not dictionaries: a lookup per group must not hash).
    var encodingCache: [TypedStreamTypeEncoding?] = []
    var nameCache: [String?] = []
    /// Objects, classes and C strings, in first-seen order.
    var referents: [Referent] = []
    /// Objects + classes + values so far, against `limits.maxObjects`.
    var counted = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) throws(TypedStreamError) {
        input = TypedStreamInput(bytes)
        self.limits = limits
        let streamer = try input.rawByte()
        guard streamer == 4 else {
            throw TypedStreamError(.invalidHeader, offset: 0, "streamer version \(streamer); only version 4 streams are read")
        }
        let signatureLength = try input.rawByte()
        guard signatureLength == 11 else {
            throw TypedStreamError(.invalidHeader, offset: 1, "a signature of \(signatureLength) bytes; 'streamtyped' or 'typedstream' (11) expected")
        }
        let signature = try input.rawBytes(11, "the signature")
        switch signature {
        case Array("streamtyped".utf8): input.bigEndian = false
        case Array("typedstream".utf8): input.bigEndian = true
        default: throw TypedStreamError(.invalidHeader, offset: 2, "the signature is neither 'streamtyped' nor 'typedstream'")
        }
        let system = try input.integer(signed: false, "the system version")
        graph = TypedStreamGraph(byteOrder: input.bigEndian ? .big : .little, streamerVersion: Int(streamer),
                                 systemVersion: Int(truncatingIfNeeded: system))
    }

    /// Counts one more object, class or value against the limit.
    mutating func count(at offset: Int) throws(TypedStreamError) {
        counted += 1
        guard counted <= limits.maxObjects else {
            throw TypedStreamError(.objectLimitExceeded, offset: offset, "more than \(limits.maxObjects) objects, classes and values")
        }
    }

    /// Reads every group to the end of input, one object frame per open object.
    mutating func readAll() throws(TypedStreamError) {
        var current = Frame()
        var suspended: [Frame] = []
        while true {
            if current.group == nil {
                if current.object == nil, input.atEnd { break }
                let offset = input.position
                let head = try input.head("an object's groups (no end-of-object tag)")
                if head == TypedStreamInput.tagEndOfObject {
                    guard let object = current.object, let parent = suspended.popLast() else {
                        throw TypedStreamError(.unexpectedTag, offset: offset, "an end-of-object tag outside an object")
                    }
                    graph.objects[object].groups = current.groups
                    current = parent
                    try deliver(.object(object), to: &current, at: offset)
                    continue
                }
                current.group = try beginGroup(head: head, at: offset)
            }
            switch try current.group!.next(remaining: input.remaining, at: input.position) {
            case .done:
                let group = current.group!
                current.groups.append(TypedStreamGroup(encoding: group.encoding.text, values: group.values, offset: group.offset))
                current.group = nil
            case .read(let node):
                let valueOffset = input.position
                guard let value = try readScalar(current.group!.encoding.nodes[node]) else {
                    // A new object: suspend this frame inside its group until the object ends.
                    guard suspended.count < limits.maxDepth else {
                        throw TypedStreamError(.depthLimitExceeded, offset: graph.objects[graph.objects.count - 1].offset,
                                               "objects nest deeper than \(limits.maxDepth)")
                    }
                    suspended.append(current)
                    current = Frame(object: graph.objects.count - 1)
                    continue
                }
                try deliver(value, to: &current, at: valueOffset)
            }
        }
        graph.top = current.groups
    }

    /// Puts a finished value into the frame's group in progress.
    mutating func deliver(_ value: TypedStreamValue, to frame: inout Frame, at offset: Int) throws(TypedStreamError) {
        try count(at: offset)
        frame.group!.append(value)
    }
}
