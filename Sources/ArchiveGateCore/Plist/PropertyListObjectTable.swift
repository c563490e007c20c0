/// The object table of a `PropertyList`: every object's kind and payload words, packed into 5 bytes
/// per object for nearly all objects instead of `PropertyListObject`'s 24.
///
/// It reads as a collection of `PropertyListObject` (the logical view, whose doc comments say what
/// the payload words mean); only the storage is packed, in three tiers:
/// - `tags` holds one byte per object: the kind's raw value, plus `inWords` or `inWide` when the
///   payload is stored in a side table; `payloads` holds one 32-bit word per object: the packed
///   payload, or the object's position in that side table;
/// - packed in 32 bits (`packedSmall`): nulls, bools and UIDs; integers that fit `Int32`; reals and
///   dates whose low 32 bits are zero (0, 1, 0.5 …: the high half is kept); strings, data and
///   containers whose offset (or reference start) is below 2^26 and whose count is below 64;
/// - `words` (8 bytes more): any other payload that fits one 64-bit word (`packedWord`): reals and
///   dates, integers that fit `Int64`, offsets and counts below 2^32;
/// - `wide` (24 bytes more): the rest — 128-bit integers and, with a raised input limit, offsets or
///   counts past 2^32 — so no input is refused for the narrower fields.
///
/// A table holds at most `UInt32.max` objects (both readers refuse more with a typed error), so
/// every side-table position fits its 32-bit payload.
public struct PropertyListObjectTable: RandomAccessCollection, Equatable, Sendable {
    @usableFromInline static let inWide: UInt8 = 0x80
    @usableFromInline static let inWords: UInt8 = 0x40
    @usableFromInline static let kindMask: UInt8 = 0x3F
    /// Offsets and counts packed in 32 bits: the offset in the low 26 bits, the count above.
    @usableFromInline static let smallOffsetBits: UInt32 = 26

    @usableFromInline var tags: [UInt8] = []
    @usableFromInline var payloads: [UInt32] = []
    @usableFromInline var words: [UInt64] = []
    @usableFromInline var wide: [PropertyListObject] = []

    /// An empty table.
    public init() {}

