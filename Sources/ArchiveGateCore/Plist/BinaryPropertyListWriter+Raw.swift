extension BinaryPropertyListWriter {
    /// Builds a `bplist00` object by object with nothing checked, for hostile-input tests.
    ///
    /// Objects are numbered in the order they are appended (from 0); container references are
    /// plain numbers, so they may point forward, at the container itself, or past the end. `bytes`
    /// lays out the offset table and trailer consistently, and lets a test override any of it:
    ///
    /// ```swift
    /// RawBuilder(objects: [[0xA1, 0x00]]).bytes()                   // an array containing itself
    /// RawBuilder(objects: [[0x08]]).bytes { $0.referenceSize = 0 }  // an invalid trailer
    /// var raw = RawBuilder()
    /// raw.dictionary(keys: [1], values: [1]); raw.append(7)          // an integer key
    /// ```
    public struct RawBuilder: Sendable {
        /// The parts of the file around the objects. Trailer fields left nil are made consistent
        /// with the objects and the offset table as written.
        public struct Layout: Hashable, Sendable {
            /// The first bytes of the file; `bplist00` unless changed.
            public var header: [UInt8]
            /// The offset-table entries; by default where each object starts.
            public var offsets: [UInt64]
            /// How many bytes each offset-table entry is written with (0…8, high bytes dropped).
            public var offsetEntrySize: Int
            /// Trailer: offset size. Default `offsetEntrySize`.
            public var offsetSize: UInt8?
            /// Trailer: object-reference size. Default the builder's `referenceSize`.
            public var referenceSize: UInt8?
            /// Trailer: object count. Default `offsets.count`.
            public var objectCount: UInt64?
            /// Trailer: top object. Default 0.
            public var topObject: UInt64
            /// Trailer: where the offset table starts. Default where it is written.
            public var offsetTableOffset: UInt64?
            /// Trailer: the sort-version byte (Apple writes 0).
            public var sortVersion: UInt8
        }

        /// Bytes per reference written by `array`, `set` and `dictionary` (0…8, high bytes dropped),
        /// and the trailer's reference size unless the layout overrides it.
        public var referenceSize: Int
        /// The object area so far, without the header.
        public private(set) var objectBytes = [UInt8]()
        /// Where each appended object starts in the file.
        public private(set) var objectOffsets = [UInt64]()

        public init(referenceSize: Int = 1) {
            self.referenceSize = referenceSize
        }

        /// A builder holding the given raw objects, numbered 0, 1, ….
        public init(objects: [[UInt8]], referenceSize: Int = 1) {
            self.init(referenceSize: referenceSize)
            for object in objects { append(raw: object) }
        }

        /// The number the next appended object will get.
        public var nextObject: UInt64 { UInt64(objectOffsets.count) }

        /// Appends one object given as its exact bytes (marker included); returns its number.
        @discardableResult
        public mutating func append(raw bytes: [UInt8]) -> UInt64 {
            objectOffsets.append(UInt64(BinaryPropertyListWriter.header.count + objectBytes.count))
            objectBytes.append(contentsOf: bytes)
            return UInt64(objectOffsets.count - 1)
        }

        /// Appends a non-container value encoded as the writer would; returns its number.
        @discardableResult
        public mutating func append(_ value: PropertyListValue) -> UInt64 {
            precondition(!value.isContainer, "append containers with array(_:), set(_:) or dictionary(keys:values:)")
            var bytes = [UInt8]()
            BinaryPropertyListWriter.appendScalar(value, to: &bytes)
            return append(raw: bytes)
        }

        /// Appends an array (marker 0xA) of the given references; returns its number.
        @discardableResult
        public mutating func array(_ references: [UInt64]) -> UInt64 {
            append(raw: Self.container(Marker.array, count: UInt64(references.count), references, referenceSize: referenceSize))
        }

        /// Appends a set (marker 0xC) of the given references; returns its number.
        @discardableResult
        public mutating func set(_ references: [UInt64]) -> UInt64 {
            append(raw: Self.container(Marker.set, count: UInt64(references.count), references, referenceSize: referenceSize))
        }

        /// Appends a dictionary (marker 0xD) whose count is `keys.count`, followed by the key and
        /// value references as given (unequal lengths make a dictionary that lies about its size).
        @discardableResult
        public mutating func dictionary(keys: [UInt64], values: [UInt64]) -> UInt64 {
            append(raw: Self.container(Marker.dictionary, count: UInt64(keys.count), keys + values, referenceSize: referenceSize))
        }

        /// A marker and its count: the count in the low nibble below 15, else nibble 0xF followed
        /// by an integer object, e.g. `header(0x50, count: 1 << 40)` for an absurd ASCII length.
        public static func header(_ type: UInt8, count: UInt64) -> [UInt8] {
            var bytes = [UInt8]()
            BinaryPropertyListWriter.appendHeader(type, count: count, to: &bytes)
            return bytes
        }

        /// `value` as `size` big-endian bytes (high bytes dropped), for hand-made payloads.
        public static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
            var bytes = [UInt8]()
            BinaryPropertyListWriter.appendBigEndian(value, size: size, to: &bytes)
            return bytes
        }

        /// A container's marker, count and references, each reference `referenceSize` bytes wide.
        public static func container(_ type: UInt8, count: UInt64, _ references: [UInt64], referenceSize: Int) -> [UInt8] {
            var bytes = header(type, count: count)
            for reference in references {
                BinaryPropertyListWriter.appendBigEndian(reference, size: referenceSize, to: &bytes)
            }
            return bytes
        }

        /// The layout `bytes` uses unless adjusted: Apple's choices for what has been appended.
        public var defaultLayout: Layout {
            let tableOffset = UInt64(BinaryPropertyListWriter.header.count + objectBytes.count)
            return Layout(header: BinaryPropertyListWriter.header, offsets: objectOffsets,
                          offsetEntrySize: BinaryPropertyListWriter.byteCount(tableOffset),
                          offsetSize: nil, referenceSize: nil, objectCount: nil, topObject: 0,
                          offsetTableOffset: nil, sortVersion: 0)
        }

        /// The whole file: header, objects, offset table and trailer, after `adjust` has changed
        /// whatever the test wants wrong, e.g. `bytes { $0.objectCount = 1 << 40 }`.
        public func bytes(_ adjust: (inout Layout) -> Void = { _ in }) -> [UInt8] {
            var layout = defaultLayout
            adjust(&layout)
            var output = layout.header
            output.append(contentsOf: objectBytes)
            let tableOffset = UInt64(output.count)
            for offset in layout.offsets {
                BinaryPropertyListWriter.appendBigEndian(offset, size: layout.offsetEntrySize, to: &output)
            }
            BinaryPropertyListWriter.appendTrailer(
                offsetSize: layout.offsetSize ?? UInt8(truncatingIfNeeded: layout.offsetEntrySize),
                referenceSize: layout.referenceSize ?? UInt8(truncatingIfNeeded: referenceSize),
                objectCount: layout.objectCount ?? UInt64(layout.offsets.count),
                topObject: layout.topObject,
                offsetTableOffset: layout.offsetTableOffset ?? tableOffset,
                sortVersion: layout.sortVersion, to: &output)
            return output
        }
    }
}
