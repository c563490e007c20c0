/// `PlainJSONFilter`'s switches, applied to compact JSON fed in chunks (streamed output) or once
/// (`PlainJSONFilter.apply`, a whole document): each decision is made when the bytes it looks at
/// have arrived. A member whose key, `null` or `$class` value runs past the
/// end of a chunk is held back (nothing of it written) and decided with the next chunk; so the
/// bytes held are at most one member's key and class name, or a run of dropped members.
struct PlainJSONFilterStream {
    let filter: PlainJSONFilter
    /// Per open container: true for an object, and whether a member was written yet.
    private var objects: [Bool] = []
    private var written: [Bool] = []
    private var inString = false
    private var escaped = false
    /// At the start of an object member (after `{` or a member's `,`), before its decision.
    private var atMember = false
    /// Unprocessed bytes from the end of the previous chunk.
    private var carry: [UInt8] = []

    private static let classKey = Array("\"$class\"".utf8)
    private static let null = Array("null".utf8)

    init(filter: PlainJSONFilter) {
        self.filter = filter
    }

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        if carry.isEmpty {
            process(chunk, final: false, into: &output)
            return
        }
        var joined = carry
        carry = []
        joined.append(contentsOf: chunk)
        joined.withUnsafeBufferPointer { process($0, final: false, into: &output) }
    }

    mutating func finish(into output: inout [UInt8]) {
        let rest = carry
        carry = []
        rest.withUnsafeBufferPointer { process($0, final: true, into: &output) }
    }

    private mutating func process(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + input.count)
        var index = 0
        while true {
            if atMember {
                guard let next = member(input, from: index, final: final, output: &output) else {
                    carry = Array(input[index...])
                    return
                }
                atMember = false
                index = next
            }
            if index >= input.count { return }
            if inString {
                // Scanned like `stringEnd`: a backslash skips the byte after it (which may be the
                // first of the next chunk: `escaped`).
                let start = index
                if escaped {
                    escaped = false
                    index += 1
                }
                while index < input.count {
                    let byte = input[index]
                    if byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    index += 1
                    if byte == UInt8(ascii: "\"") {
                        inString = false
                        break
                    }
                }
                if index > input.count {
                    escaped = true
                    index = input.count
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[start ..< index]))
                continue
            }
            let byte = input[index]
            index += 1
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                objects.append(byte == UInt8(ascii: "{"))
                written.append(false)
                output.append(byte)
                atMember = byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                objects.removeLast()
                written.removeLast()
                output.append(byte)
            case UInt8(ascii: ","):
                if objects.last == true { atMember = true } else { output.append(byte) }
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            default:
                output.append(byte)
            }
        }
    }

    /// At the start of an object member (or the object's end): skips every dropped member, then
    /// writes the separator and the key of the next kept one; returns where its value starts, or
    /// nil when the decision needs bytes past the end of `input` (nothing written then).
    private mutating func member(_ input: UnsafeBufferPointer<UInt8>, from start: Int, final: Bool, output: inout [UInt8]) -> Int? {
        var index = start
        while true {
            if index >= input.count { return final ? index : nil }
            guard input[index] == UInt8(ascii: "\"") else { return index }
            guard let keyEnd = Self.stringEnd(input, from: index, final: final) else { return nil }
            let valueStart = keyEnd + 1  // past ':'
            if !final, input.count - valueStart < Self.null.count { return nil }
            let key = input[index ..< min(keyEnd, input.count)]
            var drop: Int?
            if filter.dropsNulls, valueStart <= input.count, input[valueStart...].starts(with: Self.null) {
                drop = valueStart + Self.null.count
            } else if filter.dropsClassNames, key.elementsEqual(Self.classKey), valueStart < input.count,
                      input[valueStart] == UInt8(ascii: "\"") {
                guard let end = Self.stringEnd(input, from: valueStart, final: final) else { return nil }
                drop = end
            }
            guard let next = drop else {
                if written[written.count - 1] { output.append(UInt8(ascii: ",")) }
                written[written.count - 1] = true
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[index ..< min(valueStart, input.count)]))
                return min(valueStart, input.count)
            }
            index = next
            if index >= input.count, !final { return nil }
            if index < input.count, input[index] == UInt8(ascii: ",") { index += 1 }
        }
    }

    /// The index just past the string literal starting at `start` (its opening quote); nil when it
    /// runs past the end of `input` (at the end of the document: the end).
    private static func stringEnd(_ input: UnsafeBufferPointer<UInt8>, from start: Int, final: Bool) -> Int? {
        var index = start + 1
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return final ? input.count : nil
    }
}
