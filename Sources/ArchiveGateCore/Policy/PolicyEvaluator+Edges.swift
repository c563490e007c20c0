/// What a reference site expects of its target. Small and payload-free of references, because
/// the walk creates one per edge.
enum SiteExpectation {
    /// Any class in the policy's `allow` set.
    case allowed
    /// Already checked where the enclosing collection was referenced.
    case unchecked
    /// An `ExpectationTable` entry: a key schema's or the root's expectation, or what Foundation
    /// itself decodes inside one of its classes (NSURL's `NS.relative` is a string …).
    case entry(Int32)
}

/// One reference from an object (or `$top`) to another object. Plain data (no references), so the
/// walk's stack is copied without reference counting.
struct Edge {
    var target: Int
    /// Nil for `$top` entries.
    var site: ReferenceSite?
    /// The position in `KeyedArchive.top` of a `$top` entry; -1 otherwise.
    var topIndex: Int
    var expectation: SiteExpectation
    var component: PathComponent

    init(target: Int, site: ReferenceSite?, topIndex: Int = -1, expectation: SiteExpectation, component: PathComponent) {
        self.target = target
        self.site = site
        self.topIndex = topIndex
        self.expectation = expectation
        self.component = component
    }
}
