import Foundation
import Testing
@testable import ArchiveGateCore

@Suite struct BinaryPropertyListWriterTests {
    typealias Writer = BinaryPropertyListWriter

    /// One value of every kind Foundation's reader understands on Linux (no sets: it crashes on them).
    static let foundationReadable: [PropertyListValue] = [
        "", "ascii", "exactly fifteen", "é", "é🎉 ünïcödé, 中文", .string(String(repeating: "ab", count: 200)),
        0, 1, 255, 256, 65535, 65536, .integer(Int128(UInt32.max)), .integer(Int128(UInt32.max) + 1),
        .integer(Int128(Int64.max)), -1, -256, .integer(Int128(Int64.min)), .integer(Int128(UInt64.max)),
        0.0, -0.0, 1.5, -2.25e300, .real(.infinity), .real(.leastNonzeroMagnitude),
        true, false,
        .date(0), .date(-978_307_200), .date(1_000_000.5),
        .data([]), .data([0, 1, 0xFF]), .data(Array(0 ..< 255)),
        .uid(0), .uid(255), .uid(256), .uid(65536), .uid(UInt32.max),
        .null,
        [], [1, "two", 3.0, [true]],
        [:], ["k": "v"], ["b": 1, "a": ["nested": [1, 2]], "c": .data([9])],
    ]

    /// Values only our reader round-trips: sets, and integers Foundation truncates to 64 bits.
    static let oursOnly: [PropertyListValue] = [
        .set([]), .set(["a", 1, .set([2])]),
        .integer(Int128(Int64.min) - 1), .integer(Int128(UInt64.max) + 1), .integer(.max), .integer(.min),
        .real(.nan), .date(63_113_904_000),  // NSDate.distantFuture
    ]

    @Test(arguments: foundationReadable + oursOnly)
    func everyKindRoundTripsThroughOurReader(_ value: PropertyListValue) throws {
        let bytes = Writer.write(value)
        let back = try WriterTestSupport.readBack(bytes)
        if case .real(let written) = value, case .real(let read) = back {
            #expect(written.bitPattern == read.bitPattern)
        } else {
            #expect(back == value, "\(WriterTestSupport.hex(bytes))")
        }
    }

    @Test(arguments: foundationReadable)
    func everyKindRoundTripsThroughFoundation(_ value: PropertyListValue) throws {
        let back = try WriterTestSupport.readWithFoundation(Writer.write(value))
        #expect(back == WriterTestSupport.sortedKeys(value))
    }

    @Test func uniquingOffWritesEveryOccurrenceAndStillRoundTrips() throws {
        let value: PropertyListValue = ["a": ["a", "a", 1, 1], "b": ["a", 1]]
        let bytes = Writer.write(value, options: .init(uniqueScalars: false))
        #expect(try PropertyList.read(bytes).objects.count == 11)
        #expect(try WriterTestSupport.readBack(bytes) == value)
        #expect(try WriterTestSupport.readWithFoundation(bytes) == value)
    }

    // MARK: - Exact bytes

    @Test func headerObjectsOffsetTableAndTrailerAreLaidOutAsApple() {
        let bytes = Writer.write(["a": 1, "b": "é"])
        let expected: [UInt8] = Array("bplist00".utf8) + [
            0xD2, 0x01, 0x02, 0x03, 0x04,  // 0: dictionary of 2: keys 1, 2; values 3, 4
            0x51, 0x61,  // 1: "a"
            0x51, 0x62,  // 2: "b"
            0x10, 0x01,  // 3: 1
            0x61, 0x00, 0xE9,  // 4: "é" as UTF-16BE
            0x08, 0x0D, 0x0F, 0x11, 0x13,  // offset table, 1-byte entries
            0, 0, 0, 0, 0, 0, 1, 1,  // unused, sort version, offset size, reference size
            0, 0, 0, 0, 0, 0, 0, 5,  // object count
            0, 0, 0, 0, 0, 0, 0, 0,  // top object
            0, 0, 0, 0, 0, 0, 0, 0x16,  // offset table offset
        ]
        #expect(bytes == expected, "\(WriterTestSupport.hex(bytes))")
    }

    struct Encoding: Sendable, CustomTestStringConvertible {
        let value: PropertyListValue
        let object: [UInt8]
        init(_ value: PropertyListValue, _ object: [UInt8]) {
            self.value = value
            self.object = object
        }
        var testDescription: String { "\(value)" }
    }

