/// Lowers a typedstream's objects into the keyed-archive model the policy and the renderers use:
/// each object becomes the keyed object Foundation's `NSKeyedArchiver` writes for its class (an
/// NSString's `NS.string`, an NSAttributedString's `NSString`/`NSAttributes`/`NSAttributeInfo` …),
/// with the class chain the stream names; an object of another class, or one whose groups do not
/// match its class's layout (`TypedStreamLayout`), keeps its positional values under the field
/// keys `"0"`, `"1"`, … — so the shape check flags a mis-shaped Foundation object exactly as in a
/// keyed archive, and inspection mode shows the values.
///
/// The archive is built as a property list (`KeyedArchiveBuilder`), written as `bplist00` and read
/// back with `PropertyList.read` and `KeyedArchive(plist:maxObjects:)`, so it is checked exactly
/// as a keyed archive from outside is. The top-level values are `$top` entries `root`, `1`, `2` …
/// (each a reference: a scalar is an `$objects` entry, as NSKeyedArchiver writes a root number).
public enum TypedStreamLowering {
    /// The keyed archive for `graph`, and the UID each stream object became (`uids[i]` for
    /// `graph.objects[i]`). More than `maxObjects` entries in `$objects` (as `KeyedArchive` counts them:
    /// `$null`, the objects, the class records) is `typedstream.object_limit_exceeded`.
    public static func keyedArchive(from graph: TypedStreamGraph, maxObjects: Int) throws(TypedStreamError) -> (archive: KeyedArchive, uids: [Int]) {
        guard graph.objects.count <= maxObjects else {
            throw TypedStreamError(.objectLimitExceeded, offset: 0,
                                   "\(graph.objects.count) objects exceed the limit of \(maxObjects)")
        }
        let (value, uids) = keyedArchiveValue(from: graph)
        let entries = if case .dictionary(let root) = value, case .array(let objects)? = root.first(where: { $0.key == "$objects" })?.value {
            objects.count
        } else { 0 }
        guard entries <= maxObjects else {
            throw TypedStreamError(.objectLimitExceeded, offset: 0,
                                   "the stream's \(graph.objects.count) objects become \(entries) $objects entries, beyond the limit of \(maxObjects)")
        }
        let bytes = BinaryPropertyListWriter.write(value)
        // The reader's limits already bound every string and data; the plist's are not re-applied.
        let limits = PropertyListLimits(maxInputBytes: .max, maxObjects: .max, maxStringBytes: .max, maxDataBytes: .max)
        do {
            let plist = try PropertyList.read(bytes, limits: limits)
            let archive = try KeyedArchive(plist: plist, maxObjects: maxObjects)
            return (archive, uids.map(Int.init))
        } catch {
            // Built by construction as NSKeyedArchiver writes; a failure here is a lowering bug,
            // reported rather than trapped on.
            throw TypedStreamError(.unexpectedTag, offset: 0, "the lowered keyed archive does not read back: \(error)")
        }
    }

    /// The keyed archive for `graph` as a property-list value (what `keyedArchive` writes and
    /// reads back), and the UID of each stream object.
    static func keyedArchiveValue(from graph: TypedStreamGraph) -> (value: PropertyListValue, uids: [UInt32]) {
        var lowerer = TypedStreamLowerer(graph: graph)
        let top = lowerer.lower()
        let value = PropertyListValue.dictionary([
            "$version": 100_000,
            "$archiver": "NSKeyedArchiver",
            "$top": .dictionary(top),
            "$objects": .array(lowerer.builder.objects),
        ])
        return (value, lowerer.uids)
    }
}

/// The state of one lowering: the builder, the UID of each stream object and of each class chain.
struct TypedStreamLowerer {
    let graph: TypedStreamGraph
    var builder = KeyedArchiveBuilder()
    /// The UID of each stream object, reserved up front so references need no recursion.
    private(set) var uids: [UInt32] = []
    private var classRecordUIDs: [Int: UInt32] = [:]

