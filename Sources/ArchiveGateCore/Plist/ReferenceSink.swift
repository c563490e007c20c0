/// Where the binary reader writes container references: straight into the reference table's own
/// uninitialized storage, sized once from the offset table's claims, so that a container's
/// references are written through one pointer — no `append` per reference or per container.
///
/// The claims are exact for every container that decodes (`BinaryObjectDecoder.claimedReferences`
/// accepts exactly what `decode` does), so a well-formed file fits the storage it was given. Only a
/// file whose offset table names the same container many times claims more than the object area
/// can hold; its table is capped there (as before), and once that storage is full the references
/// move to memory of the sink's own that grows by doubling, copied into an array at the end.
struct ReferenceSink {
    /// The storage being written: the table's, or (past it) the sink's own.
    private var base: UnsafeMutablePointer<UInt32>
    private var capacity: Int
    /// References written (and checked) so far.
    private(set) var count = 0
    /// Whether `base` is the sink's own memory (to be copied out and freed).
    private var ownsMemory = false

    /// A sink writing into `storage`, the table's uninitialized storage.
    init(storage: UnsafeMutableBufferPointer<UInt32>) {
        // An empty table may have no storage: any non-nil pointer does for zero writes.
        base = storage.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<UInt32>.alignment)!
        capacity = storage.count
    }

    /// Room for `entries` more references, to be filled completely before `commit(entries)`.
    @inline(__always)
    mutating func room(for entries: Int) -> UnsafeMutablePointer<UInt32> {
        if capacity - count < entries { grow(toHold: count + entries) }
        return base + count
    }

    /// Counts the `entries` references just written into `room(for:)`.
    @inline(__always)
    mutating func commit(_ entries: Int) { count += entries }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, 2 * capacity, 1024)
        let newBase = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        if ownsMemory { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsMemory = true
    }

    /// Ends the writing: the number of references initialized in the table's storage, or, when
    /// they outgrew it, nil and an array holding them all. Frees the sink's own memory.
    mutating func finish() -> (initializedInStorage: Int, moved: [UInt32]?) {
        guard ownsMemory else { return (count, nil) }
        let moved = Array(UnsafeBufferPointer(start: base, count: count))
        base.deallocate()
        ownsMemory = false
        return (0, moved)
    }
}
