/// What `TypedStreamReader` reads from an `NSArchiver` typedstream: the classes the stream names
/// (with their versions and superclasses), the objects in the order the stream introduces them,
/// and the top-level value groups. Nothing is instantiated; this is data only.
///
/// A typedstream is positional: each object's contents are a sequence of groups, each group a type
/// encoding (`"@"`, `"i"`, `"iI"`, `"+"`, `"[16c]"`, `"{_NSRange=QQ}"` …) and the values it
/// announces. Object and class references in values are indexes into `objects` and `classes`.
public struct TypedStreamGraph: Hashable, Sendable {
    /// Byte order of multi-byte numbers: `streamtyped` streams are little-endian, `typedstream` big.
    public enum ByteOrder: String, Hashable, Sendable { case little, big }

    public var byteOrder: ByteOrder
    /// The streamer version from the header (4 for every stream Apple writes).
    public var streamerVersion: Int
    /// The system version from the header (1000 on macOS and iOS, 98 on NeXT-era writers).
    public var systemVersion: Int
    /// Every class the stream introduces, in first-seen order.
    public var classes: [TypedStreamClass]
    /// Every object the stream introduces, in first-seen order (cycles go through these indexes).
    public var objects: [TypedStreamObject]
    /// The top-level groups, in stream order (usually one `"@"` group holding the root object).
    public var top: [TypedStreamGroup]

    public init(byteOrder: ByteOrder, streamerVersion: Int, systemVersion: Int,
                classes: [TypedStreamClass] = [], objects: [TypedStreamObject] = [], top: [TypedStreamGroup] = []) {
        self.byteOrder = byteOrder
        self.streamerVersion = streamerVersion
        self.systemVersion = systemVersion
        self.classes = classes
        self.objects = objects
        self.top = top
    }
}

/// A class as the stream introduces it: its name, the version its writer recorded and its superclass.
public struct TypedStreamClass: Hashable, Sendable {
    public var name: String
    public var version: Int64
    /// Index of the superclass in `TypedStreamGraph.classes`; nil at the root (`NSObject`).
    public var superclass: Int?
    /// Byte offset where the class is introduced.
    public var offset: Int

    public init(name: String, version: Int64, superclass: Int?, offset: Int) {
        self.name = name
        self.version = version
        self.superclass = superclass
        self.offset = offset
    }
}

/// An object: its class and the groups its class chain wrote, superclass first, in stream order.
public struct TypedStreamObject: Hashable, Sendable {
    /// Index into `TypedStreamGraph.classes`.
    public var classIndex: Int
    public var groups: [TypedStreamGroup]
    /// Byte offset where the object is introduced.
    public var offset: Int

    public init(classIndex: Int, groups: [TypedStreamGroup], offset: Int) {
        self.classIndex = classIndex
        self.groups = groups
        self.offset = offset
    }
}

/// One type encoding and the values it announces, in order.
public struct TypedStreamGroup: Hashable, Sendable {
    /// The type encoding as written, e.g. `iI` or `{_NSRange=QQ}`.
    public var encoding: String
    public var values: [TypedStreamValue]
    /// Byte offset of the group's type encoding.
    public var offset: Int

    public init(encoding: String, values: [TypedStreamValue], offset: Int) {
        self.encoding = encoding
        self.values = values
        self.offset = offset
    }
}

/// One positional value.
public enum TypedStreamValue: Hashable, Sendable {
    /// `c s i l q` (and `B`): a signed integer.
    case signed(Int64)
    /// `C S I L Q`: an unsigned integer.
    case unsigned(UInt64)
    /// `f`.
    case float(Float)
    /// `d`.
    case double(Double)
    /// `*`: a shared C string; nil for a NULL pointer.
    case cString([UInt8]?)
    /// `+`: raw bytes with a length prefix (NSString's and NSData's contents).
    case bytes([UInt8])
    /// `:`: a selector name; nil for NULL.
    case selector([UInt8]?)
    /// `@`: an object, as an index into `TypedStreamGraph.objects`; nil for nil.
    case object(Int?)
    /// `#`: a class, as an index into `TypedStreamGraph.classes`; nil for Nil.
    case classReference(Int?)
    /// `[Nt]` of a type other than `c`/`C`: N values.
    case array([TypedStreamValue])
    /// `[Nc]` / `[NC]`: N bytes.
    case byteArray([UInt8])
    /// `{name=…}`: the fields in order.
    case structure(name: String, fields: [TypedStreamValue])
}