    init(graph: TypedStreamGraph) {
        self.graph = graph
        builder = KeyedArchiveBuilder(capacity: graph.objects.count + graph.classes.count)
    }

    /// Lowers every object, then returns the `$top` entries.
    mutating func lower() -> [PropertyListValue.Entry] {
        uids = graph.objects.map { _ in builder.reserve() }
        for index in graph.objects.indices {
            builder.set(uids[index], to: lowered(graph.objects[index]))
        }
        // Every top-level value its own entry (arrays spread too: `$top` holds no containers), a
        // scalar as an `$objects` entry by reference, as NSKeyedArchiver writes a root number.
        var values = [TypedStreamValue]()
        for value in Self.flattened(graph.top.flatMap(\.values)) {
            if case .array(let elements) = value { values += elements } else { values.append(value) }
        }
        var top = [PropertyListValue.Entry]()
        for value in values {
            var lowered = plistValue(value)
            if case .uid = lowered {} else { lowered = .uid(builder.add(lowered)) }
            top.append(PropertyListValue.Entry(key: top.isEmpty ? "root" : String(top.count), value: lowered))
        }
        return top
    }

    /// The keyed form of `object`: its class's layout, or its positional values.
    private mutating func lowered(_ object: TypedStreamObject) -> PropertyListValue {
        let name = className(object.classIndex)
        if let layout = TypedStreamLayout.of(className: name) {
            var cursor = TypedStreamGroupCursor(object.groups)
            if let value = lowered(layout, &cursor, classIndex: object.classIndex), cursor.isAtEnd { return value }
        }
        return generic(object)
    }

    private mutating func lowered(_ layout: TypedStreamLayout, _ cursor: inout TypedStreamGroupCursor, classIndex: Int) -> PropertyListValue? {
        // An NSNumber is an inline scalar; every other layout an instance with fields.
        if case .number = layout { return number(&cursor) }
        let fields: [PropertyListValue.Entry]? = switch layout {
        case .number: nil
        case .string: string(&cursor)
        case .attributedString: attributedString(&cursor)
        case .dictionary: dictionary(&cursor)
        case .array: array(&cursor)
        case .data: data(&cursor)
        case .date: date(&cursor)
        case .url: url(&cursor)
        case .null: []
        case .color: color(&cursor)
        case .font: font(&cursor)
        case .value: value(&cursor)
        }
        return fields.map { instance(classIndex, $0) }
    }

    /// An instance dictionary: `$class` (the class's record) and `fields`.
    mutating func instance(_ classIndex: Int, _ fields: [PropertyListValue.Entry]) -> PropertyListValue {
        .dictionary([PropertyListValue.Entry(key: "$class", value: .uid(classRecord(classIndex)))] + fields)
    }

    /// The generic form: every positional value under `"0"`, `"1"`, …
    private mutating func generic(_ object: TypedStreamObject) -> PropertyListValue {
        let fields = Self.flattened(object.groups.flatMap(\.values)).enumerated().map { position, value in
            PropertyListValue.Entry(key: String(position), value: plistValue(value))
        }
        return instance(object.classIndex, fields)
    }

    func className(_ classIndex: Int) -> String {
        graph.classes.indices.contains(classIndex) ? graph.classes[classIndex].name : "?"
    }

    /// The class record for `classIndex`, `$classes` from its superclass chain (cut where it would loop).
    private mutating func classRecord(_ classIndex: Int) -> UInt32 {
        if let uid = classRecordUIDs[classIndex] { return uid }
        var chain = [String]()
        var seen = Set<Int>()
        var next: Int? = classIndex
        while let current = next, graph.classes.indices.contains(current), seen.insert(current).inserted {
            chain.append(graph.classes[current].name)
            next = graph.classes[current].superclass
        }
        let uid = builder.classRecord(className(classIndex), chain: chain.isEmpty ? [className(classIndex)] : chain)
        classRecordUIDs[classIndex] = uid
        return uid
    }

