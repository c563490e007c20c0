/// The object table of a `PropertyList`: every object's kind and payload words, packed into 9 bytes
/// per object instead of `PropertyListObject`'s 24.
///
/// It reads as a collection of `PropertyListObject` (the logical view, whose doc comments say what
/// the payload words mean); only the storage is packed:
/// - `tags` holds one byte per object: the kind's raw value, with `wideTag` set when the payload
///   did not fit one 64-bit word and sits in `wide` instead;
/// - `payloads` holds one 64-bit word per object: for reals and dates the `Double` bits, for
///   integers the value when it fits 64 signed bits (the high word is its sign extension), for
///   every other kind `first` in the low and `second` in the high 32 bits; for a wide object, its
///   position in `wide`.
///
/// Nearly every object fits: offsets and byte counts stay below 2^32 under the default
/// `PropertyListLimits.maxInputBytes` (64 MiB), reference starts are capped at 2^32 - 1 by the
/// readers, and UIDs have at most 32 bits. Only 128-bit integers (and, with a raised input limit,
/// offsets past 4 GiB) use `wide`, so no input is refused for the narrower fields.
public struct PropertyListObjectTable: RandomAccessCollection, Sendable {
    @usableFromInline static let wideTag: UInt8 = 0x80

    @usableFromInline var tags: [UInt8] = []
    @usableFromInline var payloads: [UInt64] = []
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
    @inlinable
    public subscript(index: Int) -> PropertyListObject {
        let tag = tags[index]
        let payload = payloads[index]
        if tag & Self.wideTag != 0 { return wide[Int(payload)] }
        // Every tag without `wideTag` was written by `append` from a valid kind.
        let kind = PropertyListObject.Kind(rawValue: tag).unsafelyUnwrapped
        switch kind {
        case .real, .date:
            return PropertyListObject(kind: kind, first: payload)
        case .integer:
            return PropertyListObject(kind: kind, first: payload, second: Int64(bitPattern: payload) < 0 ? .max : 0)
        default:
            return PropertyListObject(kind: kind, first: payload & 0xFFFF_FFFF, second: payload >> 32)
        }
    }

    /// The kind of the object at `index`, without unpacking its payload.
    @inlinable
    public func kind(at index: Int) -> PropertyListObject.Kind {
        let tag = tags[index]
        if tag & Self.wideTag != 0 { return wide[Int(payloads[index])].kind }
        return PropertyListObject.Kind(rawValue: tag).unsafelyUnwrapped
    }

    /// Reserves room for `count` objects (the wide side table grows on demand: it is rare).
    public mutating func reserveCapacity(_ count: Int) {
        tags.reserveCapacity(count)
        payloads.reserveCapacity(count)
    }

    /// Appends `object`, packed when its payload fits one word, else in the side table.
    public mutating func append(_ object: PropertyListObject) {
        if let payload = Self.packed(object) {
            tags.append(object.kind.rawValue)
            payloads.append(payload)
        } else {
            tags.append(object.kind.rawValue | Self.wideTag)
            payloads.append(UInt64(wide.count))
            wide.append(object)
        }
    }

    /// Removes the last `count` objects.
    public mutating func removeLast(_ count: Int) {
        // Wide entries are appended in object order, so the removed objects' ones are at its end.
        for index in tags.count - count ..< tags.count where tags[index] & Self.wideTag != 0 { wide.removeLast() }
        tags.removeLast(count)
        payloads.removeLast(count)
    }

    /// The one-word form of `object`'s payload, or nil when it needs the side table.
    private static func packed(_ object: PropertyListObject) -> UInt64? {
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
}
