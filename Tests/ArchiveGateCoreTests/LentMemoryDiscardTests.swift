import Testing
@testable import ArchiveGateCore

/// The binary reader tells a lending owner that the offset table and trailer are done with (the
/// CLI's file mapping then drops those pages: peak RSS), and only that region.
@Suite("Lent memory discard")
struct LentMemoryDiscardTests {
    /// Owns a copy of the bytes and records what it is told to discard.
    final class RecordingOwner: LentMemoryOwner {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var discarded: [Range<Int>] = []

        init(_ bytes: [UInt8]) {
            buffer = .allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
        }

        deinit { buffer.deallocate() }

        func discardResidentPages(in region: UnsafeRawBufferPointer) {
            let start = UnsafeRawPointer(buffer.baseAddress!).distance(to: region.baseAddress!)
            discarded.append(start ..< start + region.count)
        }
    }

    @Test func theReaderDiscardsExactlyTheOffsetTableAndTrailer() throws {
        let value = PropertyListValue.array((0 ..< 300).map { .string("item \($0)") })
        let bytes = BinaryPropertyListWriter.write(value)
        let owner = RecordingOwner(bytes)
        let storage = ByteStorage(lending: UnsafeBufferPointer(owner.buffer), owner: owner)
        let plist = try PropertyList.read(storage)
        // The trailer's last 8 bytes are the offset table's position.
        let tableStart = bytes[(bytes.count - 8)...].reduce(0) { $0 << 8 | Int($1) }
        #expect(owner.discarded == [tableStart ..< bytes.count])
        // A hint only: everything still reads as before.
        #expect(plist.string(at: Int(plist.children(of: plist.root).last!)) == "item 299")
        #expect(plist.objects == (try PropertyList.read(bytes)).objects)
    }

    @Test func aRefusedInputIsNotDiscarded() {
        var bytes = BinaryPropertyListWriter.write(.array([.string("a"), .string("b")]))
        bytes[9] = 0x0F  // the array's first reference (after its marker at 8) names a missing object
        let owner = RecordingOwner(bytes)
        let storage = ByteStorage(lending: UnsafeBufferPointer(owner.buffer), owner: owner)
        #expect(throws: PropertyListError.self) { try PropertyList.read(storage) }
        #expect(owner.discarded.isEmpty)
    }
}
