/// Every bound a decode runs under. A policy file may lower or raise them; the server may cap them.
public struct DecodeLimits: Hashable, Sendable, Codable {
    /// Largest accepted archive, in bytes (after any gzip inflation).
    public var maxInputBytes: Int = 64 << 20
    /// Most `$objects` entries (and plist objects).
    public var maxObjects: Int = 4_000_000
    /// Deepest nesting of objects below a `$top` entry (and of XML elements).
    public var maxDepth: Int = 512
    /// Longest single string, in bytes.
    public var maxStringBytes: Int = 16 << 20
    /// Largest single data object, in bytes.
    public var maxDataBytes: Int = 32 << 20
    /// Largest JSON output, in bytes; shared objects are expanded at each site within it.
    public var maxOutputBytes: Int = 256 << 20
    /// Most JSON values emitted (objects, arrays and scalars).
    public var maxOutputNodes: Int = 10_000_000
    /// Most violations listed in a report (the verdict stays invalid past it).
    public var maxViolations: Int = 1_000
    /// Wall-clock budget of one decode (read, walk, render), in milliseconds, so that no input
    /// can hold a worker; nested archives share their parent's budget.
    public var maxDecodeMilliseconds: Int = 30_000

    public init() {}

    /// The limits the property-list reader enforces.
    public var propertyList: PropertyListLimits {
        PropertyListLimits(maxInputBytes: maxInputBytes, maxObjects: maxObjects, maxDepth: maxDepth,
                           maxStringBytes: maxStringBytes, maxDataBytes: maxDataBytes)
    }

    /// Names and values in a stable order, as reports and docs list them.
    public var entries: [(name: String, value: Int)] {
        [("maxInputBytes", maxInputBytes), ("maxObjects", maxObjects), ("maxDepth", maxDepth),
         ("maxStringBytes", maxStringBytes), ("maxDataBytes", maxDataBytes),
         ("maxOutputBytes", maxOutputBytes), ("maxOutputNodes", maxOutputNodes),
         ("maxViolations", maxViolations), ("maxDecodeMilliseconds", maxDecodeMilliseconds)]
    }

    /// Sets a limit by its name; returns false for an unknown name.
    public mutating func set(_ name: String, to value: Int) -> Bool {
        switch name {
        case "maxInputBytes": maxInputBytes = value
        case "maxObjects": maxObjects = value
        case "maxDepth": maxDepth = value
        case "maxStringBytes": maxStringBytes = value
        case "maxDataBytes": maxDataBytes = value
        case "maxOutputBytes": maxOutputBytes = value
        case "maxOutputNodes": maxOutputNodes = value
        case "maxViolations": maxViolations = value
        case "maxDecodeMilliseconds": maxDecodeMilliseconds = value
        default: return false
        }
        return true
    }
}
