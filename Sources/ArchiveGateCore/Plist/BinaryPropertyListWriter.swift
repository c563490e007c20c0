/// Writes a `PropertyListValue` as `bplist00`, byte for byte the way CoreFoundation does.
///
/// Layout: the `bplist00` header, the objects, the offset table, and the 32-byte trailer. Objects
/// are numbered the way CoreFoundation's `_flattenPlist` numbers them: depth first, a container
/// before its children, a dictionary's keys before its values; the top object is object 0. Offset
/// and reference sizes are the smallest of 1, 2, 4 or 8 bytes that hold the offset table's position
/// and the object count. With `uniqueScalars`, equal strings, numbers, dates and data (and booleans)
/// are written once and shared, as Apple does; containers and UIDs are written at every occurrence.
/// Unlike CoreFoundation, values that differ in bits are never merged (`0.0` and `-0.0`, `1` and
/// `1.0`), and no orphan copies of shared booleans are written.
///
/// The walk uses an explicit stack, so deeply nested values cannot overflow the call stack, and
/// uniquing is hash based, so large archives are written in linear time.
public struct BinaryPropertyListWriter {
    /// Choices that change the bytes written. The defaults match Apple's writer.
    public struct Options: Hashable, Sendable {
        /// Share one object among equal strings, integers, reals, dates, data and booleans (as
        /// Apple does). Off, every occurrence becomes its own object, dictionary keys included.
        /// Strings are equal only when their code units are; reals and dates when their bits are.
        public var uniqueScalars: Bool
        /// Width of object references in containers (1…8), or nil for Apple's choice (1, 2, 4 or 8).
        /// Narrower than the object count needs writes a broken plist on purpose: high bytes are dropped.
        public var referenceSize: Int?
        /// Width of offset-table entries (1…8), or nil for Apple's choice (1, 2, 4 or 8).
        public var offsetSize: Int?

        public init(uniqueScalars: Bool = true, referenceSize: Int? = nil, offsetSize: Int? = nil) {
            precondition(referenceSize.map { (1 ... 8).contains($0) } ?? true, "referenceSize must be 1…8")
            precondition(offsetSize.map { (1 ... 8).contains($0) } ?? true, "offsetSize must be 1…8")
            self.uniqueScalars = uniqueScalars
            self.referenceSize = referenceSize
            self.offsetSize = offsetSize
        }
    }

    static let header: [UInt8] = Array("bplist00".utf8)

    /// Encodes `value` as a complete binary property list.
    public static func write(_ value: PropertyListValue, options: Options = .init()) -> [UInt8] {
        // Unbounded: the meter never refuses, so the empty fallback is never taken.
        (try? write(value, options: options, bound: .unlimited)) ?? []
    }

    /// Encodes `value`, asking `bound` as the output grows (before each scalar is appended and at
    /// least every `OutputBound.step` bytes): a refused output stops there, unfinished and dropped.
    public static func write(_ value: PropertyListValue, options: Options = .init(),
                             bound: OutputBound) throws(OutputBoundExceeded) -> [UInt8] {
        var table = ObjectTable(uniqueScalars: options.uniqueScalars)
        table.flatten(value)

        let objectCount = table.objects.count
        let referenceSize = options.referenceSize ?? byteCount(UInt64(objectCount))
        var output = [UInt8]()
        output.reserveCapacity(min(bound.maxBytes, header.count + table.estimatedBytes + table.references.count * referenceSize
            + objectCount * 9 + 32))
        output.append(contentsOf: header)

        var meter = OutputMeter(bound)
        var offsets = [Int]()
        offsets.reserveCapacity(objectCount)
        for object in table.objects {
            offsets.append(output.count)
            switch object {
            case .scalar(let scalar):
                try meter.grew(to: output.count + estimatedSize(of: scalar))
                appendScalar(scalar, to: &output)
            case .container(let type, let referenceStart, let elementCount):
                appendHeader(type, count: UInt64(elementCount), to: &output)
                let referenceCount = type == Marker.dictionary ? 2 * elementCount : elementCount
                try meter.grew(to: output.count + referenceCount * referenceSize)
                for reference in table.references[referenceStart ..< referenceStart + referenceCount] {
                    appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
                }
            }
        }

        let tableOffset = output.count
        let offsetSize = options.offsetSize ?? byteCount(UInt64(tableOffset))
        for offset in offsets {
            appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        appendTrailer(offsetSize: UInt8(offsetSize), referenceSize: UInt8(referenceSize),
                      objectCount: UInt64(objectCount), topObject: 0, offsetTableOffset: UInt64(tableOffset),
                      to: &output)
        try meter.finish(output.count)
        return output
    }
}

// MARK: - Flattening

/// The objects of a tree in file order, with container references resolved to object numbers.
private struct ObjectTable {
    enum Object {
        case scalar(PropertyListValue)
        /// `type` is the high-nibble marker; the references are `references[referenceStart...]`,
        /// one per element, or for a dictionary every key then every value.
        case container(type: UInt8, referenceStart: Int, elementCount: Int)
    }

