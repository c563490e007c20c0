/// What a `redact` policy nulls out when rendering: whole objects (at every site that references
/// them) and single reference sites.
public struct Redactions: Sendable {
    public var objects: Set<Int> = []
    public var sites: Set<ReferenceSite> = []
    /// `$top` entries to null out, by name.
    public var topNames: Set<String> = []

    public init() {}

    public var isEmpty: Bool { objects.isEmpty && sites.isEmpty && topNames.isEmpty }
}

/// The evaluator's result: the report, and what to redact if the policy redacts.
struct PolicyEvaluation {
    var report: ValidationReport
    var redactions: Redactions
    /// A lower bound of the JSON values the plain rendering emits, when it can be known up front
    /// (an acyclic graph with no object-wide redactions); nil otherwise.
    var minimumPlainNodes: UInt64?
    /// The Foundation shapes the walk worked out, for the renderers to reuse.
    var shapes: ShapeMemo
    /// True when every violation is a Foundation shape problem: inspection mode still renders then.
    var onlyShapeViolations: Bool
    /// The nested archives decoded (`--nested`), by the plist index of the data that holds each:
    /// the renderers write them in place as `{"$archive": …}`.
    var nested: [Int: NestedArchive] = [:]
    /// The plain property lists found in data (`--nested`), by the plist index of that data:
    /// plain mode writes them in place as `{"$plist": …}`.
    var nestedPlists: [Int: PropertyList] = [:]
}
