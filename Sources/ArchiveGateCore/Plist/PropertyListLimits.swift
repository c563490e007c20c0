/// Bounds on what a property-list reader accepts. Every limit is enforced before the memory it
/// guards is allocated.
public struct PropertyListLimits: Hashable, Sendable, Codable {
    /// Largest accepted input, in bytes.
    public var maxInputBytes: Int
    /// Most objects the table may hold (never more than 2^32 - 1, whatever this says: object numbers
    /// are 32-bit in the tables).
    public var maxObjects: Int
    /// Deepest container nesting the XML reader accepts (binary plists are flat by construction;
    /// consumers that walk them enforce their own depth).
    public var maxDepth: Int
    /// Longest single string, in bytes of its encoding.
    public var maxStringBytes: Int
    /// Largest single data object, in bytes.
    public var maxDataBytes: Int

    public init(maxInputBytes: Int = 64 << 20, maxObjects: Int = 4_000_000, maxDepth: Int = 512,
                maxStringBytes: Int = 16 << 20, maxDataBytes: Int = 32 << 20) {
        self.maxInputBytes = maxInputBytes
        self.maxObjects = maxObjects
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxDataBytes = maxDataBytes
    }
}