    /// A table holding `objects` in order.
    public init(_ objects: some Sequence<PropertyListObject>) {
        for object in objects { append(object) }
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { tags.count }

    /// The object at `index` with its payload words unpacked.
    @inlinable @inline(__always)
    public subscript(index: Int) -> PropertyListObject {
        let tag = tags[index]
        let payload = payloads[index]
        let kind = Self.kind(ofTag: tag)
        if tag & (Self.inWide | Self.inWords) != 0 { return sideObject(tag: tag, payload: payload) }
        switch kind {
        case .integer:
            let value = Int64(Int32(bitPattern: payload))
            return PropertyListObject(kind: kind, first: UInt64(bitPattern: value), second: value < 0 ? .max : 0)
        case .real, .date:
            return PropertyListObject(kind: kind, first: UInt64(payload) << 32)
        case .null, .bool, .uid:
            return PropertyListObject(kind: kind, first: UInt64(payload))
        default:
            return PropertyListObject(kind: kind, first: UInt64(payload & (1 << Self.smallOffsetBits - 1)),
                                      second: UInt64(payload >> Self.smallOffsetBits))
        }
    }

    /// Tables are equal when they hold the same objects in the same order (however packed).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// The kind of the object at `index`, without unpacking its payload.
    @inlinable @inline(__always)
    public func kind(at index: Int) -> PropertyListObject.Kind { Self.kind(ofTag: tags[index]) }

    /// The kind a tag holds. Every tag was written by `append` from a `Kind`'s raw value, and the
    /// raw values are the cases' declaration order (0…12), which is also an enum's in-memory
    /// form, so the byte is the kind itself: a bit cast, not `init(rawValue:)`'s search.
    @inlinable @inline(__always)
    static func kind(ofTag tag: UInt8) -> PropertyListObject.Kind {
        unsafeBitCast(tag & kindMask, to: PropertyListObject.Kind.self)
    }

    /// An object whose payload is in `words` or `wide` (kept out of line: rare).
    @usableFromInline @inline(never)
    func sideObject(tag: UInt8, payload: UInt32) -> PropertyListObject {
        if tag & Self.inWide != 0 { return wide[Int(payload)] }
        return Self.unpackWord(words[Int(payload)], kind: Self.kind(ofTag: tag))
    }

    /// Reserves room for `count` objects (the side tables grow on demand: they hold the minority).
    public mutating func reserveCapacity(_ count: Int) {
        tags.reserveCapacity(count)
        payloads.reserveCapacity(count)
    }

    /// Appends `object` in the smallest tier its payload fits.
    public mutating func append(_ object: PropertyListObject) {
        let (tag, payload) = Self.pack(object, words: &words, wide: &wide)
        tags.append(tag)
        payloads.append(payload)
    }

    /// A table of `count` objects, object `index` made by `object(index)` in order, written
    /// straight into storage allocated once (the binary reader: no per-object append). The first
    /// error `object` throws stops the filling and is rethrown.
    static func filled<Failure: Error>(
        count: Int, _ object: (Int) throws(Failure) -> PropertyListObject
    ) throws(Failure) -> PropertyListObjectTable {
        var words: [UInt64] = []
        var wide: [PropertyListObject] = []
        var failure: Failure?
        var tags: [UInt8] = []
        let payloads = [UInt32](unsafeUninitializedCapacity: count) { payloads, payloadCount in
            tags = [UInt8](unsafeUninitializedCapacity: count) { tags, tagCount in
                for index in 0 ..< count {
                    let next: PropertyListObject
                    do throws(Failure) { next = try object(index) } catch {
                        failure = error
                        return
                    }
                    (tags[index], payloads[index]) = pack(next, words: &words, wide: &wide)
                    tagCount = index + 1
                    payloadCount = index + 1
                }
            }
        }
        if let failure { throw failure }
        var table = PropertyListObjectTable()
        table.tags = tags
        table.payloads = payloads
        table.words = words
        table.wide = wide
        return table
    }

    /// The tag and 32-bit payload of `object`, appending its payload to a side table when it does
    /// not fit 32 bits.
    private static func pack(_ object: PropertyListObject, words: inout [UInt64], wide: inout [PropertyListObject]) -> (UInt8, UInt32) {
        let kind = object.kind.rawValue
        if let small = packedSmall(object) { return (kind, small) }
        if let word = packedWord(object) {
            words.append(word)
            return (kind | inWords, UInt32(words.count - 1))
        }
        wide.append(object)
        return (kind | inWide, UInt32(wide.count - 1))
    }

    /// Removes the last `count` objects.
    public mutating func removeLast(_ count: Int) {
        // Side entries are appended in object order, so the removed objects' ones are at the end.
        for index in tags.count - count ..< tags.count {
            if tags[index] & Self.inWide != 0 { wide.removeLast() }
            if tags[index] & Self.inWords != 0 { words.removeLast() }
        }
        tags.removeLast(count)
        payloads.removeLast(count)
    }

    /// The 32-bit form of `object`'s payload, or nil when it needs a side table.
    private static func packedSmall(_ object: PropertyListObject) -> UInt32? {
        switch object.kind {
        case .integer:
            guard object.second == (Int64(bitPattern: object.first) < 0 ? .max : 0),
                  let value = Int32(exactly: Int64(bitPattern: object.first)) else { return nil }
            return UInt32(bitPattern: value)
        case .real, .date:
            return object.second == 0 && object.first & 0xFFFF_FFFF == 0 ? UInt32(object.first >> 32) : nil
        case .null, .bool, .uid:
            return object.second == 0 ? UInt32(exactly: object.first) : nil
        default:
            guard object.first < 1 << UInt64(smallOffsetBits), object.second < 1 << UInt64(32 - smallOffsetBits) else { return nil }
            return UInt32(object.first) | UInt32(object.second) << smallOffsetBits
        }
    }

    /// The 64-bit form of `object`'s payload, or nil when it needs `wide`.
    private static func packedWord(_ object: PropertyListObject) -> UInt64? {
        switch object.kind {
        case .real, .date:
            return object.second == 0 ? object.first : nil
        case .integer:
            return object.second == (Int64(bitPattern: object.first) < 0 ? .max : 0) ? object.first : nil
        default:
            guard object.first <= 0xFFFF_FFFF, object.second <= 0xFFFF_FFFF else { return nil }
            return object.first | object.second << 32
        }
    }

    /// The payload words of a `packedWord` form.
    @usableFromInline
    static func unpackWord(_ word: UInt64, kind: PropertyListObject.Kind) -> PropertyListObject {
        switch kind {
        case .real, .date:
            PropertyListObject(kind: kind, first: word)
        case .integer:
            PropertyListObject(kind: kind, first: word, second: Int64(bitPattern: word) < 0 ? .max : 0)
        default:
            PropertyListObject(kind: kind, first: word & 0xFFFF_FFFF, second: word >> 32)
        }
    }
}