    /// The UID of stream object `index`; nil (`$null`) is UID 0.
    func uid(_ index: Int?) -> UInt32 {
        guard let index, uids.indices.contains(index) else { return KeyedArchiveBuilder.null }
        return uids[index]
    }

    /// One flattened positional value as a field value: numbers and text inline, objects by UID,
    /// bytes as data, a class by its name, NULL pointers as `$null`.
    func plistValue(_ value: TypedStreamValue) -> PropertyListValue {
        switch value {
        case .signed(let number): .integer(Int128(number))
        case .unsigned(let number): .integer(Int128(number))
        case .float(let number): .real(Double(number))
        case .double(let number): .real(number)
        case .cString(let bytes), .selector(let bytes): bytes.map(Self.text) ?? .uid(KeyedArchiveBuilder.null)
        case .bytes(let bytes), .byteArray(let bytes): .data(bytes)
        case .object(let index): .uid(uid(index))
        case .classReference(let index): index.map { .string(className($0)) } ?? .uid(KeyedArchiveBuilder.null)
        case .array(let elements): .array(elements.map(plistValue))
        // `flattened` leaves no structures; kept total for safety.
        case .structure(_, let fields): .array(fields.map(plistValue))
        }
    }

    /// UTF-8 text as a string, other bytes as data.
    static func text(_ bytes: [UInt8]) -> PropertyListValue {
        String(validating: bytes, as: UTF8.self).map(PropertyListValue.string) ?? .data(bytes)
    }

    /// The values with structures and arrays of containers spread out in order (an explicit stack,
    /// no recursion), so that every field is a scalar, a reference or an array of those — the
    /// forms a keyed archive's fields may take, and where the policy walk finds every reference.
    static func flattened(_ values: [TypedStreamValue]) -> [TypedStreamValue] {
        var result = [TypedStreamValue]()
        var stack = Array(values.reversed())
        while let value = stack.popLast() {
            switch value {
            case .structure(_, let fields):
                stack.append(contentsOf: fields.reversed())
            case .array(let elements) where elements.contains(where: \.isContainer):
                stack.append(contentsOf: elements.reversed())
            default:
                result.append(value)
            }
        }
        return result
    }
}

extension TypedStreamValue {
    /// An array or a structure.
    var isContainer: Bool {
        switch self {
        case .array, .structure: true
        default: false
        }
    }

    /// A signed or unsigned integer that fits `Int64`.
    var integer: Int64? {
        switch self {
        case .signed(let value): value
        case .unsigned(let value): Int64(exactly: value)
        default: nil
        }
    }
}

/// Reads an object's groups in order for a class layout.
struct TypedStreamGroupCursor {
    private let groups: [TypedStreamGroup]
    private var position = 0

    init(_ groups: [TypedStreamGroup]) { self.groups = groups }

    var isAtEnd: Bool { position == groups.count }

    /// The next group's single value, when the group has encoding `encoding` and one value.
    mutating func single(_ encoding: String) -> TypedStreamValue? {
        guard position < groups.count, groups[position].encoding == encoding, groups[position].values.count == 1 else { return nil }
        position += 1
        return groups[position - 1].values[0]
    }

    /// The next group's values, when its encoding is `encoding`.
    mutating func group(_ encoding: String) -> [TypedStreamValue]? {
        guard position < groups.count, groups[position].encoding == encoding else { return nil }
        position += 1
        return groups[position - 1].values
    }

    /// The next group's single integer value, whatever its integer encoding.
    mutating func integer() -> Int64? {
        guard position < groups.count, groups[position].values.count == 1, let value = groups[position].values[0].integer else { return nil }
        position += 1
        return value
    }

    /// Every remaining group's values, in order (a writer may put several values in one group).
    mutating func rest() -> [TypedStreamValue] {
        defer { position = groups.count }
        return groups[position...].flatMap(\.values)
    }

    /// The remaining values when every one is an object reference (nil for NULL).
    mutating func restObjects() -> [Int?]? {
        var objects = [Int?]()
        for value in rest() {
            guard case .object(let index) = value else { return nil }
            objects.append(index)
        }
        return objects
    }
}
