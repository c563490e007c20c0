import Testing
@testable import ArchiveGateCore

/// Hostile `bplist00` files made with `RawBuilder`, each read by our reader. Tests are named after
/// the rule the reader enforces and assert the error code.
@Suite struct BinaryPropertyListWriterHostileTests {
    typealias Raw = BinaryPropertyListWriter.RawBuilder
    typealias Writer = BinaryPropertyListWriter

    func expectReadError(_ code: PropertyListError.Code, _ bytes: [UInt8], limits: PropertyListLimits = .init(),
                         sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: PropertyListError(code, "expected \(code)"), sourceLocation: sourceLocation) {
            try PropertyList.read(bytes, limits: limits)
        }
    }

    /// Lets the limits step aside so the structural check is what answers.
    static let noObjectLimit = PropertyListLimits(maxObjects: .max)

    @Test func rawBuilderReproducesTheWriterByteForByte() {
        var raw = Raw()
        raw.dictionary(keys: [1, 2], values: [3, 4])
        raw.append("a")
        raw.append("b")
        raw.append(1)
        raw.append("é")
        #expect(raw.bytes() == Writer.write(["a": 1, "b": "é"]))
    }

    // MARK: - References and cycles

    @Test func referencesPastTheLastObjectAreRejected() {
        expectReadError(.invalidObjectReference, Raw(objects: [[0xA1, 0x05]]).bytes())
        var wide = Raw(referenceSize: 8)
        wide.array([UInt64.max])
        expectReadError(.invalidObjectReference, wide.bytes())
        var dictionary = Raw()
        dictionary.dictionary(keys: [1], values: [9])
        dictionary.append("k")
        expectReadError(.invalidObjectReference, dictionary.bytes())
    }

    @Test func cyclesAreReadFlatAndLeftToTheWalker() throws {
        let selfContaining = try PropertyList.read(Raw(objects: [[0xA1, 0x00]]).bytes())
        #expect(Array(selfContaining.children(of: 0)) == [0])
        #expect(throws: WriterTestSupport.ConversionError.self) { try WriterTestSupport.tree(selfContaining) }

        var raw = Raw()
        raw.dictionary(keys: [1], values: [2])
        raw.append("next")
        raw.array([0])
        let twoStep = try PropertyList.read(raw.bytes())
        #expect(twoStep.dictionaryValue(0, forKey: "next") == 2)
        #expect(Array(twoStep.children(of: 2)) == [0])
    }

    // MARK: - Trailer and offset table

    @Test(arguments: [0, 9, 255] as [UInt8])
    func offsetSizesOutsideOneToEightAreRejected(_ size: UInt8) {
        expectReadError(.invalidTrailer, Raw(objects: [[0x08]]).bytes { $0.offsetSize = size })
    }

    @Test(arguments: [0, 9, 255] as [UInt8])
    func referenceSizesOutsideOneToEightAreRejected(_ size: UInt8) {
        expectReadError(.invalidTrailer, Raw(objects: [[0x08]]).bytes { $0.referenceSize = size })
    }

    @Test func objectCountsTheFileCannotHoldAreRejected() {
        let tiny = Raw(objects: [[0x08]])
        expectReadError(.invalidTrailer, tiny.bytes { $0.objectCount = 0 })
        expectReadError(.invalidTrailer, tiny.bytes { $0.objectCount = 2 })
        expectReadError(.invalidTrailer, tiny.bytes { $0.objectCount = 300 })  // 1-byte references cannot reach
        expectReadError(.invalidTrailer, tiny.bytes { $0.objectCount = 1 << 40; $0.referenceSize = 8 },
                        limits: Self.noObjectLimit)
        expectReadError(.invalidTrailer, tiny.bytes { $0.objectCount = 1 << 62; $0.offsetSize = 8; $0.referenceSize = 8 },
                        limits: Self.noObjectLimit)  // the table size overflows
        expectReadError(.invalidTrailer, tiny.bytes { $0.objectCount = .max }, limits: Self.noObjectLimit)
    }

    @Test func anObjectCountOfTwoToTheFortyInATinyFileIsAnInvalidTrailer() {
        // A 42-byte file cannot hold 2^40 objects whatever the limits are; the reader checks the
        // configured object limit first and so reports a limit the caller could raise in vain.
        expectReadError(.invalidTrailer, Raw(objects: [[0x08]]).bytes { $0.objectCount = 1 << 40; $0.referenceSize = 8 })
    }

    @Test func topObjectsAndTablePositionsOutsideTheFileAreRejected() {
        let raw = Raw(objects: [[0x08], [0x09]])
        expectReadError(.invalidTrailer, raw.bytes { $0.topObject = 2 })
        expectReadError(.invalidTrailer, raw.bytes { $0.topObject = .max })
        expectReadError(.invalidTrailer, raw.bytes { $0.offsetTableOffset = 1000 })
        expectReadError(.invalidTrailer, raw.bytes { $0.offsetTableOffset = 0 })
        expectReadError(.invalidTrailer, raw.bytes { $0.offsetTableOffset = .max })
    }

    @Test func offsetsOutsideTheObjectAreaAreRejected() {
        let raw = Raw(objects: [[0x08], [0x09]])
        expectReadError(.invalidOffset, raw.bytes { $0.offsets[0] = 2 })  // inside the header
        expectReadError(.invalidOffset, raw.bytes { $0.offsets[1] = 10 })  // the offset table itself
        expectReadError(.invalidOffset, raw.bytes { $0.offsets[1] = .max; $0.offsetEntrySize = 8 })
    }

    @Test func referencesTooNarrowForTheObjectCountAreRejected() {
        let bytes = Writer.write(.array((0 ..< 300).map { .integer(Int128($0)) }), options: .init(referenceSize: 1))
        expectReadError(.invalidTrailer, bytes)
    }

    @Test func filesShorterThanHeaderAndTrailerAreTruncated() {
        let bytes = Writer.write(true)
        expectReadError(.truncated, Array(bytes.prefix(40)))
        expectReadError(.truncated, Array(bytes.prefix(8)))
    }

    @Test func anotherHeaderIsNotABinaryPropertyList() {
        expectReadError(.notAPropertyList, Raw(objects: [[0x08]]).bytes { $0.header = Array("bplist01".utf8) })
    }

    // MARK: - Lengths

    @Test(arguments: [0x40, 0x50, 0x60, 0xA0, 0xC0, 0xD0] as [UInt8])
    func countsOfTwoToTheFortyInATinyFileAreRejected(_ type: UInt8) {
        expectReadError(.invalidLength, Raw(objects: [Raw.header(type, count: 1 << 40) + [0x61, 0x62]]).bytes())
    }

    @Test(arguments: [1 << 62 + 1, 1 << 63, .max] as [UInt64])
    func stringLengthsThatOverflowAreRejected(_ count: UInt64) {
        expectReadError(.invalidLength, Raw(objects: [Raw.header(0x60, count: count) + [0, 0x61]]).bytes())
        expectReadError(.invalidLength, Raw(objects: [Raw.header(0x50, count: count) + [0x61]]).bytes())
    }

    @Test func objectsRunningIntoTheOffsetTableAreTruncated() {
        expectReadError(.truncated, Raw(objects: [[0x55, 0x61]]).bytes())  // 5 ASCII bytes claimed, 1 present
        expectReadError(.truncated, Raw(objects: [[0x65, 0x00, 0x61]]).bytes())  // 5 UTF-16 units claimed
        expectReadError(.truncated, Raw(objects: [[0xA3, 0x00]]).bytes())  // 3 references claimed
        expectReadError(.truncated, Raw(objects: [[0x13, 0x00, 0x01]]).bytes())  // 8-byte integer, 2 present
    }

    @Test(arguments: [[0x5F, 0x23], [0x5F, 0x14], [0x5F, 0x50], [0x5F]] as [[UInt8]])
    func lengthsThatAreNotSmallIntegersAreRejected(_ object: [UInt8]) {
        expectReadError(.invalidLength, Raw(objects: [object + Array(repeating: 0, count: 17)]).bytes())
    }

    // MARK: - Strings

    @Test(arguments: [
        [0x62, 0xD8, 0x3C, 0x00, 0x61],  // high surrogate followed by 'a'
        [0x61, 0xD8, 0x3C],  // high surrogate at the end
        [0x61, 0xDF, 0x89],  // lone low surrogate
        [0x62, 0xDF, 0x89, 0xD8, 0x3C],  // reversed pair
    ] as [[UInt8]])
    func loneSurrogatesAreInvalidStrings(_ object: [UInt8]) {
        expectReadError(.invalidString, Raw(objects: [object]).bytes())
    }

    @Test func asciiStringsWithHighBytesAreInvalid() {
        expectReadError(.invalidString, Raw(objects: [[0x52, 0x61, 0xE9]]).bytes())
    }

    // MARK: - UIDs

    @Test(arguments: [
        [0x87, 0, 0, 0, 0, 0, 0, 0, 1],  // 8 bytes, small value (CoreFoundation accepts this one)
        [0x84, 1, 0, 0, 0, 0],  // 5 bytes, above 2^32 - 1
        [0x8F] + Array(repeating: 0, count: 16),  // 16 bytes
    ] as [[UInt8]])
    func uidsWiderThanFourBytesAreRejected(_ object: [UInt8]) {
        expectReadError(.invalidUID, Raw(objects: [object]).bytes())
    }

    @Test func threeByteUIDsAreRead() throws {
        #expect(try WriterTestSupport.readBack(Raw(objects: [[0x82, 0x01, 0x00, 0x00]]).bytes()) == .uid(65536))
    }

    // MARK: - Dictionary keys

    @Test func nonStringKeysAreRejected() {
        for key: PropertyListValue in [7, .uid(1), .data([0x61]), .null] {
            var raw = Raw()
            raw.dictionary(keys: [1], values: [2])
            raw.append(key)
            raw.append("value")
            expectReadError(.nonStringKey, raw.bytes())
        }
        expectReadError(.nonStringKey, Raw(objects: [[0xD1, 0x00, 0x00]]).bytes())  // itself as its key
    }

    /// Dictionaries of more than 12 pairs check keys by hashing their text; a negative integer or
    /// real key (whose payload words are not offsets) must be reported, not trap.
    @Test func negativeNumberKeysInLargeDictionariesAreRejectedWithoutTrapping() {
        for key: PropertyListValue in [-1, .real(-1.5)] {
            var raw = BinaryPropertyListWriter.RawBuilder()
            raw.dictionary(keys: Array(1 ... 13), values: Array(repeating: 14, count: 13))
            for index in 0 ..< 12 { raw.append(.string("k\(index)")) }
            raw.append(key)
            raw.append(1)
            expectReadError(.nonStringKey, raw.bytes())
        }
    }

    @Test func stringAccessOnNumbersIsNilNotATrap() throws {
        let plist = try PropertyList.read(BinaryPropertyListWriter.write(-1))
        #expect(plist.string(at: 0) == nil)
    }

    @Test func duplicateKeysAreRejected() {
        let twice: PropertyListValue = .dictionary([.init(key: "a", value: 1), .init(key: "a", value: 2)])
        expectReadError(.duplicateKey, Writer.write(twice))  // one shared key object
        expectReadError(.duplicateKey, Writer.write(twice, options: .init(uniqueScalars: false)))  // two equal objects

        var spellings = Raw()  // "a" in ASCII and in UTF-16 is the same key
        spellings.dictionary(keys: [1, 2], values: [3, 3])
        spellings.append(raw: [0x51, 0x61])
        spellings.append(raw: [0x61, 0x00, 0x61])
        spellings.append(1)
        expectReadError(.duplicateKey, spellings.bytes())

        let many = (0 ..< 20).map { PropertyListValue.Entry(key: "k\($0)", value: 1) } + [.init(key: "k3", value: 2)]
        expectReadError(.duplicateKey, Writer.write(.dictionary(many), options: .init(uniqueScalars: false)))
    }

    // MARK: - Markers and numbers

    @Test(arguments: [[0x01], [0x0F], [0x70], [0x90], [0xB0], [0xE0], [0xF0], [0x34] + Array(repeating: 0, count: 8)] as [[UInt8]])
    func undefinedMarkersAreRejected(_ object: [UInt8]) {
        expectReadError(.invalidMarker, Raw(objects: [object]).bytes())
    }

    @Test func integersWiderThanSixteenBytesAreRejected() {
        expectReadError(.invalidInteger, Raw(objects: [[0x15] + Array(repeating: 0, count: 32)]).bytes())
    }

    @Test func realsOtherThanFourOrEightBytesAreRejected() throws {
        expectReadError(.invalidReal, Raw(objects: [[0x21, 0x3F, 0xC0]]).bytes())
        expectReadError(.invalidReal, Raw(objects: [[0x24] + Array(repeating: 0, count: 16)]).bytes())
        #expect(try WriterTestSupport.readBack(Raw(objects: [[0x22, 0x3F, 0xC0, 0x00, 0x00]]).bytes()) == .real(1.5))
    }

    @Test func datesThatAreNotFiniteAreRejected() {
        expectReadError(.invalidDate, Writer.write(.date(.nan)))
        expectReadError(.invalidDate, Writer.write(.date(-.infinity)))
    }

    /// ISO 8601 JSON carries four-digit years: NSDate.distantPast (0001) and 9999-12-31 read, a date
    /// past the year 9999 does not (CPython refuses it too).
    @Test func datesOutsideTheYearsOneToNineThousandNineHundredNinetyNineAreRejected() throws {
        #expect(try WriterTestSupport.readBack(Writer.write(.date(-63_114_076_800))) == .date(-63_114_076_800))
        #expect(try WriterTestSupport.readBack(Writer.write(.date(252_423_993_599))) == .date(252_423_993_599))
        expectReadError(.invalidDate, Writer.write(.date(252_423_993_600)))
        expectReadError(.invalidDate, Writer.write(.date(-63_114_076_801)))
        expectReadError(.invalidDate, Writer.write(.date(1e300)))
    }
}
