/// Reads an `NSArchiver` typedstream into a `TypedStreamGraph`: flat (an explicit stack, no
/// recursion on input), every read bounds-checked, typed errors with the byte offset.
///
/// PLACEHOLDER until the reader lands on the `tsread` branch: every input is refused.
public enum TypedStreamReader {
    /// The graph of `bytes`, which must start with a typedstream header (`TypedStream.hasHeader`).
    public static func read(_ bytes: ByteStorage, limits: PropertyListLimits) throws(TypedStreamError) -> TypedStreamGraph {
        throw TypedStreamError(.invalidHeader, offset: 0, "the typedstream reader is not built yet")
    }
}
