/// Re-indents compact JSON (two spaces) in one linear pass; strings are copied untouched. Fed in
/// chunks (streamed output) or once (`format`, a whole document): one state machine, with the one
/// byte of lookahead it needs (an opener followed at once by its closer stays `{}` / `[]`) carried
/// over a chunk boundary.
struct JSONPrettyPrinter {
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// A `{` or `[` written at the end of the previous chunk whose next byte is not yet known.
    private var pendingOpener: UInt8?

    /// A whole compact document, indented: fed once and finished.
    static func format(_ compact: [UInt8]) -> [UInt8] {
        var printer = JSONPrettyPrinter()
        var result = [UInt8]()
        compact.withUnsafeBufferPointer { printer.feed($0, into: &result) }
        printer.finish(into: &result)
        return result
    }

    mutating func feed(_ input: UnsafeBufferPointer<UInt8>, into result: inout [UInt8]) {
        result.reserveCapacity(result.count + input.count * 2)
        var index = 0
        while index < input.count {
            let byte = input[index]
            index += 1
            if let opener = pendingOpener {
                pendingOpener = nil
                if byte == (opener == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    result.append(byte)
                    continue
                }
                depth += 1
                newline(&result)
            }
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
                pendingOpener = byte
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(&result)
                result.append(byte)
            case UInt8(ascii: ","):
                result.append(byte)
                newline(&result)
            case UInt8(ascii: ":"):
                result.append(UInt8(ascii: ":"))
                result.append(UInt8(ascii: " "))
            default:
                result.append(byte)
            }
        }
    }

    /// The end of the document: a dangling opener indented like any other, and the final newline.
    mutating func finish(into result: inout [UInt8]) {
        if pendingOpener != nil {
            pendingOpener = nil
            depth += 1
            newline(&result)
        }
        result.append(0x0A)
    }

    private func newline(_ result: inout [UInt8]) {
        result.append(0x0A)
        result.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * max(depth, 0)))
    }
}
