/// Lowers a typedstream's objects into the keyed-archive model the policy and the renderers use:
/// each object becomes the keyed object Foundation's `NSKeyedArchiver` writes for its class (an
/// NSString's `NS.string`, an NSAttributedString's `NSString`/`NSAttributes`/`NSAttributeInfo` …),
/// with the class chain the stream names; an object of another class keeps its positional values.
///
/// PLACEHOLDER until the lowering lands on the `tslower` branch.
public enum TypedStreamLowering {
    /// The keyed archive for `graph`, and the UID each stream object became.
    public static func keyedArchive(from graph: TypedStreamGraph, maxObjects: Int) throws(TypedStreamError) -> (archive: KeyedArchive, uids: [Int]) {
        throw TypedStreamError(.invalidHeader, offset: 0, "typedstream lowering is not built yet")
    }
}
