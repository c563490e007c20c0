/// Writes a small JSON document field by field with the renderers' own string escaping and
/// timestamp format, for documents that embed JSON already encoded (the server's stored results
/// embed their report byte for byte). The caller writes the structure; nothing is validated.
public struct JSONDocumentWriter {
    private var output = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: 1024)

    public init() {}

    /// The document so far.
    public var bytes: [UInt8] { output.bytes }

    /// Bytes appended as they are: punctuation, or a value that is already JSON.
    public mutating func raw(_ json: some Collection<UInt8>) { output.append(contentsOf: json) }

    /// A quoted, escaped JSON string.
    public mutating func string(_ text: String) { output.appendString(text) }

    /// `"name":`
    public mutating func key(_ name: String) {
        output.appendString(name)
        output.append(UInt8(ascii: ":"))
    }

    public mutating func integer(_ value: Int) { output.appendInteger(value) }

    public mutating func bool(_ value: Bool) { output.append(value ? "true" : "false") }

    public mutating func null() { output.append("null") }

    /// Milliseconds since 1970 as a quoted RFC 3339 UTC timestamp with milliseconds, the format of
    /// dates in the plain JSON: `"2026-11-22T08:15:30.123Z"`.
    public mutating func timestamp(unixMilliseconds: Int64) { output.appendTimestamp(unixMilliseconds: unixMilliseconds) }
}
