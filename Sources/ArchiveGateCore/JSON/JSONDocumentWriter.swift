/// Writes a small JSON document field by field with the renderers' own string escaping, integer
/// and timestamp format: the server's documents (its stored results embed their report byte for
/// byte; the validation report is spelled as `JSONEncoder` spells it). The caller writes the
/// structure (keys in the order it wants); nothing is validated.
public struct JSONDocumentWriter {
    private var output: JSONOutput

    /// `capacity`: the bytes to reserve, a guess at the document's size.
    public init(capacity: Int = 1024) {
        output = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: capacity)
    }

    /// The document so far.
    public var bytes: [UInt8] { output.bytes }

    /// Bytes appended as they are: punctuation, or a value that is already JSON.
    public mutating func raw(_ json: some Collection<UInt8>) { output.append(contentsOf: json) }

    /// Punctuation and keys written as given (`"{\"classes\":"`).
    public mutating func raw(_ json: StaticString) { output.append(json) }

    /// A quoted, escaped JSON string, escaped as every JSON string the project writes (the
    /// renderers' table, `JSONOutput.appendString`): `"` and `\` escaped, `\b \t \n \f \r`
    /// in short form, every other control character as `\u00xx` (lower-case hex); everything
    /// else, `/`, DEL and non-ASCII included, as is. That is also how `JSONEncoder` with
    /// `.withoutEscapingSlashes` spells strings.
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
