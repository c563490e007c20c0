/// The bytes a property list is read from and its strings and data point into: an array, or
/// memory the caller lends (a mapped file) for as long as its owner lives.
///
/// A binary property list keeps the input itself as its storage, so a mapped file is decoded
/// without ever being copied. Element access is bounds-checked in both forms (a lent buffer traps
/// on an out-of-range index as an array does); the readers' own checks come first and report
/// typed errors, this is the backstop.
public struct ByteStorage: RandomAccessCollection, Equatable, @unchecked Sendable {
    // Separate stored properties, not an enum with payloads: reading a byte must not retain and
    // release the array or the owner (a payload binding does, per access, in the hot loops).
    /// The bytes when they are an array (empty when lent).
    private let array: [UInt8]
    /// The lent memory, or nil for an array.
    private let lent: UnsafeBufferPointer<UInt8>?
    /// Keeps `lent` valid; nothing writes to that memory while a ByteStorage exists.
    private let owner: AnyObject?

    /// Storage that holds `bytes` (no copy: arrays are shared).
    public init(_ bytes: [UInt8]) {
        array = bytes
        lent = nil
        owner = nil
    }

    /// Storage over memory that stays valid and unchanged for as long as `owner` is alive.
    public init(lending buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject) {
        array = []
        lent = buffer
        self.owner = owner
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int { lent?.count ?? array.count }

    @inlinable
    public func index(after position: Int) -> Int { position + 1 }

    @inlinable
    public func index(before position: Int) -> Int { position - 1 }

    public subscript(position: Int) -> UInt8 {
        if let lent {
            precondition(position >= 0 && position < lent.count, "ByteStorage index out of range")
            return lent[position]
        }
        return array[position]
    }

    /// Calls `body` with the bytes as one contiguous buffer, valid only during the call.
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if let lent {
            defer { withExtendedLifetime(owner) {} }
            return try body(lent)
        }
        return try array.withUnsafeBufferPointer(body)
    }

    /// Tells the owner of lent memory that `range` is done with for now, so that it may give
    /// those pages back (a mapped file drops them; a later read maps them from the page cache
    /// again: peak RSS). A hint only: the bytes stay readable and unchanged. Does nothing for
    /// arrays and other owners.
    public func discardResidentPages(_ range: Range<Int>) {
        guard let lent, let owner = owner as? LentMemoryOwner, range.lowerBound >= 0, range.upperBound <= lent.count else { return }
        owner.discardResidentPages(in: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(lent)[range]))
    }

    /// The bytes as an array: no copy for array storage, one copy for lent memory.
    public var arrayCopy: [UInt8] {
        guard let lent else { return array }
        return withExtendedLifetime(owner) { Array(lent) }
    }
}

extension ByteStorage {
    /// Equal when the bytes are equal, whatever holds them.
    public static func == (lhs: ByteStorage, rhs: ByteStorage) -> Bool {
        lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in left.elementsEqual(right) } }
    }
}

extension Slice where Base == ByteStorage {
    /// Calls `body` with the slice's bytes as one contiguous buffer, valid only during the call.
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let range = startIndex ..< endIndex
        return try base.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            try body(UnsafeBufferPointer(rebasing: buffer[range]))
        }
    }
}
