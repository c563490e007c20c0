import ArchiveGateCore

/// What every successfully read `TypedStreamGraph` must satisfy, whatever bytes it came from: the
/// lowering and the renderers index `classes` and `objects` with the graph's own numbers.
public enum TypedStreamInvariants {
    public static func check(_ graph: TypedStreamGraph, inputCount: Int) {
        let classCount = graph.classes.count
        let objectCount = graph.objects.count
        for (index, entry) in graph.classes.enumerated() {
            require(!entry.name.isEmpty, "class \(index) has no name")
            require(entry.offset >= 0 && entry.offset < inputCount, "class \(index) at offset \(entry.offset)")
            if let superclass = entry.superclass {
                // Superclasses are introduced after their subclass in a chain, or earlier by reference:
                // never the class itself, and every chain ends (checked by walking at most classCount steps).
                require(superclass >= 0 && superclass < classCount && superclass != index, "class \(index) has superclass \(superclass)")
            }
            var steps = 0
            var cursor = entry.superclass
            while let next = cursor {
                steps += 1
                require(steps <= classCount, "class \(index)'s superclass chain loops")
                cursor = graph.classes[next].superclass
            }
        }
        for (index, object) in graph.objects.enumerated() {
            require(object.classIndex >= 0 && object.classIndex < classCount, "object \(index) has class \(object.classIndex)")
            require(object.offset >= 0 && object.offset < inputCount, "object \(index) at offset \(object.offset)")
            for group in object.groups { check(group, classCount: classCount, objectCount: objectCount, inputCount: inputCount) }
        }
        for group in graph.top { check(group, classCount: classCount, objectCount: objectCount, inputCount: inputCount) }
    }

    private static func check(_ group: TypedStreamGroup, classCount: Int, objectCount: Int, inputCount: Int) {
        require(!group.encoding.isEmpty, "a group without a type encoding")
        require(group.offset >= 0 && group.offset < inputCount, "group at offset \(group.offset)")
        var pending = group.values
        while let value = pending.popLast() {
            switch value {
            case .object(let index?): require(index >= 0 && index < objectCount, "object reference \(index) of \(objectCount)")
            case .classReference(let index?): require(index >= 0 && index < classCount, "class reference \(index) of \(classCount)")
            case .array(let inner), .structure(_, let inner): pending.append(contentsOf: inner)
            default: break
            }
        }
    }
}
