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
///
/// The tables live in one shared, immutable `Storage` and are lent through read accessors: copying
/// a property list, or capturing it in a closure or a method reference, costs one retain (it cost
/// seven: one per table buffer and the input's owner), so code that holds or passes one may be
/// written the natural way.
public struct PropertyList: Sendable {
    /// The encoding the property list was read from.
    public enum Format: String, Sendable, Codable {
        case binary
        case xml
    }

    /// The property list's tables, immutable once read.
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let format: Format
        @usableFromInline let objects: PropertyListObjectTable
        @usableFromInline let references: [UInt32]
        @usableFromInline let bytes: ByteStorage
        @usableFromInline let root: Int
        @usableFromInline let unaccountedByteOffset: Int?

        init(format: Format, objects: PropertyListObjectTable, references: [UInt32], bytes: ByteStorage, root: Int,
             unaccountedByteOffset: Int?) {
            self.format = format
            self.objects = objects
            self.references = references
            self.bytes = bytes
            self.root = root
            self.unaccountedByteOffset = unaccountedByteOffset
        }
    }

    @usableFromInline private(set) var storage: Storage

    /// The encoding the property list was read from.
    @inlinable public var format: Format { storage.format }
    /// Every object, indexed by object number (packed; reads as `PropertyListObject`s).
    @inlinable public var objects: PropertyListObjectTable { _read { yield storage.objects } }
    /// Child object indices of every container, laid out contiguously per container.
    @inlinable public var references: [UInt32] { _read { yield storage.references } }
    /// The storage that string and data objects point into.
    @inlinable public var bytes: ByteStorage { _read { yield storage.bytes } }
    /// The index of the top-level object.
    @inlinable public var root: Int { storage.root }
    /// The first byte of the input that no part of the property list accounts for, if any: in a
    /// binary plist a byte of the object area that no object's encoding covers, in XML the first
    /// byte after `</plist>` that is neither whitespace nor a comment (an offset into the UTF-8
    /// text). Foundation reads past such bytes; ArchiveGate does not check them, so a keyed
    /// archive that has any is `inconclusive` (`Verdict.Inconclusive.unaccountedBytes`).
    public internal(set) var unaccountedByteOffset: Int? {
        get { storage.unaccountedByteOffset }
        set {
            storage = Storage(format: format, objects: objects, references: references, bytes: bytes, root: root,
                              unaccountedByteOffset: newValue)
        }
    }

    public init(format: Format, objects: PropertyListObjectTable, references: [UInt32], bytes: ByteStorage, root: Int) {
        storage = Storage(format: format, objects: objects, references: references, bytes: bytes, root: root,
                          unaccountedByteOffset: nil)
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
    ///
    /// Every field lookup of the walk and the renderers comes here (5 % of a validation): the
    /// dictionary is unpacked once, and packed ASCII keys are compared by length, then bytes,
    /// against the literal with the input's base address read once for the whole scan.
    public func dictionaryPairIndex(_ index: Int, forKey key: StaticString) -> Int? {
        let dictionary = objects[index]
        guard dictionary.kind == .dictionary else { return nil }
        let start = Int(dictionary.first)
        let pairs = Int(dictionary.second)
        guard key.hasPointerRepresentation else {
            for pair in 0 ..< pairs where stringEquals(Int(references[start + 2 * pair]), key) { return pair }
            return nil
        }
        let length = key.utf8CodeUnitCount
        let literal = key.utf8Start
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            for pair in 0 ..< pairs {
                let keyIndex = Int(references[start + 2 * pair])
                if let (keyStart, keyLength) = objects.packedByteString(at: keyIndex) {
                    // A packed string lies inside `bytes`, so a non-empty one has a base address.
                    if keyLength == length, length == 0 || memoryEquals(buffer.baseAddress! + keyStart, literal, length) { return pair }
                } else if stringEquals(keyIndex, key) {
                    return pair
                }
            }
            return nil
        }
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
            return utf16Equals(start: Int(object.first), units: Int(object.second), utf8: other)
        default:
            return false
        }
    }

    /// Whether the validated big-endian UTF-16 text of `units` code units at `start` equals the
    /// UTF-8 bytes `other`, transcoded unit by unit — no `String` built: the keyed archive checks
    /// every string entry against "$null", and titles in many languages are stored as UTF-16 (a
    /// `String` per check was 6 % of a whole conversion). Every code unit is at least one UTF-8
    /// byte, so a longer text is unequal at once.
    func utf16Equals(start: Int, units: Int, utf8 other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard units <= other.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var unit = 0
            var position = 0
            while unit < units {
                var scalar = UInt32(buffer[start + 2 * unit]) << 8 | UInt32(buffer[start + 2 * unit + 1])
                unit += 1
                // The reader validated the pairing: a high surrogate is followed by a low one.
                if scalar & 0xFC00 == 0xD800, unit < units {
                    let low = UInt32(buffer[start + 2 * unit]) << 8 | UInt32(buffer[start + 2 * unit + 1])
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    unit += 1
                }
                let width = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
                guard other.count - position >= width else { return false }
                switch width {
                case 1:
                    guard other[position] == UInt8(scalar) else { return false }
                case 2:
                    guard other[position] == UInt8(0xC0 | scalar >> 6), other[position + 1] == UInt8(0x80 | scalar & 0x3F) else { return false }
                case 3:
                    guard other[position] == UInt8(0xE0 | scalar >> 12), other[position + 1] == UInt8(0x80 | scalar >> 6 & 0x3F),
                          other[position + 2] == UInt8(0x80 | scalar & 0x3F) else { return false }
                default:
                    guard other[position] == UInt8(0xF0 | scalar >> 18), other[position + 1] == UInt8(0x80 | scalar >> 12 & 0x3F),
                          other[position + 2] == UInt8(0x80 | scalar >> 6 & 0x3F), other[position + 3] == UInt8(0x80 | scalar & 0x3F) else { return false }
                }
                position += width
            }
            return position == other.count
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
