extension PropertyList {
    /// The first container, found depth first from the root, that holds a reference back to a
    /// container it is inside of (itself included), and that reference's target.
    ///
    /// A binary property list names its children by object number, so a container can name one of
    /// its own ancestors; XML cannot. The reader reads such a file flat and leaves cycles to the
    /// walkers (a keyed archive's walk has its own rules); a walk of the plain property list itself
    /// must ask this first, or it would never end. CoreFoundation refuses these files too, and no
    /// writer produces one. Shared children (one object named from several containers) are not
    /// cycles. Iterative: the explicit stack holds one entry per open container, so its depth is
    /// bounded by the object count.
    func firstCyclicReference() -> (container: Int, target: Int)? {
        guard isContainer(root) else { return nil }
        // 0 unvisited, 1 open (on the current path), 2 closed (every descendant checked).
        var state = [UInt8](repeating: 0, count: objects.endIndex)
        var stack: [(container: Int, next: Int)] = [(root, 0)]
        state[root] = 1
        while let top = stack.last {
            let children = children(of: top.container)
            if top.next == children.count {
                state[top.container] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let child = Int(children[children.startIndex + top.next])
            guard isContainer(child) else { continue }
            switch state[child] {
            case 1: return (top.container, child)
            case 0:
                state[child] = 1
                stack.append((child, 0))
            default: continue
            }
        }
        return nil
    }

    /// Why the property list cannot be walked, when it contains itself (`firstCyclicReference`).
    func cyclicReferenceProblem() -> String? {
        firstCyclicReference().map {
            "object \($0.container) of the property list refers to object \($0.target), which contains it: a property list cannot contain itself"
        }
    }

    private func isContainer(_ index: Int) -> Bool {
        switch kind(of: index) {
        case .array, .set, .dictionary: true
        default: false
        }
    }
}
