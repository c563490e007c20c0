import Testing
@testable import ArchiveGateCore

@Suite("PropertyListObjectTable")
struct PropertyListObjectTableTests {
    /// Payloads at and past the packed fields' bounds, of every kind.
    static let objects: [PropertyListObject] = [
        PropertyListObject(kind: .null),
        PropertyListObject(kind: .bool, first: 1),
        PropertyListObject(kind: .integer, first: 42),
        PropertyListObject(kind: .integer, first: UInt64(bitPattern: -1), second: .max),
        PropertyListObject(kind: .integer, first: UInt64(bitPattern: Int64.min), second: .max),
        PropertyListObject(kind: .integer, first: UInt64(Int64.max)),
        // Unsigned 64-bit values (a 16-byte integer in the file): the high word is not a sign extension.
        PropertyListObject(kind: .integer, first: UInt64.max, second: 0),
        PropertyListObject(kind: .integer, first: 1 << 63, second: 0),
        // Beyond 64 bits, and a negative number below Int64.min.
        PropertyListObject(kind: .integer, first: 5, second: 7),
        PropertyListObject(kind: .integer, first: 0, second: UInt64(bitPattern: -2)),
        PropertyListObject(kind: .real, first: (-0.0).bitPattern),
        PropertyListObject(kind: .real, first: Double.nan.bitPattern | 1),
        PropertyListObject(kind: .date, first: (-63_113_904_000.0).bitPattern),
        PropertyListObject(kind: .data, first: 0xFFFF_FFFF, second: 0xFFFF_FFFF),
        PropertyListObject(kind: .data, first: 1 << 32, second: 3),
        PropertyListObject(kind: .asciiString, first: 9, second: 1 << 32),
        PropertyListObject(kind: .utf8String, first: 12, second: 0),
        PropertyListObject(kind: .utf16String, first: 14, second: 2),
        PropertyListObject(kind: .uid, first: UInt64(UInt32.max)),
        PropertyListObject(kind: .array, first: UInt64(UInt32.max), second: 0),
        PropertyListObject(kind: .set, first: 3, second: 1 << 40),
        PropertyListObject(kind: .dictionary, first: 7, second: 2),
    ]

    @Test func everyPayloadReadsBackAsWritten() {
        let table = PropertyListObjectTable(Self.objects)
        #expect(table.count == Self.objects.count)
        #expect(Array(table) == Self.objects)
        for (index, object) in Self.objects.enumerated() {
            #expect(table.kind(at: index) == object.kind)
        }
    }

    @Test func everyKindsRawValueIsItsTag() {
        var raw: UInt8 = 0
        while let kind = PropertyListObject.Kind(rawValue: raw) {
            #expect(PropertyListObjectTable.kind(ofTag: raw) == kind)
            #expect(PropertyListObjectTable.kind(ofTag: raw | PropertyListObjectTable.inWords) == kind)
            raw += 1
        }
        #expect(raw == 13)
        #expect(raw <= PropertyListObjectTable.kindMask)
    }

    @Test func onlyPayloadsPastTheFieldsGoToTheSideTable() {
        let table = PropertyListObjectTable(Self.objects)
        // Unsigned 64-bit (2), 128-bit (2), data at 4 GiB, string of 4 Gi bytes, set of 2^40.
        #expect(table.wide.count == 7)
        #expect(table.wide.allSatisfy { $0.kind != .real && $0.kind != .date && $0.kind != .uid })
    }

    @Test func typicalArchiveObjectsTakeNoSideEntries() {
        let typical: [PropertyListObject] = [
            PropertyListObject(kind: .asciiString, first: (1 << 26) - 1, second: 63),
            PropertyListObject(kind: .dictionary, first: 3_000_000, second: 12),
            PropertyListObject(kind: .uid, first: 550_000),
            PropertyListObject(kind: .integer, first: UInt64(bitPattern: Int64(Int32.min)), second: .max),
            PropertyListObject(kind: .integer, first: UInt64(Int32.max)),
            PropertyListObject(kind: .real, first: 1.5.bitPattern),
            PropertyListObject(kind: .data, first: 40, second: 16),
        ]
        let table = PropertyListObjectTable(typical)
        #expect(Array(table) == typical)
        #expect(table.words.isEmpty && table.wide.isEmpty)
        // Just past the 32-bit forms: one 64-bit word each.
        let larger: [PropertyListObject] = [
            PropertyListObject(kind: .asciiString, first: 1 << 26, second: 1),
            PropertyListObject(kind: .array, first: 0, second: 64),
            PropertyListObject(kind: .integer, first: UInt64(Int32.max) + 1),
            PropertyListObject(kind: .date, first: 1.1.bitPattern),
        ]
        let wordTable = PropertyListObjectTable(larger)
        #expect(Array(wordTable) == larger)
        #expect(wordTable.words.count == larger.count && wordTable.wide.isEmpty)
    }

    @Test func removingTheLastObjectsDropsTheirSideEntries() {
        var table = PropertyListObjectTable(Self.objects)
        table.removeLast(7)
        #expect(Array(table) == Array(Self.objects.dropLast(7)))
        #expect(table.wide.count == 5)
        #expect(table.words.count == PropertyListObjectTable(Self.objects.dropLast(7)).words.count)
        table.append(PropertyListObject(kind: .integer, first: 1, second: 1))
        #expect(table.last == PropertyListObject(kind: .integer, first: 1, second: 1))
        table.removeLast(table.count)
        #expect(table.isEmpty && table.wide.isEmpty)
    }

    @Test func aBinaryPlistWith128BitIntegersReadsThemExactly() throws {
        let values: [PropertyListValue] = [.integer(Int128(UInt64.max)), .integer(-Int128(UInt64.max) - 5), .integer(-1), .integer(300)]
        let plist = try PropertyList.read(BinaryPropertyListWriter.write(.array(values)))
        let numbers = plist.children(of: plist.root).map { plist.integer128(plist[Int($0)]) }
        #expect(numbers == [Int128(UInt64.max), -Int128(UInt64.max) - 5, -1, 300])
    }
}
