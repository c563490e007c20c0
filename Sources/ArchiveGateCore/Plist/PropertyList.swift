#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed property list: a flat table of objects, a table of child references, and the bytes
/// that strings and data point into.
///
/// For binary input, `bytes` is the input itself (no copy, also when the input is a mapped file)
/// and object indices are the file's own object numbers; for XML input, `bytes` holds the decoded
/// text and base64 payloads.
public struct PropertyList: Sendable {
    /// The encoding the property list was read from.
    public enum Format: String, Sendable, Codable {
        case binary
        case xml
    }

    public let format: Format
    /// Every object, indexed by object number (packed; reads as `PropertyListObject`s).
    public let objects: PropertyListObjectTable
    /// Child object indices of every container, laid out contiguously per container.
    public let references: [UInt32]
    /// The storage that string and data objects point into.
    public let bytes: ByteStorage
    /// The index of the top-level object.
    public let root: Int
    /// The first byte of the input that no part of the property list accounts for, if any: in a
    /// binary plist a byte of the object area that no object's encoding covers, in XML the first
    /// byte after `</plist>` that is neither whitespace nor a comment (an offset into the UTF-8
    /// text). Foundation reads past such bytes; ArchiveGate does not check them, so a keyed
    /// archive that has any is `inconclusive` (`Verdict.Inconclusive.unaccountedBytes`).
    public internal(set) var unaccountedByteOffset: Int?

    public init(format: Format, objects: PropertyListObjectTable, references: [UInt32], bytes: ByteStorage, root: Int) {
        self.format = format
        self.objects = objects
        self.references = references
        self.bytes = bytes
        self.root = root
    }

    /// Reads a binary (`bplist00`) or XML property list, choosing by the first bytes.
    public static func read(_ bytes: [UInt8], limits: PropertyListLimits = .init()) throws(PropertyListError) -> PropertyList {
        try read(ByteStorage(bytes), limits: limits)
    }

    /// Reads a binary or XML property list from `bytes`. Binary input is read in place (lent
    /// memory is not copied); XML input is scanned from an array (lent memory is copied once).
    public static func read(_ bytes: ByteStorage, limits: PropertyListLimits = .init()) throws(PropertyListError) -> PropertyList {
        if bytes.count > limits.maxInputBytes {
            throw PropertyListError(.inputTooLarge, offset: limits.maxInputBytes,
                                    "input is \(bytes.count) bytes; the limit is \(limits.maxInputBytes)")
        }
        if BinaryPropertyListReader.hasBinaryHeader(bytes) {
            return try BinaryPropertyListReader(bytes: bytes, limits: limits).read()
        }
        let text = bytes.arrayCopy
        let encoding = XMLSourceEncoding.detect(text)
        if encoding != .utf8 {
            return try XMLPropertyListReader(bytes: try encoding.utf8(text), limits: limits, sourceEncoding: encoding).read()
        }
        if XMLPropertyListReader.looksLikeXML(text) {
            return try XMLPropertyListReader(bytes: text, limits: limits).read()
        }
        throw PropertyListError(.notAPropertyList, offset: 0, "input starts neither with 'bplist00' nor with XML")
    }

    // MARK: - Access

    @inlinable @inline(__always)
    public subscript(index: Int) -> PropertyListObject { objects[index] }

    /// The kind of object `index` (cheaper than `self[index].kind`: the payload is not unpacked).
    @inlinable @inline(__always)
    public func kind(of index: Int) -> PropertyListObject.Kind { objects.kind(at: index) }

    /// The child indices of an array or set, or the interleaved key/value indices of a dictionary.
    @inlinable @inline(__always)
    public func children(of index: Int) -> ArraySlice<UInt32> {
        let object = objects[index]
        let start = Int(object.first)
        let count = object.kind == .dictionary ? Int(object.second) * 2 : Int(object.second)
        return references[start ..< start + count]
    }

    /// The number of elements (arrays, sets) or pairs (dictionaries).
    @inlinable @inline(__always)
    public func count(of index: Int) -> Int { Int(objects[index].second) }

    /// The key index of pair `pair` of dictionary `index`.
    @inlinable @inline(__always)
    public func dictionaryKey(_ index: Int, pair: Int) -> Int {
        Int(references[Int(objects[index].first) + 2 * pair])
    }

    /// The value index of pair `pair` of dictionary `index`.
    @inlinable @inline(__always)
    public func dictionaryValue(_ index: Int, pair: Int) -> Int {
        Int(references[Int(objects[index].first) + 2 * pair + 1])
    }

    /// The value stored under `key` in dictionary `index`, compared without building a `String`.
    public func dictionaryValue(_ index: Int, forKey key: StaticString) -> Int? {
        guard let pair = dictionaryPairIndex(index, forKey: key) else { return nil }
        return Int(references[referencesStart(of: index) + 2 * pair + 1])
    }

    /// The pair position of `key` in dictionary `index`, or nil.
    public func dictionaryPairIndex(_ index: Int, forKey key: StaticString) -> Int? {
        guard kind(of: index) == .dictionary else { return nil }
        let start = referencesStart(of: index)
        for pair in 0 ..< count(of: index) where stringEquals(Int(references[start + 2 * pair]), key) { return pair }
        return nil
    }

