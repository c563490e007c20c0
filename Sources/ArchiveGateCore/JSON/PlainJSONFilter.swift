/// The output switches forensic users ask for, applied to rendered compact plain JSON in one linear
/// pass: drop the `$class` member of custom objects (`--class-names drop`), and drop object members
/// whose value is `null` (`--nulls drop`; array elements stay, their positions mean something).
///
/// Safe on the renderer's output only: it expects well-formed compact JSON, where a user key can
/// never be `$class` (the archiver escapes user keys starting with `$` as `$$`). Iterative, so the
/// nesting depth costs no stack.
public struct PlainJSONFilter: Sendable {
    public var dropsClassNames: Bool
    public var dropsNulls: Bool

    public init(dropsClassNames: Bool = false, dropsNulls: Bool = false) {
        self.dropsClassNames = dropsClassNames
        self.dropsNulls = dropsNulls
    }

    /// True when the filter changes nothing.
    public var isIdentity: Bool { !dropsClassNames && !dropsNulls }

    private static let classKey = Array("\"$class\"".utf8)
    private static let null = Array("null".utf8)

    /// `compact` with the dropped members removed, indented when `pretty`.
    public func apply(_ compact: [UInt8], pretty: Bool = false) -> [UInt8] {
        let filtered = isIdentity ? compact : filter(compact)
        return pretty ? JSONPrettyPrinter.format(filtered) : filtered
    }

    private func filter(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(input.count)
        // Per open container: true for an object, and whether a member was written yet.
        var objects: [Bool] = []
        var written: [Bool] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                objects.append(byte == UInt8(ascii: "{"))
                written.append(false)
                output.append(byte)
                index += 1
                if byte == UInt8(ascii: "{") { index = member(input, from: index, output: &output, written: &written) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                objects.removeLast()
                written.removeLast()
                output.append(byte)
                index += 1
            case UInt8(ascii: ","):
                index += 1
                if objects.last == true {
                    index = member(input, from: index, output: &output, written: &written)
                } else {
                    output.append(byte)
                }
            case UInt8(ascii: "\""):
                let end = Self.stringEnd(input, from: index)
                output.append(contentsOf: input[index ..< end])
                index = end
            default:
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// At the start of an object member (or the object's end): skips every dropped member, then
    /// writes the separator and the key of the next kept one; returns where its value starts.
    private func member(_ input: [UInt8], from start: Int, output: inout [UInt8], written: inout [Bool]) -> Int {
        var index = start
        while index < input.count, input[index] == UInt8(ascii: "\"") {
            let keyEnd = Self.stringEnd(input, from: index)
            let valueStart = keyEnd + 1  // past ':'
            let key = input[index ..< keyEnd]
            var drop: Int?
            if dropsNulls, input[valueStart...].starts(with: Self.null) {
                drop = valueStart + Self.null.count
            } else if dropsClassNames, key.elementsEqual(Self.classKey), valueStart < input.count, input[valueStart] == UInt8(ascii: "\"") {
                drop = Self.stringEnd(input, from: valueStart)
            }
            guard let next = drop else {
                if written[written.count - 1] { output.append(UInt8(ascii: ",")) }
                written[written.count - 1] = true
                output.append(contentsOf: input[index ..< valueStart])
                return valueStart
            }
            index = next
            if index < input.count, input[index] == UInt8(ascii: ",") { index += 1 }
        }
        return index
    }

    /// The index just past the string literal starting at `start` (its opening quote).
    private static func stringEnd(_ input: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return input.count
    }
}
