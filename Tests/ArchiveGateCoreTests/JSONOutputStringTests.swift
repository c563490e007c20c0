import Testing
@testable import ArchiveGateCore

/// `JSONOutput.appendString(utf8:)` scans for bytes to escape 16 and 8 at a time, with an
/// overlapping last word: every string, whatever the position of its escapes relative to those
/// blocks, must come out as the one-byte-at-a-time escape table writes it.
@Suite struct JSONOutputStringTests {
    /// The escape table, one byte at a time (docs/JSON.md "JSON conventions").
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): output += Array("\\\\".utf8)
            case 0x0A: output += Array("\\n".utf8)
            case 0x0D: output += Array("\\r".utf8)
            case 0x09: output += Array("\\t".utf8)
            case 0x08: output += Array("\\b".utf8)
            case 0x0C: output += Array("\\f".utf8)
            case 0 ..< 0x20:
                let digits = Array("0123456789abcdef".utf8)
                output += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        return output
    }

    static func written(_ bytes: [UInt8]) -> [UInt8] {
        var output = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: 0)
        bytes.withUnsafeBufferPointer { output.appendString(utf8: $0) }
        return output.bytes
    }

    static let escapes: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x00, 0x01, 0x1F, 0x09]
    /// Bytes that need no escape, including the edges of the escaped ranges and UTF-8 bytes.
    static let plain: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: " "), UInt8(ascii: "/"), 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0xC3, 0xA9]

    @Test func oneEscapeAtEveryPositionOfEveryLength() {
        for length in 0 ... 40 {
            let text = (0 ..< length).map { Self.plain[$0 % Self.plain.count] }
            #expect(Self.written(text) == Self.reference(text))
            for position in 0 ..< length {
                for escape in Self.escapes {
                    var escaped = text
                    escaped[position] = escape
                    #expect(Self.written(escaped) == Self.reference(escaped), "length \(length), \(escape) at \(position)")
                }
            }
        }
    }

    @Test func mixedStrings() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 2000 {
            let length = Int.random(in: 0 ... 70, using: &generator)
            let text = (0 ..< length).map { _ in
                Int.random(in: 0 ..< 8, using: &generator) == 0 ? Self.escapes.randomElement(using: &generator)!
                    : Self.plain.randomElement(using: &generator)!
            }
            #expect(Self.written(text) == Self.reference(text), "\(text)")
        }
    }
}
