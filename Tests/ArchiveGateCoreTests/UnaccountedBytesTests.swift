import Testing
@testable import ArchiveGateCore

/// Bytes the property list does not account for (`PropertyList.unaccountedByteOffset`): a gap in a
/// binary plist's object area, anything but whitespace and comments after `</plist>`. The archive
/// still reads (Foundation reads it), but its verdict is `inconclusive(plist.unaccounted_bytes)`
/// with the first such byte's offset, in the report's JSON as `verdictOffset`.
@Suite struct UnaccountedBytesTests {
    static func archive() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let first = builder.add(.string("alpha"))
        let second = builder.add(.string("beta"))
        builder.setTop("root", builder.array(of: [first, second]))
        return builder.binary()
    }

    static func xmlArchive() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.add(.string("alpha")))
        return XMLPropertyListWriter.write(builder.value)
    }

    /// `bytes` with `junk` inserted at `position` in the object area; every object offset at or past
    /// it moves, and the offset table is rewritten with 8-byte entries (so any file can be shifted).
    static func inserting(_ junk: [UInt8], at position: Int, into bytes: [UInt8]) -> [UInt8] {
        let base = bytes.count - 32
        func number(_ at: Int, _ size: Int) -> Int { bytes[at ..< at + size].reduce(0) { $0 << 8 | Int($1) } }
        let offsetSize = Int(bytes[base + 6]), count = number(base + 8, 8), tableStart = number(base + 24, 8)
        var result = Array(bytes[..<position]) + junk + Array(bytes[position ..< tableStart])
        for index in 0 ..< count {
            var offset = number(tableStart + index * offsetSize, offsetSize)
            if offset >= position { offset += junk.count }
            result += (0 ..< 8).reversed().map { UInt8(truncatingIfNeeded: offset >> ($0 * 8)) }
        }
        var trailer = Array(bytes[base...])
        trailer[6] = 8
        let newStart = tableStart + junk.count
        for byte in 0 ..< 8 { trailer[24 + byte] = UInt8(truncatingIfNeeded: newStart >> ((7 - byte) * 8)) }
        return result + trailer
    }

    static func tableStart(_ bytes: [UInt8]) -> Int {
        bytes[(bytes.count - 8)...].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func wellFormedInputsAccountForEveryByte() throws {
        #expect(try PropertyList.read(Self.archive()).unaccountedByteOffset == nil)
        #expect(try PropertyList.read(Self.xmlArchive()).unaccountedByteOffset == nil)
        let spaced = Self.xmlArchive() + Array("\n  <!-- a comment -->\n\n".utf8)
        #expect(try PropertyList.read(spaced).unaccountedByteOffset == nil)
        // Rewritten with 8-byte offsets and nothing inserted: still every byte accounted for.
        #expect(try PropertyList.read(Self.inserting([], at: 8, into: Self.archive())).unaccountedByteOffset == nil)
    }

    @Test func aGapBeforeTheOffsetTableIsFound() throws {
        let bytes = Self.archive()
        let start = Self.tableStart(bytes)
        let gapped = Self.inserting(Array("hidden payload".utf8), at: start, into: bytes)
        #expect(try PropertyList.read(gapped).unaccountedByteOffset == start)
    }

    @Test func aGapBetweenObjectsIsFound() throws {
        let bytes = Self.archive()
        let gapped = Self.inserting([0xFF, 0xFE, 0xFD], at: 8, into: bytes)
        #expect(try PropertyList.read(gapped).unaccountedByteOffset == 8)
    }

    /// Objects out of order in the table (the sorted path): covered bytes are still covered, and a
    /// gap is still found.
    @Test func objectsOutOfOrderAreCheckedBySortedOffsets() throws {
        let bytes = Self.inserting([], at: 8, into: Self.archive())
        let tableStart = Self.tableStart(bytes)
        // The entries of the strings "alpha" and "beta" (two leaf values of $objects) swapped: the
        // same objects, their table no longer in file order.
        func entry(of text: String) throws -> Int {
            let encoded = [UInt8(0x50 | text.utf8.count)] + Array(text.utf8)
            let offset = try #require((8 ..< tableStart).first { bytes[$0 ..< min($0 + encoded.count, tableStart)].elementsEqual(encoded) })
            return try #require((0 ..< (bytes.count - 32 - tableStart) / 8).first { index in
                bytes[(tableStart + index * 8) ..< (tableStart + index * 8 + 8)].reduce(0) { $0 << 8 | Int($1) } == offset
            })
        }
        let alpha = try entry(of: "alpha"), beta = try entry(of: "beta")
        var swapped = bytes
        for byte in 0 ..< 8 { swapped.swapAt(tableStart + alpha * 8 + byte, tableStart + beta * 8 + byte) }
        #expect(try PropertyList.read(swapped).unaccountedByteOffset == nil)
        let gapped = Self.inserting(Array("gap".utf8), at: Self.tableStart(swapped), into: swapped)
        #expect(try PropertyList.read(gapped).unaccountedByteOffset == tableStart)
    }

    @Test func textAfterTheClosingTagIsFound() throws {
        let xml = Self.xmlArchive()
        let trailing = xml + Array(" garbage".utf8)
        #expect(try PropertyList.read(trailing).unaccountedByteOffset == xml.count + 1)
        let second = xml + Array("<plist><true/></plist>".utf8)
        #expect(try PropertyList.read(second).unaccountedByteOffset == xml.count)
        let unclosed = xml + Array("<!-- never closed".utf8)
        #expect(try PropertyList.read(unclosed).unaccountedByteOffset == xml.count)
    }

    @Test func theVerdictIsInconclusiveWithTheOffset() throws {
        let bytes = Self.archive()
        let start = Self.tableStart(bytes)
        let report = try ArchiveInspector(policy: .foundation).validate(Self.inserting(Array("tail".utf8), at: start, into: bytes))
        #expect(report.verdict == .inconclusive(.unaccountedBytes(offset: start)))
        #expect(report.verdict.reason == "plist.unaccounted_bytes")
        #expect(!report.valid)
        let json = String(decoding: report.json, as: UTF8.self)
        #expect(json.contains(#""verdict":"inconclusive","verdictOffset":\#(start),"verdictReason":"plist.unaccounted_bytes""#), "\(json)")

        let xml = Self.xmlArchive() + Array("tail".utf8)
        let xmlReport = try ArchiveInspector(policy: .foundation).validate(xml)
        #expect(xmlReport.verdict == .inconclusive(.unaccountedBytes(offset: xml.count - 4)))
    }

    /// A policy breach still rejects: the archive is refused whatever else the input holds.
    @Test func aRejectionOutranksUnaccountedBytes() {
        let verdict = Verdict(violations: 1, unacknowledgedFindings: 0, undecodedNestedArchives: 1,
                              unaccountedByteOffset: 40, redacts: false, inspection: false)
        #expect(verdict == .rejected(violations: 1))
        let open = Verdict(violations: 0, unacknowledgedFindings: 2, undecodedNestedArchives: 1,
                           unaccountedByteOffset: 40, redacts: false, inspection: true)
        #expect(open == .inconclusive(.unaccountedBytes(offset: 40)))
    }
}
