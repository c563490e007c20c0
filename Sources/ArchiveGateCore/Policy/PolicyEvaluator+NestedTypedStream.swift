extension PolicyEvaluator {
    /// The keyed archive an `NSArchiver` typedstream inside NSData lowers to (issue 35), read under
    /// the nested `limits`: it is then evaluated and rendered in place like a nested keyed archive.
    /// A typedstream that cannot be read stays data, as bytes that are no property list do; only
    /// the object limit is an error, because nested archives share it with the outer one.
    func nestedTypedStream(_ bytes: Slice<ByteStorage>, limits: DecodeLimits, path: String) throws(ArchiveError) -> KeyedArchive? {
        do {
            let graph = try TypedStreamReader.read(ByteStorage(Array(bytes)), limits: limits.propertyList)
            return try TypedStreamLowering.keyedArchive(from: graph, maxObjects: limits.maxObjects).archive
        } catch {
            guard error.code == .objectLimitExceeded else { return nil }
            throw ArchiveError(.objectLimitExceeded, path: path, "nested archives hold more objects than the limit of \(policy.limits.maxObjects)")
        }
    }
}