    /// A container whose children are being numbered; `next` is the next child slot to fill.
    struct Frame {
        /// The elements of an array or set (empty for a dictionary).
        var elements: [PropertyListValue]
        /// The entries of a dictionary (empty otherwise).
        var entries: [PropertyListValue.Entry]
        var referenceStart: Int
        var referenceCount: Int
        var next = 0

        /// Child `slot` in file order: elements, or a dictionary's keys then its values.
        func child(_ slot: Int) -> PropertyListValue {
            if slot < elements.count { return elements[slot] }
            return slot < entries.count ? .string(entries[slot].key) : entries[slot - entries.count].value
        }
    }

    let uniqueScalars: Bool
    var objects = [Object]()
    var references = [Int]()
    var unique = [ScalarKey: Int]()
    /// Bytes the scalars and container headers need, to reserve the output once.
    var estimatedBytes = 0

    init(uniqueScalars: Bool) {
        self.uniqueScalars = uniqueScalars
    }

    /// Numbers `root` and everything below it, depth first, without recursion.
    mutating func flatten(_ root: PropertyListValue) {
        var stack = [Frame]()
        _ = visit(root, stack: &stack)
        while let top = stack.indices.last {
            let slot = stack[top].next
            guard slot < stack[top].referenceCount else {
                stack.removeLast()
                continue
            }
            stack[top].next += 1
            let child = stack[top].child(slot)
            let referenceIndex = stack[top].referenceStart + slot
            references[referenceIndex] = visit(child, stack: &stack)
        }
    }

    /// Returns the object number of `value`: a shared scalar, a new scalar, or a new container
    /// whose children are numbered next (its frame is pushed).
    private mutating func visit(_ value: PropertyListValue, stack: inout [Frame]) -> Int {
        var frame = Frame(elements: [], entries: [], referenceStart: references.count, referenceCount: 0)
        let type: UInt8
        switch value {
        case .array(let elements):
            type = BinaryPropertyListWriter.Marker.array
            frame.elements = elements
            frame.referenceCount = elements.count
        case .set(let elements):
            type = BinaryPropertyListWriter.Marker.set
            frame.elements = elements
            frame.referenceCount = elements.count
        case .dictionary(let entries):
            type = BinaryPropertyListWriter.Marker.dictionary
            frame.entries = entries
            frame.referenceCount = 2 * entries.count
        default:
            return scalar(value)
        }
        let index = objects.count
        let elementCount = type == BinaryPropertyListWriter.Marker.dictionary ? frame.entries.count : frame.elements.count
        references.append(contentsOf: repeatElement(0, count: frame.referenceCount))
        objects.append(.container(type: type, referenceStart: frame.referenceStart, elementCount: elementCount))
        estimatedBytes += 10
        stack.append(frame)
        return index
    }

    private mutating func scalar(_ value: PropertyListValue) -> Int {
        let shared: Bool
        switch value {
        case .uid, .null: shared = false
        default: shared = uniqueScalars
        }
        if shared {
            let key = ScalarKey(value: value)
            if let existing = unique[key] { return existing }
            unique[key] = objects.count
        }
        estimatedBytes += BinaryPropertyListWriter.estimatedSize(of: value)
        objects.append(.scalar(value))
        return objects.count - 1
    }
}

/// A scalar compared the way the file would spell it: strings by code units (not by Swift's
/// canonical equivalence), reals and dates by bit pattern (so 0.0 and -0.0 stay apart).
/// The hash is computed once, so growing the table does not rehash long strings.
private struct ScalarKey: Hashable {
    let value: PropertyListValue
    let hash: Int

    init(value: PropertyListValue) {
        self.value = value
        var hasher = Hasher()
        switch value {
        case .string(var string):
            hasher.combine(0 as UInt8)
            string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .real(let real):
            hasher.combine(1 as UInt8)
            hasher.combine(real.bitPattern)
        case .date(let date):
            hasher.combine(2 as UInt8)
            hasher.combine(date.bitPattern)
        default:
            hasher.combine(value)
        }
        hash = hasher.finalize()
    }

    static func == (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
        guard lhs.hash == rhs.hash else { return false }
        switch (lhs.value, rhs.value) {
        case (.string(var left), .string(var right)):
            // The same storage (a string shared by many sites, `CanonicalArchiveWriter`) is equal
            // without reading a megabyte per reference.
            return left.withUTF8 { leftBytes in
                right.withUTF8 { rightBytes in
                    leftBytes.count == rightBytes.count
                        && (leftBytes.baseAddress == rightBytes.baseAddress || leftBytes.elementsEqual(rightBytes))
                }
            }
        case let (.real(left), .real(right)), let (.date(left), .date(right)):
            return left.bitPattern == right.bitPattern
        case (.string, _), (.real, _), (.date, _):
            return false
        default:
            return lhs.value == rhs.value
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
