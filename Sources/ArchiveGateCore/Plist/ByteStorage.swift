/// The bytes a property list is read from and its strings and data point into: an array, or
/// memory the caller lends (a mapped file) for as long as its owner lives.
///
/// A binary property list keeps the input itself as its storage, so a mapped file is decoded
/// without ever being copied. Element access is bounds-checked in both forms (a lent buffer traps
/// on an out-of-range index as an array does); the readers' own checks come first and report
/// typed errors, this is the backstop.
public struct ByteStorage: RandomAccessCollection, Equatable, Sendable {
    private enum Backing: @unchecked Sendable {
        case array([UInt8])
        // The owner keeps the memory valid; nothing writes to it while a ByteStorage exists.
        case lent(UnsafeBufferPointer<UInt8>, owner: AnyObject)
    }

    private let backing: Backing

    /// Storage that holds `bytes` (no copy: arrays are shared).
    public init(_ bytes: [UInt8]) {
        backing = .array(bytes)
    }

    /// Storage over memory that stays valid and unchanged for as long as `owner` is alive.
    public init(lending buffer: UnsafeBufferPointer<UInt8>, owner: AnyObject) {
        backing = .lent(buffer, owner: owner)
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch backing {
        case .array(let bytes): bytes.count
        case .lent(let buffer, _): buffer.count
        }
    }

    @inlinable
    public func index(after position: Int) -> Int { position + 1 }

    @inlinable
    public func index(before position: Int) -> Int { position - 1 }

    public subscript(position: Int) -> UInt8 {
        switch backing {
        case .array(let bytes):
            return bytes[position]
        case .lent(let buffer, _):
            precondition(position >= 0 && position < buffer.count, "ByteStorage index out of range")
            return buffer[position]
        }
    }

    /// Calls `body` with the bytes as one contiguous buffer, valid only during the call.
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch backing {
        case .array(let bytes):
            return try bytes.withUnsafeBufferPointer(body)
        case .lent(let buffer, let owner):
            defer { withExtendedLifetime(owner) {} }
            return try body(buffer)
        }
    }

    /// The bytes as an array: no copy for array storage, one copy for lent memory.
    public var array: [UInt8] {
        switch backing {
        case .array(let bytes): bytes
        case .lent(let buffer, let owner): withExtendedLifetime(owner) { Array(buffer) }
        }
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
