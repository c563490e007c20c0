/// A parsed type encoding (`iI`, `@`, `[16c]`, `{_NSRange=QQ}` …): a small tree of nodes in one array,
/// children by index. Nesting is capped at `maxNesting` (a parse is recursive, so the cap is what
/// bounds it), and every node knows the fewest bytes its value can take, so an array's count can be
/// checked against the bytes that remain before a single element is read.
struct TypedStreamTypeEncoding {
    enum Node {
        /// One value of a single-character type (`c C s S i I l L q Q f d B * + : # @ %`).
        case scalar(UInt8)
        /// `[Nc]` / `[NC]`: N raw bytes.
        case byteArray(count: Int)
        /// `[Nt]`: N values of the node at `element`.
        case array(count: Int, element: Int)
        /// `{name=…}`: the fields' nodes in order.
        case structure(name: String, fields: [Int])
    }

    /// Deeper nesting of arrays and structs than any writer produces (NSRect is 2).
    static let maxNesting = 16
    /// Scalar type characters the reader knows how to read.
    static let scalars = Set("cCsSiIlLqQfdB*+:#@%".utf8)

    var nodes: [Node] = []
    /// Fewest bytes each node's value takes (parallel to `nodes`).
    var minimumBytes: [Int] = []
    /// The top-level values' nodes, in order.
    var top: [Int] = []
    /// The encoding as text.
    let text: String

    /// Parses `bytes`, reporting problems at `offset` (where the encoding string starts).
    init(_ bytes: [UInt8], offset: Int) throws(TypedStreamError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TypedStreamError(.invalidString, offset: offset, "a type encoding that is not UTF-8")
        }
        self.text = text
        guard !bytes.isEmpty else { throw Self.invalid("an empty type encoding", offset) }
        var cursor = 0
        while cursor < bytes.count {
            top.append(try parse(bytes, &cursor, depth: 0, offset: offset))
        }
    }

    static func invalid(_ message: String, _ offset: Int) -> TypedStreamError {
        TypedStreamError(.invalidTypeEncoding, offset: offset, message)
    }

    private mutating func add(_ node: Node, minimum: Int) -> Int {
        nodes.append(node)
        minimumBytes.append(minimum)
        return nodes.count - 1
    }

    private mutating func parse(_ bytes: [UInt8], _ cursor: inout Int, depth: Int, offset: Int) throws(TypedStreamError) -> Int {
        guard depth < Self.maxNesting else {
            throw Self.invalid("type encoding '\(text)' nests deeper than \(Self.maxNesting)", offset)
        }
        let character = bytes[cursor]
        cursor += 1
        switch character {
        case UInt8(ascii: "["):
            var count = 0
            let digitsStart = cursor
            while cursor < bytes.count, (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(bytes[cursor]) {
                let (times, overflow1) = count.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[cursor] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2, sum <= Int(Int32.max) * 4 else {
                    throw Self.invalid("an array length in '\(text)' too large to be real", offset)
                }
                count = sum
                cursor += 1
            }
            guard cursor > digitsStart, cursor < bytes.count else { throw Self.invalid("an array without a length or element type in '\(text)'", offset) }
            let node: Int
            if bytes[cursor] == UInt8(ascii: "c") || bytes[cursor] == UInt8(ascii: "C"),
               cursor + 1 < bytes.count, bytes[cursor + 1] == UInt8(ascii: "]") {
                cursor += 1
                node = add(.byteArray(count: count), minimum: count)
            } else {
                let element = try parse(bytes, &cursor, depth: depth + 1, offset: offset)
                guard minimumBytes[element] > 0 || count == 0 else {
                    throw Self.invalid("an array of values that take no bytes in '\(text)'", offset)
                }
                let (minimum, overflow) = count.multipliedReportingOverflow(by: minimumBytes[element])
                guard !overflow else { throw Self.invalid("an array in '\(text)' too large to be real", offset) }
                node = add(.array(count: count, element: element), minimum: minimum)
            }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "]") else {
                throw Self.invalid("an unterminated array in '\(text)'", offset)
            }
            cursor += 1
            return node
        case UInt8(ascii: "{"):
            let nameStart = cursor
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "="), bytes[cursor] != UInt8(ascii: "}") { cursor += 1 }
            guard cursor < bytes.count else { throw Self.invalid("an unterminated struct in '\(text)'", offset) }
            let name = String(decoding: bytes[nameStart ..< cursor], as: UTF8.self)
            var fields: [Int] = []
            var minimum = 0
            if bytes[cursor] == UInt8(ascii: "=") {
                cursor += 1
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "}") {
                    let field = try parse(bytes, &cursor, depth: depth + 1, offset: offset)
                    fields.append(field)
                    let (sum, overflow) = minimum.addingReportingOverflow(minimumBytes[field])
                    guard !overflow else { throw Self.invalid("a struct in '\(text)' too large to be real", offset) }
                    minimum = sum
                }
            }
            guard cursor < bytes.count else { throw Self.invalid("an unterminated struct in '\(text)'", offset) }
            cursor += 1
            return add(.structure(name: name, fields: fields), minimum: minimum)
        default:
            guard Self.scalars.contains(character) else {
                throw Self.invalid("type '\(Character(Unicode.Scalar(character)))' in '\(text)' is not one a typedstream holds", offset)
            }
            return add(.scalar(character), minimum: 1)
        }
    }
}
