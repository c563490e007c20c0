/// JSON with every object's members sorted by key, scalars kept exactly as written — so outputs
/// whose member order depends on Foundation's hash seed can still be compared as exact text.
/// Nil for text that is not well-formed JSON (which no renderer may produce).
enum CanonicalJSON {
    indirect enum Node: Equatable {
        case scalar(String)
        case array([Node])
        case object([(key: String, value: Node)])

        static func == (lhs: Node, rhs: Node) -> Bool {
            switch (lhs, rhs) {
            case (.scalar(let a), .scalar(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
            default: false
            }
        }
    }

    static func sorted(_ text: String) -> String? {
        parse(text).map { render(sortedKeys($0)) }
    }

    /// Parses `text` (one JSON value, nothing after it).
    static func parse(_ text: String) -> Node? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let node = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.position == parser.bytes.count ? node : nil
    }

    static func sortedKeys(_ node: Node) -> Node {
        switch node {
        case .scalar: node
        case .array(let elements): .array(elements.map(sortedKeys))
        case .object(let members): .object(members.map { (key: $0.key, value: sortedKeys($0.value)) }.sorted { $0.key < $1.key })
        }
    }

    static func render(_ node: Node) -> String {
        switch node {
        case .scalar(let raw): raw
        case .array(let elements): "[" + elements.map(render).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { $0.key + ":" + render($0.value) }.joined(separator: ",") + "}"
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) -> Node? {
            guard depth < 2_000 else { return nil }
            skipWhitespace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members = [(key: String, value: Node)]()
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipWhitespace()
                    guard let key = string() else { return nil }
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    guard let member = value(depth: depth + 1) else { return nil }
                    members.append((key, member))
                    skipWhitespace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    guard bytes[position] == UInt8(ascii: "}") else { return nil }
                    position += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                position += 1
                var elements = [Node]()
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                while true {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                    skipWhitespace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    guard bytes[position] == UInt8(ascii: "]") else { return nil }
                    position += 1
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return string().map(Node.scalar)
            default:
                let start = position
                while position < bytes.count, !",]} \n\r\t".utf8.contains(bytes[position]) { position += 1 }
                let raw = String(decoding: bytes[start ..< position], as: UTF8.self)
                let isNumber = raw.first.map { $0 == "-" || $0.isNumber } ?? false
                guard ["true", "false", "null"].contains(raw) || (isNumber && Double(raw) != nil) else { return nil }
                return .scalar(raw)
            }
        }

        /// A string token, returned raw (quotes and escapes as written).
        mutating func string() -> String? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position
            position += 1
            while position < bytes.count {
                let byte = bytes[position]
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") { position += 2; continue }
                position += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: bytes[start ..< position], as: UTF8.self) }
            }
            return nil
        }
    }
}
