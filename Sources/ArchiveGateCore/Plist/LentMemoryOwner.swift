/// The owner of memory lent to a `ByteStorage` (`init(lending:owner:)`) that can give pages back
/// when told that a range will not be read again soon — a read-only file mapping drops them from
/// the process (they are read from the page cache again if touched), which lowers peak RSS.
///
/// The bytes must stay readable and unchanged whatever this does: it is a residency hint.
public protocol LentMemoryOwner: AnyObject {
    /// Gives back the resident pages of its memory that lie wholly inside `region` (ignoring any
    /// part of `region` it does not own).
    func discardResidentPages(in region: UnsafeRawBufferPointer)
}
