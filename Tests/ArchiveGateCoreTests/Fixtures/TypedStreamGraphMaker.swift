@testable import ArchiveGateCore

/// Builds `TypedStreamGraph` values by hand, as Apple's NSArchiver lays them out, for the lowering
/// tests: classes by chain, objects with their groups, the top-level groups.
struct TypedStreamGraphMaker {
    var graph = TypedStreamGraph(byteOrder: .little, streamerVersion: 4, systemVersion: 1000)

    /// The index of the class `chain[0]`, introducing the chain (`["NSMutableString", "NSString",
    /// "NSObject"]`) once; `NSObject` is appended when the chain does not end with it.
    mutating func classIndex(_ chain: [String]) -> Int {
        let names = chain.last == "NSObject" ? chain : chain + ["NSObject"]
        var superclass: Int?
        for name in names.reversed() {
            if let existing = graph.classes.firstIndex(where: { $0.name == name }) {
                superclass = existing
                continue
            }
            graph.classes.append(TypedStreamClass(name: name, version: 0, superclass: superclass, offset: 0))
            superclass = graph.classes.count - 1
        }
        return superclass ?? 0
    }

    /// Adds an object of class `chain[0]` with `groups` (encoding, values) and returns its index.
    @discardableResult
    mutating func object(_ chain: [String], _ groups: [(String, [TypedStreamValue])]) -> Int {
        let classIndex = classIndex(chain)
        graph.objects.append(TypedStreamObject(classIndex: classIndex,
                                               groups: groups.map { TypedStreamGroup(encoding: $0.0, values: $0.1, offset: 0) },
                                               offset: 0))
        return graph.objects.count - 1
    }

    /// An NSString.
    mutating func string(_ text: String, mutable: Bool = false) -> Int {
        object(mutable ? ["NSMutableString", "NSString"] : ["NSString"], [("+", [.bytes(Array(text.utf8))])])
    }

    /// An NSNumber of type `encoding` holding `value`.
    mutating func number(_ encoding: String, _ value: TypedStreamValue) -> Int {
        object(["NSNumber", "NSValue"], [("*", [.cString(Array(encoding.utf8))]), (encoding, [value])])
    }

    /// An NSDictionary of `pairs` (object indexes).
    mutating func dictionary(_ pairs: [(Int, Int)], className: String = "NSDictionary") -> Int {
        let chain = className == "NSDictionary" ? ["NSDictionary"] : [className, "NSDictionary"]
        return object(chain, [("i", [.signed(Int64(pairs.count))])] + pairs.flatMap { [("@", [.object($0.0)]), ("@", [.object($0.1)])] })
    }

    /// Sets the root: one top-level `@` group.
    mutating func root(_ index: Int) {
        graph.top = [TypedStreamGroup(encoding: "@", values: [.object(index)], offset: 0)]
    }

    /// The lowered archive as `bplist00` bytes, for the keyed pipeline (`ArchiveInspector`).
    func keyedBytes() -> [UInt8] {
        BinaryPropertyListWriter.write(TypedStreamLowering.keyedArchiveValue(from: graph).value)
    }
}
