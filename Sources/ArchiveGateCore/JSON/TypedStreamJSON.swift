/// The lossless typed JSON of a typedstream (`--mode typed`): header, classes with versions and
/// superclasses, objects with their groups' type encodings and values, references as indexes.
///
/// PLACEHOLDER until the renderer lands on the `tsread` branch.
public enum TypedStreamJSON {
    /// The document for `graph`; objects in `redacted` (stream object indexes) are written as
    /// `{"$redacted": …}` without their contents. The output byte budget of `limits` applies.
    public static func render(_ graph: TypedStreamGraph, redacted: Set<Int>, limits: DecodeLimits) throws(ArchiveError) -> [UInt8] {
        throw ArchiveError(.typedstreamNotSupported, path: "", "the typedstream JSON renderer is not built yet")
    }
}
