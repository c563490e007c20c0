import Foundation
import Testing
@testable import ArchiveGateCore

/// Every file of `../shared/typedstream-corpus` reads, or fails with a typed error when its source
/// projects (and pytypedstream) find it malformed; the classes and strings the graph holds are the
/// ones pytypedstream and crabstep's own tests report.
@Suite(.enabled(if: TypedStreamCorpus.isPresent, Comment(rawValue: TypedStreamCorpus.absent)))
struct TypedStreamCorpusTests {
    @Test func theManifestListsTheWholeCorpus() {
        #expect(TypedStreamCorpus.entries.count == 137)
        #expect(TypedStreamCorpus.entries.filter(\.mustFail).count == 4)
    }

    /// The code each malformed file gets: where its bytes first stop making sense.
    static let failureCodes: [String: TypedStreamError.Code] = [
        // The NSString length prefix (157) runs past the end of the input.
        "crabstep/d947ed98a5951bed_ExtraData": .truncated,
        "bagoup/e3b0c44298fc1c14_inline_failure_creating_unarchiver": .truncated,
        // 0x84 0x85: a new shared string whose contents are nil.
        "bagoup/1216537a24d99a0d_inline_failure_to_decode_all": .unexpectedTag,
        // 0x96 where a length byte belongs: a reference to a shared string not yet introduced.
        "Madrid/5f705da33e4a6bf2_Fixtures.attributedBody": .danglingReference,
    ]

    @Test(arguments: TypedStreamCorpus.entries)
    func readsOrFailsAsItsSourcesSay(entry: TypedStreamCorpus.Entry) throws {
        let bytes = try TypedStreamCorpus.bytes(entry.file)
        if entry.mustFail {
            let code = try #require(Self.failureCodes[entry.file], "no expected code for \(entry.file)")
            #expect(throws: TypedStreamError(code, offset: 0, ""), "\(entry.negative ?? "")") {
                try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits())
            }
            return
        }
        let graph = try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits())
        let signature = graph.byteOrder == .little ? "streamtyped (little-endian)" : "typedstream (big-endian)"
        #expect(entry.header == "v\(graph.streamerVersion) \(signature) sys\(graph.systemVersion)")
        if entry.pytypedstreamStream == "ok" {
            #expect(Self.distinctClassNames(graph) == entry.pytypedstreamClasses)
        }
        for expected in entry.expectedStrings("class names in the asserted type table (in order)") {
            #expect(Self.distinctClassNames(graph) == expected)
        }
        let strings = Self.strings(graph)
        for expected in entry.expectedStrings("strings in the asserted object table (in order)") {
            #expect(Self.isSubsequence(expected, of: strings), "\(expected) not in order in \(strings)")
        }
    }

    /// The class names in first-appearance order, each once (pytypedstream's `classes`).
    static func distinctClassNames(_ graph: TypedStreamGraph) -> [String] {
        var seen = Set<String>()
        return graph.classes.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The text of every `+` byte string and C string, objects in the order the stream introduces them.
    static func strings(_ graph: TypedStreamGraph) -> [String] {
        var result: [String] = []
        for object in graph.objects {
            var values = object.groups.flatMap(\.values)
            while !values.isEmpty {
                switch values.removeFirst() {
                case .bytes(let bytes), .cString(.some(let bytes)): result.append(String(decoding: bytes, as: UTF8.self))
                case .array(let inner), .structure(_, let inner): values.insert(contentsOf: inner, at: 0)
                default: break
                }
            }
        }
        return result
    }

    static func isSubsequence(_ needle: [String], of haystack: [String]) -> Bool {
        var index = haystack.startIndex
        for item in needle {
            guard let found = haystack[index...].firstIndex(of: item) else { return false }
            index = found + 1
        }
        return true
    }
}
