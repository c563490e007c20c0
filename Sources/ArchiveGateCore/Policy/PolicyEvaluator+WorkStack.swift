extension PolicyEvaluator {
    /// One step of the walk: follow an edge, or close an object whose edges were all followed.
    enum Work {
        case visit(Edge)
        case leave(uid: Int, popsPath: Bool)
    }

    /// The walk's stack of pending work. `expand` appends an object's edges to it directly, in
    /// archive order, and the walk then reverses them in place (`reverseFrom`), so they pop in
    /// archive order without a second list holding them: for a 50,000-element collection that
    /// list was as large as the stack itself, and kept its capacity for the whole walk.
    struct WorkStack {
        private var items: [Work] = []

        var count: Int { items.count }

        /// Adds an edge to follow.
        mutating func append(_ edge: Edge) { items.append(.visit(edge)) }

        mutating func push(_ work: Work) { items.append(work) }

        mutating func pop() -> Work? { items.popLast() }

        /// Reverses the work added since the stack held `start` items.
        mutating func reverseFrom(_ start: Int) {
            items.reverseSuffix(from: start)
        }
    }
}
