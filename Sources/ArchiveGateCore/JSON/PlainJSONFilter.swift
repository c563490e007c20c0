/// The output switches forensic users ask for, applied to rendered compact plain JSON in one linear
/// pass: drop the `$class` member of custom objects (`--class-names drop`), and drop object members
/// whose value is `null` (`--nulls drop`; array elements stay, their positions mean something).
///
/// Safe on the renderer's output only: it expects well-formed compact JSON, where a user key can
/// never be `$class` (the archiver escapes user keys starting with `$` as `$$`). Iterative, so the
/// nesting depth costs no stack.
public struct PlainJSONFilter: Sendable {
    public var dropsClassNames: Bool
    public var dropsNulls: Bool

    public init(dropsClassNames: Bool = false, dropsNulls: Bool = false) {
        self.dropsClassNames = dropsClassNames
        self.dropsNulls = dropsNulls
    }

    /// True when the filter changes nothing.
    public var isIdentity: Bool { !dropsClassNames && !dropsNulls }

    /// `compact` with the dropped members removed, indented when `pretty`.
    public func apply(_ compact: [UInt8], pretty: Bool = false) -> [UInt8] {
        let filtered = isIdentity ? compact : filter(compact)
        return pretty ? JSONPrettyPrinter.format(filtered) : filtered
    }

    /// The whole document through `PlainJSONFilterStream` (the one implementation of the
    /// switches), fed once and finished.
    private func filter(_ input: [UInt8]) -> [UInt8] {
        var stream = PlainJSONFilterStream(filter: self)
        var output = [UInt8]()
        input.withUnsafeBufferPointer { stream.feed($0, into: &output) }
        stream.finish(into: &output)
        return output
    }
}
