import Testing
@testable import ArchiveGateCore

/// A binary property list that contains itself (a container naming one of its ancestors by object
/// number) is no sound property list: `validate` and `convert` both answer
/// `archive.collection_cycle` at once, instead of `validate` calling it a plain property list and
/// `convert` expanding it until the output limit (CPython's `unsupported_token_ca` vector — a set
/// holding itself ten times — ran for minutes and gigabytes that way). Shared children still convert.
@Suite struct PlainPropertyListCycleTests {
    typealias Raw = BinaryPropertyListWriter.RawBuilder
    let inspector = ArchiveInspector(policy: .inspection)

    func expectCycle(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let code = ArchiveGateError.Code(ArchiveError.Code.collectionCycle)
        for door in ["validate", "convert", "convertPropertyList"] {
            do {
                switch door {
                case "validate": _ = try inspector.validate(bytes)
                case "convert": _ = try inspector.convert(bytes, mode: .plain)
                default: _ = try inspector.convertPropertyList(ByteStorage(bytes))
                }
                Issue.record("\(door) accepted a property list that contains itself", sourceLocation: sourceLocation)
            } catch {
                #expect(error.code == code, "\(door): \(error.code)", sourceLocation: sourceLocation)
                #expect(Verdict(error) == .malformed(code), "\(door)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aSetHoldingItselfTenTimesIsACycle() {
        // The shape of CPython's unsupported_token_ca.bplist: object 0 is a set of ten references to object 0.
        expectCycle(Raw(objects: [[0xCA] + [UInt8](repeating: 0, count: 10)]).bytes())
    }

    @Test func aCycleThroughADictionaryIsACycle() {
        var raw = Raw()
        raw.array([1])
        raw.dictionary(keys: [2], values: [0])
        raw.append("back")
        expectCycle(raw.bytes())
    }

    @Test func aChildSharedByTwoContainersIsNoCycle() throws {
        var raw = Raw()
        raw.array([1, 1])
        raw.array([2, 2])
        raw.append("x")
        let json = try inspector.convertPropertyList(ByteStorage(raw.bytes()))
        #expect(String(decoding: json, as: UTF8.self) == #"[["x","x"],["x","x"]]"#)
    }
}
