/// Re-indents compact JSON (two spaces) in one linear pass; strings are copied untouched.
enum JSONPrettyPrinter {
    static func format(_ compact: [UInt8]) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        func newline(_ result: inout [UInt8], _ depth: Int) {
            result.append(0x0A)
            result.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        while index < compact.count {
            let byte = compact[index]
            index += 1
            if inString {
                result.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                result.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                result.append(byte)
                let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index < compact.count, compact[index] == closer {
                    result.append(closer)
                    index += 1
                } else {
                    depth += 1
                    newline(&result, depth)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(&result, depth)
                result.append(byte)
            case UInt8(ascii: ","):
                result.append(byte)
                newline(&result, depth)
            case UInt8(ascii: ":"):
                result.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                result.append(byte)
            }
        }
        result.append(0x0A)
        return result
    }
}