    static let appleEncodings: [Encoding] = [
        Encoding(.integer(0), [0x10, 0x00]),
        Encoding(.integer(255), [0x10, 0xFF]),
        Encoding(.integer(256), [0x11, 0x01, 0x00]),
        Encoding(.integer(65535), [0x11, 0xFF, 0xFF]),
        Encoding(.integer(65536), [0x12, 0x00, 0x01, 0x00, 0x00]),
        Encoding(.integer(Int128(UInt32.max)), [0x12, 0xFF, 0xFF, 0xFF, 0xFF]),
        Encoding(.integer(Int128(UInt32.max) + 1), [0x13, 0, 0, 0, 1, 0, 0, 0, 0]),
        Encoding(.integer(Int128(Int64.max)), [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        Encoding(.integer(-1), [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        Encoding(.integer(Int128(Int64.min)), [0x13, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        Encoding(.integer(Int128(UInt64.max)), [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        Encoding(.integer(Int128(Int64.min) - 1), [0x14, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        Encoding(.uid(255), [0x80, 0xFF]),
        Encoding(.uid(256), [0x81, 0x01, 0x00]),
        Encoding(.uid(65536), [0x83, 0x00, 0x01, 0x00, 0x00]),
        Encoding(.real(1.5), [0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]),
        Encoding(.date(1), [0x33, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]),
        Encoding(.bool(true), [0x09]),
        Encoding(.bool(false), [0x08]),
        Encoding(.null, [0x00]),
        Encoding(.string(String(repeating: "x", count: 14)), [0x5E] + Array(repeating: 0x78, count: 14)),
        Encoding(.string(String(repeating: "x", count: 15)), [0x5F, 0x10, 0x0F] + Array(repeating: 0x78, count: 15)),
        Encoding(.string("🎉"), [0x62, 0xD8, 0x3C, 0xDF, 0x89]),
        Encoding(.data(Array(repeating: 7, count: 300)), [0x4F, 0x11, 0x01, 0x2C] + Array(repeating: 7, count: 300)),
    ]

    @Test(arguments: appleEncodings)
    func scalarsUseAppleEncodings(_ encoding: Encoding) throws {
        let (value, object) = (encoding.value, encoding.object)
        let bytes = Writer.write(value)
        #expect(Array(bytes[8 ..< 8 + object.count]) == object, "\(WriterTestSupport.hex(bytes))")
        let offsetSize = Int(bytes[bytes.count - 26])
        #expect(bytes.count == 8 + object.count + offsetSize + 32)
        #expect(try WriterTestSupport.readBack(bytes) == value)
    }

    @Test(arguments: [14, 15, 16, 255, 256, 300])
    func containerCountsCrossTheNibbleBoundary(_ count: Int) throws {
        let elements = (0 ..< count).map { PropertyListValue.integer(Int128($0)) }
        let array = Writer.write(.array(elements))
        #expect(array[8] == (count < 15 ? 0xA0 | UInt8(count) : 0xAF))
        #expect(try WriterTestSupport.readBack(array) == .array(elements))
        #expect(try WriterTestSupport.readWithFoundation(array) == .array(elements))

        let entries = (0 ..< count).map { PropertyListValue.Entry(key: "key\($0)", value: .integer(Int128($0))) }
        let dictionary = Writer.write(.dictionary(entries))
        #expect(try WriterTestSupport.readBack(dictionary) == .dictionary(entries))
        #expect(try WriterTestSupport.readWithFoundation(dictionary) == WriterTestSupport.sortedKeys(.dictionary(entries)))

        let set = Writer.write(.set(elements))
        #expect(try WriterTestSupport.readBack(set) == .set(elements))
    }

    /// Foundation's own writer numbers objects the same way; with no repeated scalars (Foundation
    /// on Linux shares only identical instances) and one-key dictionaries, the bytes are identical.
    @Test func matchesFoundationsWriterByteForByte() throws {
        let cases: [(PropertyListValue, Any)] = [
            ([-1, 0, 255, 256, 65535, 65536, .integer(Int128(UInt32.max) + 1), .integer(Int128(Int64.min)), .integer(Int128(UInt64.max))],
             [-1, 0, 255, 256, 65535, 65536, Int64(UInt32.max) + 1, Int64.min, UInt64.max] as [Any]),
            (.array((0 ..< 300).map { .integer(Int128($0)) }), Array(0 ..< 300)),
            ([[1, 2], ["é🎉", .data([1, 2])], .date(5)],
             [[1, 2], ["é🎉", Data([1, 2])], Date(timeIntervalSinceReferenceDate: 5)] as [Any]),
            (["key": [.string(String(repeating: "long ", count: 40)), 2.5, true]],
             ["key": [String(repeating: "long ", count: 40), 2.5, true] as [Any]]),
        ]
        for (ours, theirs) in cases {
            let expected = try PropertyListSerialization.data(fromPropertyList: theirs, format: .binary, options: 0)
            #expect(Writer.write(ours) == Array(expected))
        }
    }

    // MARK: - Sizes and sharing

    @Test func referenceAndOffsetSizesGrowWithTheFile() throws {
        func trailerSizes(_ bytes: [UInt8]) -> (offset: UInt8, reference: UInt8) {
            (bytes[bytes.count - 26], bytes[bytes.count - 25])
        }
        let small = Writer.write(.array((0 ..< 254).map { .integer(Int128($0)) }))  // 255 objects
        #expect(trailerSizes(small) == (2, 1))
        let twoByteReferences = Writer.write(.array((0 ..< 255).map { .integer(Int128($0)) }))  // 256 objects
        #expect(trailerSizes(twoByteReferences) == (2, 2))
        let bigData = Writer.write([.data(Array(repeating: 1, count: 70_000)), 1])
        #expect(trailerSizes(bigData) == (4, 1))
        #expect(try WriterTestSupport.readBack(bigData) == [.data(Array(repeating: 1, count: 70_000)), 1])
    }

    @Test(arguments: [3, 5, 8])
    func unusualReferenceAndOffsetSizesAreReadable(_ size: Int) throws {
        let value: PropertyListValue = ["a": [1, 2, "x"], "b": .data([1, 2, 3])]
        let bytes = Writer.write(value, options: .init(referenceSize: size, offsetSize: size))
        #expect(bytes[bytes.count - 26] == UInt8(size))
        #expect(bytes[bytes.count - 25] == UInt8(size))
        #expect(try WriterTestSupport.readBack(bytes) == value)
    }

    @Test func equalScalarsAreWrittenOnceButContainersAndUIDsAreNot() throws {
        let value: PropertyListValue = [["a", 1, 1.0, true, .date(1), .data([1])], ["a", 1, 1.0, true, .date(1), .data([1])],
                                        .uid(1), .uid(1)]
        let plist = try PropertyList.read(Writer.write(value))
        // root, 2 arrays, 6 distinct scalars, 2 UIDs; integer 1 and real 1.0 stay apart.
        #expect(plist.objects.count == 11)
        #expect(Array(plist.children(of: 1)) == Array(plist.children(of: 8)))
    }

    @Test func stringsAreSharedOnlyWhenTheirCodeUnitsAreEqual() throws {
        // Swift calls these equal (canonical equivalence); the file must keep both spellings.
        let value: PropertyListValue = ["\u{E9}", "e\u{301}", "-0", .real(0), .real(-0.0)]
        let plist = try PropertyList.read(Writer.write(value))
        #expect(plist.objects.count == 6)
        #expect(plist.string(at: 2).map { Array($0.unicodeScalars) } == ["e", "\u{301}"])
    }

    @Test func deepNestingIsWrittenWithoutRecursion() throws {
        var value: PropertyListValue = "leaf"
        for _ in 0 ..< 10_000 { value = [value] }
        let plist = try PropertyList.read(Writer.write(value))
        #expect(plist.objects.count == 10_001)
        #expect(Array(plist.children(of: 0)) == [1])
        #expect(plist.string(at: 10_000) == "leaf")
    }

    @Test func dictionaryLiteralsKeepTheirOrder() {
        let literal: PropertyListValue = ["z": 1, "a": 2, "m": 3]
        #expect(literal == .dictionary(["z": 1, "a": 2, "m": 3]))
        #expect(literal == .dictionary(pairs: [("z", 1), ("a", 2), ("m", 3)]))
        guard case .dictionary(let entries) = literal else { Issue.record("not a dictionary"); return }
        #expect(entries.map(\.key) == ["z", "a", "m"])
    }
}