    /// Whether string object `index` equals the ASCII literal `literal`.
    ///
    /// Always inlined: it runs once per dictionary pair in every lookup by key. A packed ASCII or
    /// UTF-8 key is rejected by its length alone, read from the tag and payload word (no whole
    /// object unpacked); other objects take the general path.
    @inlinable @inline(__always)
    public func stringEquals(_ index: Int, _ literal: StaticString) -> Bool {
        if literal.hasPointerRepresentation, let (start, length) = objects.packedByteString(at: index) {
            return length == literal.utf8CodeUnitCount && bytesEqual(at: start, literal.utf8Start, count: length)
        }
        return literal.withUTF8Buffer { stringEquals(index, utf8: $0) }
    }

    /// Whether the `count` bytes of `bytes` at `start` equal those at `other` (the caller checked
    /// that the range is inside `bytes`: it is a string object's text). Empty runs are equal
    /// without touching the storage, which may then have no base address (an XML plist whose
    /// only strings are empty).
    @inlinable @inline(__always)
    func bytesEqual(at start: Int, _ other: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count > 0 else { return true }
        return bytes.withUnsafeBufferPointer { buffer in memoryEquals(buffer.baseAddress! + start, other, count) }
    }

    /// Whether the `count` bytes of `bytes` at `lhs` and at `rhs` are equal (both ranges inside
    /// `bytes`; empty runs as above).
    @inlinable @inline(__always)
    func bytesEqual(at lhs: Int, _ rhs: Int, count: Int) -> Bool {
        guard count > 0 else { return true }
        return bytes.withUnsafeBufferPointer { buffer in memoryEquals(buffer.baseAddress! + lhs, buffer.baseAddress! + rhs, count) }
    }

    /// Whether string object `index` equals the given UTF-8 bytes (ASCII fast path; UTF-16 decoded).
    public func stringEquals(_ index: Int, utf8 other: UnsafeBufferPointer<UInt8>) -> Bool {
        let object = objects[index]
        switch object.kind {
        case .asciiString, .utf8String:
            guard Int(object.second) == other.count else { return false }
            guard let otherStart = other.baseAddress else { return true }
            return bytesEqual(at: Int(object.first), otherStart, count: other.count)
        case .utf16String:
            return string(at: index).map { $0.utf8.elementsEqual(other) } ?? false
        default:
            return false
        }
    }

    /// The value of a string object, or nil when `index` is not a string.
    public func string(at index: Int) -> String? {
        let object = objects[index]
        // The payload words are offsets only for strings; for numbers they may not even fit an Int.
        guard object.isString else { return nil }
        let start = Int(object.first)
        let length = Int(object.second)
        if object.kind == .utf16String {
            var units = [UInt16]()
            units.reserveCapacity(length)
            for unit in 0 ..< length {
                units.append(UInt16(bytes[start + 2 * unit]) << 8 | UInt16(bytes[start + 2 * unit + 1]))
            }
            return String(decoding: units, as: UTF16.self)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start ..< start + length]), as: UTF8.self)
        }
    }

    /// The bytes of a data object, or nil when `index` is not data.
    public func data(at index: Int) -> Slice<ByteStorage>? {
        let object = objects[index]
        guard object.kind == .data else { return nil }
        return bytes[Int(object.first) ..< Int(object.first + object.second)]
    }

    /// The value of an integer object that fits 64 signed bits, or nil.
    public func int64(at index: Int) -> Int64? {
        let object = objects[index]
        guard object.kind == .integer else { return nil }
        let value = integer128(object)
        guard value >= Int128(Int64.min), value <= Int128(Int64.max) else { return nil }
        return Int64(value)
    }

    /// The numeric value of an integer, real or boolean object as a `Double`, or nil.
    public func double(at index: Int) -> Double? {
        let object = objects[index]
        switch object.kind {
        case .real, .date: return Double(bitPattern: object.first)
        case .integer: return Double(integer128(object))
        case .bool: return object.first == 0 ? 0 : 1
        default: return nil
        }
    }

    /// The signed 128-bit value of an integer object's payload.
    @inlinable @inline(__always)
    public func integer128(_ object: PropertyListObject) -> Int128 {
        Int128(_low: object.first, _high: Int64(bitPattern: object.second))
    }

    /// The value of a UID object, or nil.
    @inlinable @inline(__always)
    public func uid(at index: Int) -> Int? {
        let object = objects[index]
        return object.kind == .uid ? Int(object.first) : nil
    }
}

/// Whether `count` bytes at `lhs` and `rhs` are equal. Keys are compared by the million and are
/// short: up to 16 bytes are compared as two overlapping words (no call); longer runs by `memcmp`.
@usableFromInline @inline(__always)
func memoryEquals(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
    guard count > 0, let rhs else { return true }
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    switch count {
    case 8 ... 16:
        return left.loadUnaligned(as: UInt64.self) == right.loadUnaligned(as: UInt64.self)
            && left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    case 4 ..< 8:
        return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
            && left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    case 1 ..< 4:
        return lhs[0] == rhs[0] && lhs[count >> 1] == rhs[count >> 1] && lhs[count - 1] == rhs[count - 1]
    default:
        return memcmp(lhs, rhs, count) == 0
    }
}
