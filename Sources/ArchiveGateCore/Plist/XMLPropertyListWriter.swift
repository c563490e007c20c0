/// Writes a `PropertyListValue` as an XML property list the way CoreFoundation lays one out (tab
/// indentation, the Apple DOCTYPE, UIDs as `<dict><key>CF$UID</key><integer>N</integer></dict>`).
///
/// XML cannot hold everything binary can: callers check first (the encoder refuses these with a
/// typed error). What is not representable is written as closely as XML allows: a set as an array,
/// `null` as an empty string, a date's fraction of a second dropped, forbidden control characters
/// as U+FFFD. The walk uses an explicit stack.
public enum XMLPropertyListWriter {
    static let prologue = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    private enum Item {
        case value(PropertyListValue, depth: Int)
        case key(String, depth: Int)
        case close(StaticString, depth: Int)

        /// The fewest bytes writing this item adds: what the meter asks for before a long value.
        var leastBytes: Int {
            switch self {
            case .value(.string(let text), _), .key(let text, _): text.utf8.count
            case .value(.data(let bytes), _): bytes.count / 3 * 4
            default: 0
            }
        }
    }

    /// Encodes `value` as a complete XML property list (UTF-8).
    public static func write(_ value: PropertyListValue) -> [UInt8] {
        // Unbounded: the meter never refuses, so the empty fallback is never taken.
        (try? write(value, bound: .unlimited)) ?? []
    }

    /// Encodes `value`, asking `bound` at least every `OutputBound.step` bytes and before a long
    /// string or data is written: XML repeats a shared value at every reference, so this is where
    /// a small archive of shared strings would grow without end.
    public static func write(_ value: PropertyListValue, bound: OutputBound) throws(OutputBoundExceeded) -> [UInt8] {
        var output = Array(prologue.utf8)
        var meter = OutputMeter(bound)
        var stack: [Item] = [.value(value, depth: 0)]
        while let item = stack.popLast() {
            try meter.grew(to: output.count + item.leastBytes)
            switch item {
            case .close(let tag, let depth):
                indent(depth, &output)
                output.append(contentsOf: tag.utf8Bytes)
                output.append(0x0A)
            case .key(let key, let depth):
                indent(depth, &output)
                element("key", escaped(key), &output)
            case .value(let value, let depth):
                indent(depth, &output)
                switch value {
                case .string(let text): element("string", escaped(text), &output)
                case .integer(let number): element("integer", String(number), &output)
                case .real(let number): element("real", realText(number), &output)
                case .bool(let flag): output.append(contentsOf: (flag ? "<true/>\n" : "<false/>\n").utf8)
                case .date(let seconds): element("date", dateText(seconds), &output)
                case .data(let bytes): element("data", base64(bytes), &output)
                case .null: element("string", "", &output)
                case .uid(let uid):
                    output.append(contentsOf: "<dict>\n".utf8)
                    indent(depth + 1, &output)
                    element("key", "CF$UID", &output)
                    indent(depth + 1, &output)
                    element("integer", String(uid), &output)
                    indent(depth, &output)
                    output.append(contentsOf: "</dict>\n".utf8)
                case .array(let elements), .set(let elements):
                    guard !elements.isEmpty else { output.append(contentsOf: "<array/>\n".utf8); continue }
                    output.append(contentsOf: "<array>\n".utf8)
                    stack.append(.close("</array>", depth: depth))
                    for element in elements.reversed() { stack.append(.value(element, depth: depth + 1)) }
                case .dictionary(let entries):
                    guard !entries.isEmpty else { output.append(contentsOf: "<dict/>\n".utf8); continue }
                    output.append(contentsOf: "<dict>\n".utf8)
                    stack.append(.close("</dict>", depth: depth))
                    for entry in entries.reversed() {
                        stack.append(.value(entry.value, depth: depth + 1))
                        stack.append(.key(entry.key, depth: depth + 1))
                    }
                }
            }
        }
        output.append(contentsOf: "</plist>\n".utf8)
        try meter.finish(output.count)
        return output
    }

    private static func indent(_ depth: Int, _ output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(0x09, count: depth))
    }

    private static func element(_ tag: String, _ text: String, _ output: inout [UInt8]) {
        output.append(contentsOf: "<\(tag)>\(text)</\(tag)>\n".utf8)
    }

    /// `&`, `<`, `>` as entities; carriage returns as a reference (a parser would normalise a raw
    /// one to a line feed); controls XML forbids as U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    static func realText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        return value.description
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, whole seconds (rounded down), as CoreFoundation writes.
    static func dateText(_ secondsSince2001: Double) -> String {
        guard secondsSince2001.isFinite, abs(secondsSince2001) <= 1e15 else { return "2001-01-01T00:00:00Z" }
        let total = Int(secondsSince2001.rounded(.down)) + XMLPropertyListReader.referenceDay * 86_400
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        // Civil from days (the inverse of `XMLPropertyListReader.daysSince1970`).
        let (civilYear, civilMonth, civilDay) = CivilDate.fromDays(sinceEpoch: Int64(days))
        let (year, month, day) = (Int(civilYear), Int(civilMonth), Int(civilDay))
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
        let yearText = year < 0 ? "-" + pad(-year) : pad(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    private static func pad(_ year: Int) -> String {
        let text = String(year)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func base64(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let chunk = UInt32(bytes[index]) << 16 | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(remaining > 1 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(chunk & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}

private extension StaticString {
    var utf8Bytes: [UInt8] { withUTF8Buffer { Array($0) } }
}
