import Testing
@testable import ArchiveGateCore

/// The binary reader tells a lending owner which of its pages it is done with (the CLI's file
/// mapping then drops them: peak RSS): behind each pass over the offset table, and all of them
/// once decoded. A hint only: what is read stays the same.
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

    /// Whether `regions` together cover every byte of `range`.
    static func covers(_ regions: [Range<Int>], _ range: Range<Int>) -> Bool {
        var covered = range.lowerBound
        for region in regions.sorted(by: { $0.lowerBound < $1.lowerBound }) where region.lowerBound <= covered {
            covered = max(covered, region.upperBound)
        }
        return covered >= range.upperBound
    }

    @Test func theReaderGivesEveryPageBackOnceDecoded() throws {
        let value = PropertyListValue.array((0 ..< 300).map { .string("item \($0)") })
        let bytes = BinaryPropertyListWriter.write(value)
        let owner = RecordingOwner(bytes)
        let storage = ByteStorage(lending: UnsafeBufferPointer(owner.buffer), owner: owner)
        let plist = try PropertyList.read(storage)
        // Nothing reads the offset table and trailer again, and later layers fault back only the
        // strings and data they read: the whole input is given back, last of all.
        #expect(owner.discarded.last == 0 ..< bytes.count)
        #expect(owner.discarded.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= bytes.count })
        // A hint only: everything still reads as before.
        #expect(plist.string(at: Int(plist.children(of: plist.root).last!)) == "item 299")
        #expect(plist.objects == (try PropertyList.read(bytes)).objects)
    }

    @Test func aRefusedInputFailsAsFromAnArray() throws {
        var bytes = BinaryPropertyListWriter.write(.array([.string("a"), .string("b")]))
        bytes[9] = 0x0F  // the array's first reference (after its marker at 8) names a missing object
        let owner = RecordingOwner(bytes)
        let storage = ByteStorage(lending: UnsafeBufferPointer(owner.buffer), owner: owner)
        var lent: PropertyListError?
        do { _ = try PropertyList.read(storage) } catch { lent = error }
        var array: PropertyListError?
        do { _ = try PropertyList.read(bytes) } catch { array = error }
        #expect(lent?.code == .invalidObjectReference)
        #expect(lent?.code == array?.code && lent?.offset == array?.offset && lent?.offset == 9)
        #expect(owner.discarded.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= bytes.count })
    }

    /// A pass over more than one step gives pages back behind it as it goes, never ahead of it,
    /// each byte once, and the rest when it finishes.
    @Test func aTrailGivesBackBehindThePassInSteps() {
        let size = 3 * ResidencyTrail.step + 12_345
        let owner = RecordingOwner([UInt8](repeating: 0, count: size))
        let storage = ByteStorage(lending: UnsafeBufferPointer(owner.buffer), owner: owner)
        var trail = ResidencyTrail(storage, over: 8 ..< size - 100)
        var position = 8
        while position < size - 100 {
            let before = owner.discarded.count
            trail.pass(position)
            if owner.discarded.count > before {
                let region = owner.discarded.last!
                #expect(region.upperBound == position - ResidencyTrail.margin)
            }
            position += 1000
        }
        let duringPass = owner.discarded.count
        #expect(duringPass == 3)
        trail.finish()
        #expect(owner.discarded.count == duringPass + 1)
        #expect(owner.discarded.last!.upperBound == size - 100)
        #expect(owner.discarded.first!.lowerBound == 8)
        // Each region starts a margin below where the previous one ended (its last page, kept
        // whole then, lies wholly inside this one), never further back.
        for (previous, next) in zip(owner.discarded, owner.discarded.dropFirst()) {
            #expect(next.lowerBound == previous.upperBound - ResidencyTrail.margin)
        }
        #expect(Self.covers(owner.discarded, 8 ..< size - 100))
        // Positions below the furthest reached give nothing back again.
        trail.pass(100)
        #expect(owner.discarded.count == duringPass + 1)
    }

    @Test func aLargeInputIsGivenBackDuringDecoding() throws {
        // ~5 MiB of strings written in order: the passes over the offset table give back behind
        // them before the read ends.
        let value = PropertyListValue.array((0 ..< 50_000).map { .string(String(repeating: "x", count: 100) + "\($0)") })
        let bytes = BinaryPropertyListWriter.write(value)
        #expect(bytes.count > ResidencyTrail.step)
        let owner = RecordingOwner(bytes)
        let storage = ByteStorage(lending: UnsafeBufferPointer(owner.buffer), owner: owner)
        let plist = try PropertyList.read(storage)
        #expect(owner.discarded.count > 3)
        // The object area's first step, given back while the pass was still a MiB from the end.
        #expect(owner.discarded.contains { $0.lowerBound == 8 && $0.upperBound < bytes.count - (1 << 20) })
        #expect(plist.string(at: Int(plist.children(of: plist.root).last!)) == String(repeating: "x", count: 100) + "49999")
        #expect(plist.objects == (try PropertyList.read(bytes)).objects)
    }
}
