import Testing
@testable import ArchiveGateCore

/// The reader writes a container's references through one pointer, read at the file's reference
/// width: large containers read back in order at every width, and the first bad reference in
/// stored order (a dictionary's key before its value, pair after pair) is the one reported, at its
/// own byte.
@Suite struct BinaryReferenceTableTests {
    typealias Raw = BinaryPropertyListWriter.RawBuilder

    static let widths = [1, 2, 3, 4, 8]

    /// How many strings the containers point at (object numbers 1…), and how many pairs the
    /// dictionary has (keys are distinct): past a chunk unless 1-byte references cannot address it.
    static func sizes(width: Int) -> (strings: UInt64, pairs: Int) { width == 1 ? (250, 240) : (1400, 1300) }

    /// Object 0 is the container (`references` as given), then the strings.
    static func file(width: Int, dictionaryPairs: Int?, references: [UInt64]) -> [UInt8] {
        var raw = Raw(referenceSize: width)
        if let pairs = dictionaryPairs {
            raw.dictionary(keys: Array(references[..<pairs]), values: Array(references[pairs...]))
        } else {
            raw.array(references)
        }
        for index in 0 ..< sizes(width: width).strings { raw.append(.string("s\(index)")) }
        return raw.bytes()
    }

    /// Where reference `position` (in file order) of object 0 starts.
    static func referenceOffset(_ position: Int, width: Int, marker: UInt8, count: Int) -> Int {
        BinaryPropertyListWriter.header.count + Raw.header(marker, count: UInt64(count)).count + position * width
    }

    func readError(_ bytes: [UInt8]) -> PropertyListError? {
        do {
            _ = try PropertyList.read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: widths)
    func largeContainersReadBackInOrder(width: Int) throws {
        let (strings, pairs) = Self.sizes(width: width)
        let keys = (0 ..< pairs).map { UInt64(1 + $0) }
        let values = (0 ..< pairs).map { 1 + UInt64($0 * 7 + 3) % strings }
        let dictionary = try PropertyList.read(Self.file(width: width, dictionaryPairs: pairs, references: keys + values))
        let interleaved = zip(keys, values).flatMap { [UInt32($0), UInt32($1)] }
        #expect(Array(dictionary.children(of: 0)) == interleaved)

        let elements = (0 ..< 2500).map { 1 + UInt64($0 * 13) % strings }
        let array = try PropertyList.read(Self.file(width: width, dictionaryPairs: nil, references: elements))
        #expect(Array(array.children(of: 0)) == elements.map(UInt32.init))
    }

    @Test(arguments: widths)
    func firstBadReferenceInStoredOrderIsReported(width: Int) {
        let (strings, pairs) = Self.sizes(width: width)
        let bad = strings + 1
        // Pair `late`'s value and the next pair's key are bad: the key comes first in the file,
        // the value first in stored order.
        let late = pairs * 2 / 3
        var keys = (0 ..< pairs).map { UInt64(1 + $0) }
        var values = keys
        values[late] = bad
        keys[late + 1] = bad
        let dictionaryError = readError(Self.file(width: width, dictionaryPairs: pairs, references: keys + values))
        #expect(dictionaryError?.code == .invalidObjectReference)
        #expect(dictionaryError?.offset == Self.referenceOffset(pairs + late, width: width, marker: 0xD0, count: pairs))

        // Past the first chunk, and a later bad one too.
        var elements = (0 ..< 2500).map { 1 + UInt64($0) % strings }
        elements[1700] = bad
        elements[2400] = bad
        let arrayError = readError(Self.file(width: width, dictionaryPairs: nil, references: elements))
        #expect(arrayError?.code == .invalidObjectReference)
        #expect(arrayError?.offset == Self.referenceOffset(1700, width: width, marker: 0xA0, count: elements.count))
    }

    /// An offset table that names one container 3,000 times claims far more references than the
    /// object area could hold: the table reserved for it is capped, and the references outgrow it
    /// into memory that grows on demand, all of them read back.
    @Test func containerNamedManyTimesOutgrowsTheCappedTable() throws {
        var raw = Raw(referenceSize: 2)
        let elements = (1 ... 10).map { UInt64($0) }
        raw.array(elements)
        for index in 0 ..< 10 { raw.append(.string("s\(index)")) }
        let bytes = raw.bytes { layout in layout.offsets += Array(repeating: layout.offsets[0], count: 3000) }
        let plist = try PropertyList.read(bytes)
        #expect(plist.references.count == 3001 * 10)
        for object in [0, 11, 1500, 3010] {
            #expect(Array(plist.children(of: object)) == elements.map(UInt32.init))
        }
    }
}
