/// Builds the property list `NSKeyedArchiver` writes, for tests and benchmarks.
///
/// The archive is a dictionary `$version` = 100000, `$archiver` = "NSKeyedArchiver", `$top` (names
/// to UIDs) and `$objects`, whose object 0 is the string `$null`. Every `add` returns the new
/// object's UID; objects refer to each other with `.uid(…)` values. Class records are shared by
/// name and chain, as the archiver shares them. Nothing is checked: a test may build dangling UIDs,
/// cycles or wrong class chains on purpose.
///
/// ```swift
/// var archive = KeyedArchiveBuilder()
/// let post = archive.classRecord("Post", chain: ["Post", "NSObject"])
/// let title = archive.add("hi")
/// let root = archive.object(class: post, fields: ["title": .uid(title), "likes": 3])
/// archive.setTop("root", root)
/// let bytes = archive.binary()
/// ```
public struct KeyedArchiveBuilder: Sendable {
    /// The UID of the `$null` object, which every archive has at index 0.
    public static let null: UInt32 = 0

    /// `$objects` so far.
    public private(set) var objects: [PropertyListValue]
    /// `$top` entries in the order set.
    public private(set) var top = [PropertyListValue.Entry]()
    private var classRecords = [[String]: UInt32]()

    /// `capacity` reserves room for that many objects (for large benchmark archives).
    public init(capacity: Int = 0) {
        objects = ["$null"]
        objects.reserveCapacity(capacity + 1)
    }

    /// Appends any value to `$objects` and returns its UID.
    @discardableResult
    public mutating func add(_ value: PropertyListValue) -> UInt32 {
        objects.append(value)
        return UInt32(objects.count - 1)
    }

    /// Reserves a UID to fill later with `set(_:to:)`, so objects can refer to each other in cycles.
    public mutating func reserve() -> UInt32 {
        add(.null)
    }

    /// Replaces the object at `uid` (from `reserve()` or `add`).
    public mutating func set(_ uid: UInt32, to value: PropertyListValue) {
        objects[Int(uid)] = value
    }

    /// The UID of the class record `{ $classname: name, $classes: chain }`, added once per name and
    /// chain. `chain` defaults to Foundation's for the mutable collections, else `[name, "NSObject"]`.
    public mutating func classRecord(_ name: String, chain: [String]? = nil) -> UInt32 {
        let chain = chain ?? Self.defaultChain(name)
        let key = [name] + chain
        if let existing = classRecords[key] { return existing }
        let uid = add(.dictionary(["$classname": .string(name), "$classes": .array(chain.map(PropertyListValue.string))]))
        classRecords[key] = uid
        return uid
    }

    /// Adds an object of class record `classUID`: a dictionary of `$class` then `fields` in order.
    @discardableResult
    public mutating func object(class classUID: UInt32, fields: KeyValuePairs<String, PropertyListValue>) -> UInt32 {
        object(class: classUID, entries: fields.map { PropertyListValue.Entry(key: $0.key, value: $0.value) })
    }

    /// Adds an object of class record `classUID` with fields built at run time.
    @discardableResult
    public mutating func object(class classUID: UInt32, entries: [PropertyListValue.Entry]) -> UInt32 {
        var all = [PropertyListValue.Entry(key: "$class", value: .uid(classUID))]
        all.reserveCapacity(entries.count + 1)
        all.append(contentsOf: entries)
        return add(.dictionary(all))
    }

    /// Adds an `NSArray` (or `className`, e.g. "NSMutableArray", "NSSet") whose `NS.objects` are
    /// `elements`.
    @discardableResult
    public mutating func array(of elements: [UInt32], className: String = "NSArray", chain: [String]? = nil) -> UInt32 {
        let cls = classRecord(className, chain: chain)
        return object(class: cls, fields: ["NS.objects": .array(elements.map(PropertyListValue.uid))])
    }

    /// Adds an `NSDictionary` (or `className`) with `NS.keys` and `NS.objects`. The arrays are
    /// written as given, so unequal lengths make a malformed dictionary on purpose.
    @discardableResult
    public mutating func dictionary(keys: [UInt32], values: [UInt32], className: String = "NSDictionary",
                                    chain: [String]? = nil) -> UInt32 {
        let cls = classRecord(className, chain: chain)
        return object(class: cls, fields: ["NS.keys": .array(keys.map(PropertyListValue.uid)),
                                           "NS.objects": .array(values.map(PropertyListValue.uid))])
    }

    /// Sets `$top[key]` to `uid`, replacing an earlier value for the same key.
    public mutating func setTop(_ key: String, _ uid: UInt32) {
        if let index = top.firstIndex(where: { $0.key == key }) {
            top[index].value = .uid(uid)
        } else {
            top.append(PropertyListValue.Entry(key: key, value: .uid(uid)))
        }
    }

    /// The archive as a property-list value.
    public var value: PropertyListValue {
        .dictionary([
            "$version": 100_000,
            "$archiver": "NSKeyedArchiver",
            "$top": .dictionary(top),
            "$objects": .array(objects),
        ])
    }

    /// The archive as `bplist00` bytes.
    public func binary(options: BinaryPropertyListWriter.Options = .init()) -> [UInt8] {
        BinaryPropertyListWriter.write(value, options: options)
    }

    /// The superclass chains Foundation writes for its common collection classes.
    static func defaultChain(_ className: String) -> [String] {
        switch className {
        case "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"]
        case "NSMutableDictionary": ["NSMutableDictionary", "NSDictionary", "NSObject"]
        case "NSMutableSet": ["NSMutableSet", "NSSet", "NSObject"]
        case "NSMutableOrderedSet": ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]
        default: className == "NSObject" ? ["NSObject"] : [className, "NSObject"]
        }
    }
}
