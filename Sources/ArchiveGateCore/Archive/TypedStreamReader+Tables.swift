/// The two reference tables: shared strings (type encodings, class names, C string contents) and
/// referents (objects, classes, C strings), and the class chains that fill the latter.
extension TypedStreamParser {
    /// A shared string whose head (at `offset`) is `head`: its index in `sharedStrings`, nil for nil.
    mutating func sharedString(head: Int8, at offset: Int) throws(TypedStreamError) -> Int? {
        switch head {
        case TypedStreamInput.tagNil:
            return nil
        case TypedStreamInput.tagNew:
            guard let bytes = try input.unsharedString(head: input.head("a shared string"), limit: limits.maxStringBytes) else {
                throw TypedStreamError(.unexpectedTag, offset: offset + 1, "a new shared string whose contents are nil")
            }
            sharedStrings.append(bytes)
            encodingCache.append(nil)
            nameCache.append(nil)
            return sharedStrings.count - 1
        default:
            let number = try input.reference(head: head)
            guard number >= 0, number < sharedStrings.count else {
                throw TypedStreamError(.danglingReference, offset: offset, "shared string \(number) has not been introduced (\(sharedStrings.count) so far)")
            }
            return Int(number)
        }
    }

    /// What the reference whose head (at `offset`) is `head` names.
    mutating func referent(head: Int8, at offset: Int) throws(TypedStreamError) -> Referent {
        let number = try input.reference(head: head)
        guard number >= 0, number < referents.count else {
            throw TypedStreamError(.danglingReference, offset: offset, "reference \(number) names nothing introduced yet (\(referents.count) so far)")
        }
        return referents[Int(number)]
    }

    /// A class: Nil, a reference to a class already introduced, or a chain of new classes (each
    /// followed by its superclass) that ends in Nil or such a reference. Returns the class's index.
    /// A chain whose end refers back into itself would make a class its own ancestor: refused.
    mutating func classChain(head first: Int8, at firstOffset: Int) throws(TypedStreamError) -> Int? {
        let chainStart = graph.classes.count
        var head = first
        var offset = firstOffset
        while head == TypedStreamInput.tagNew {
            let nameOffset = input.position
            guard let nameIndex = try sharedString(head: input.head("a class name"), at: nameOffset) else {
                throw TypedStreamError(.unexpectedTag, offset: nameOffset, "a class whose name is nil")
            }
            let name = try className(nameIndex, at: nameOffset)
            let version = Int64(bitPattern: try input.integer(signed: true, "a class version"))
            try count(at: offset)
            let index = graph.classes.count
            if index > chainStart { graph.classes[index - 1].superclass = index }
            graph.classes.append(TypedStreamClass(name: name, version: version, superclass: nil, offset: offset))
            referents.append(.classEntry(index))
            offset = input.position
            head = try input.head("a superclass")
        }
        var end: Int?
        if head != TypedStreamInput.tagNil {
            guard case .classEntry(let index) = try referent(head: head, at: offset) else {
                throw TypedStreamError(.danglingReference, offset: offset, "a class reference that names an object or C string")
            }
            guard index < chainStart else {
                throw TypedStreamError(.danglingReference, offset: offset,
                                       "class '\(graph.classes[index].name)' would be its own superclass (a class reference loop)")
            }
            end = index
        }
        guard graph.classes.count > chainStart else { return end }
        graph.classes[graph.classes.count - 1].superclass = end
        return chainStart
    }

    /// The class name in shared string `index`, which must be UTF-8.
    private mutating func className(_ index: Int, at offset: Int) throws(TypedStreamError) -> String {
        if let name = nameCache[index] { return name }
        guard let name = String(validating: sharedStrings[index], as: UTF8.self), !name.isEmpty else {
            throw TypedStreamError(.invalidString, offset: offset, "a class name that is empty or not UTF-8")
        }
        nameCache[index] = name
        return name
    }
}
