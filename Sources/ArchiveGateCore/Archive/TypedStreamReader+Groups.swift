/// Walking one group's type encoding: which value comes next, and where finished values go. Arrays
/// and structs are containers on the cursor's own small stack (as deep as the encoding nests, which
/// `TypedStreamTypeEncoding.maxNesting` caps), so an object opened inside a struct inside a group can
/// suspend the walk and resume it when the object ends.
struct GroupCursor {
    /// An array or struct whose values are being read.
    struct Container {
        var node: Int
        var next = 0
        var values: [TypedStreamValue] = []
    }

    enum Step {
        /// Read the scalar or byte array at this node.
        case read(Int)
        /// Every value of the group has been read.
        case done
    }

    let encoding: TypedStreamTypeEncoding
    /// Offset of the group's type encoding.
    let offset: Int
    /// The group's finished top-level values.
    var values: [TypedStreamValue] = []
    private var nextTop = 0
    private var open: [Container] = []

    init(encoding: TypedStreamTypeEncoding, offset: Int) {
        self.encoding = encoding
        self.offset = offset
    }

    /// The next node to read, opening and closing containers on the way. An array whose elements
    /// cannot fit in the `remaining` bytes fails here, before any element is read or stored.
    mutating func next(remaining: Int, at position: Int) throws(TypedStreamError) -> Step {
        while true {
            let target: Int
            if let container = open.last {
                switch encoding.nodes[container.node] {
                case .array(let count, let element) where container.next < count:
                    target = element
                case .structure(_, let fields) where container.next < fields.count:
                    target = fields[container.next]
                default:
                    let finished = open.removeLast()
                    append(finishedValue(finished))
                    continue
                }
                open[open.count - 1].next += 1
            } else {
                guard nextTop < encoding.top.count else { return .done }
                target = encoding.top[nextTop]
                nextTop += 1
            }
            switch encoding.nodes[target] {
            case .array, .structure:
                guard encoding.minimumBytes[target] <= remaining else {
                    throw TypedStreamError(.truncated, offset: position,
                                           "a value of type encoding '\(encoding.text)' needs at least \(encoding.minimumBytes[target]) bytes, but only \(remaining) remain")
                }
                open.append(Container(node: target))
            case .scalar, .byteArray:
                return .read(target)
            }
        }
    }

    /// Adds a finished value to the innermost open container, or to the group.
    mutating func append(_ value: TypedStreamValue) {
        if open.isEmpty { values.append(value) } else { open[open.count - 1].values.append(value) }
    }

    private func finishedValue(_ container: Container) -> TypedStreamValue {
        if case .structure(let name, _) = encoding.nodes[container.node] {
            return .structure(name: name, fields: container.values)
        }
        return .array(container.values)
    }
}
