import ArchiveGateTestSupport
import Foundation
import Testing
@testable import ArchiveGateCore

/// The JSON streamed in chunks (`ArchiveConversion.stream`) is byte for byte the whole document
/// the CLI wrote before streaming (`convert` + `PlainJSONFilter.apply`), in every mode, at every
/// chunk size; a failure after the first chunk leaves an unfinished document.
///
/// The comparisons are long and CPU-bound (one-byte chunks, debug build): they run on a thread of
/// their own (`offCooperativePool`), one test at a time. On the cooperative threads (two on this
/// machine) they held the pool for over a minute in the full run and starved the fetch tests' 30 s
/// bounds (ArchiveFetcherLimitTests).
@Suite(.serialized) struct StreamedRenderingTests {
    /// A sink that keeps what it is given, and refuses everything once it holds `refusesAfter` bytes.
    final class CollectingSink: JSONStreamSink {
        var bytes: [UInt8] = []
        var writes = 0
        let refusesAfter: Int
        init(refusesAfter: Int = .max) { self.refusesAfter = refusesAfter }
        func write(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
            if bytes.count >= refusesAfter { return false }
            writes += 1
            bytes.append(contentsOf: chunk)
            return true
        }
    }

    struct Variant: CustomStringConvertible, Sendable {
        let mode: OutputMode
        let pretty: Bool
        let filter: PlainJSONFilter
        var description: String { "\(mode) pretty=\(pretty) classNames-drop=\(filter.dropsClassNames) nulls-drop=\(filter.dropsNulls)" }
    }

    static let variants: [Variant] = [
        Variant(mode: .plain, pretty: false, filter: PlainJSONFilter()),
        Variant(mode: .plain, pretty: true, filter: PlainJSONFilter()),
        Variant(mode: .typed, pretty: false, filter: PlainJSONFilter()),
        Variant(mode: .typed, pretty: true, filter: PlainJSONFilter()),
        Variant(mode: .plain, pretty: false, filter: PlainJSONFilter(dropsClassNames: true)),
        Variant(mode: .plain, pretty: false, filter: PlainJSONFilter(dropsNulls: true)),
        Variant(mode: .plain, pretty: true, filter: PlainJSONFilter(dropsClassNames: true, dropsNulls: true)),
        Variant(mode: .plain, pretty: false, filter: PlainJSONFilter(dropsClassNames: true, dropsNulls: true)),
    ]

    /// The whole-document path as `convert` ran it before streaming.
    static func whole(_ bytes: [UInt8], _ inspector: ArchiveInspector, _ variant: Variant) throws(ArchiveGateError) -> [UInt8]? {
        let inspection = try inspector.convert(bytes, mode: variant.mode, pretty: variant.pretty && variant.filter.isIdentity)
        return inspection.json.map { variant.filter.isIdentity ? $0 : variant.filter.apply($0, pretty: variant.pretty) }
    }

    /// The streamed document; nil when the policy rejects the archive. `unfinished` when the sink
    /// did not get the end of the document.
    static func streamed(_ bytes: [UInt8], _ inspector: ArchiveInspector, _ variant: Variant, chunkSize: Int) throws(ArchiveGateError) -> [UInt8]? {
        let conversion = try inspector.prepareConversion(ByteStorage(bytes))
        guard conversion.rendersJSON else { return nil }
        let sink = CollectingSink()
        let finished = try conversion.stream(mode: variant.mode, pretty: variant.pretty, filter: variant.filter, to: sink, chunkSize: chunkSize)
        return finished ? sink.bytes : Array("unfinished".utf8)
    }

    /// Every difference between the whole and the streamed document, for every variant and chunk
    /// size: returned, not recorded, since it runs off the test's task.
    static func differences(_ bytes: [UInt8], name: String, inspector: ArchiveInspector, chunkSizes: [Int]) -> [String] {
        var differences: [String] = []
        for variant in variants {
            let expected: Result<[UInt8]?, ArchiveGateError>
            do throws(ArchiveGateError) { expected = .success(try Self.whole(bytes, inspector, variant)) } catch { expected = .failure(error) }
            for chunkSize in chunkSizes {
                let actual: Result<[UInt8]?, ArchiveGateError>
                do throws(ArchiveGateError) { actual = .success(try Self.streamed(bytes, inspector, variant, chunkSize: chunkSize)) } catch { actual = .failure(error) }
                switch (expected, actual) {
                case (.success(let whole), .success(let stream)):
                    if whole != stream { differences.append("\(name) \(variant) chunk \(chunkSize): streamed bytes differ") }
                case (.failure(let a), .failure(let b)):
                    if a.code != b.code { differences.append("\(name) \(variant) chunk \(chunkSize): \(a.code) vs \(b.code)") }
                default:
                    differences.append("\(name) \(variant) chunk \(chunkSize): whole \(expected) vs streamed \(actual)")
                }
            }
        }
        return differences
    }

    /// `differences`, computed on a thread of its own, each recorded as an issue.
    static func compare(_ bytes: [UInt8], name: String, inspector: ArchiveInspector, chunkSizes: [Int]) async throws {
        let found = try await offCooperativePool { differences(bytes, name: name, inspector: inspector, chunkSizes: chunkSizes) }
        for difference in found { Issue.record(Comment(rawValue: difference)) }
    }

    @Test(.enabled(if: SharedMaterial.hasCorpus, Comment(rawValue: SharedMaterial.corpusAbsent)))
    func corpusStreamsTheWholeDocumentsBytes() async throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: SharedMaterial.corpus.path)
            .filter { !$0.hasSuffix(".md") }.sorted()
        #expect(files.count > 50)
        for nested in [false, true] {
            let inspector = ArchiveInspector(policy: .inspection, decodesNestedArchives: nested)
            for file in files {
                let url = SharedMaterial.corpus.appendingPathComponent(file)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                let bytes = try [UInt8](Data(contentsOf: url))
                // Small chunks only for small files: in a debug build they cost seconds per large
                // file and, running on the shared cooperative threads, starved the timed tests of the
                // full parallel run for a minute. Every cut position is covered by the stage tests below.
                try await Self.compare(bytes, name: file, inspector: inspector, chunkSizes: bytes.count <= 4096 ? [1, 13, 64 << 10] : [4093, 64 << 10])
            }
        }
    }

    @Test(arguments: 0 ..< 6)
    func generatedArchivesStreamTheWholeDocumentsBytes(seed: Int) async throws {
        // Sizes kept small: one-byte chunks in a debug build are slow.
        let bytes = GeneratedArchive.make(seed: UInt64(seed), objects: 40 + seed * 30)
        let inspector = ArchiveInspector(policy: .inspection)
        #expect((try? inspector.convert(bytes, mode: .plain).json) != nil, "seed \(seed): the generated archive converts")
        // One-byte chunks (a flush per byte: slow in a debug build) for every other seed; the
        // others cut at odd and large sizes.
        let chunkSizes = seed.isMultiple(of: 2) ? [1, 64, 64 << 10] : [3, 1000, 64 << 10]
        try await Self.compare(bytes, name: "seed \(seed)", inspector: inspector, chunkSizes: chunkSizes)
    }

    /// A redacting policy: violating subtrees become null in both paths alike.
    @Test func redactedArchiveStreamsTheSameBytes() async throws {
        var policy = Policy.foundation
        policy.onViolation = .redact
        let bytes = GeneratedArchive.make(seed: 99, objects: 300)
        let inspector = ArchiveInspector(policy: policy)
        #expect(try inspector.convert(bytes, mode: .plain).json != nil)
        try await Self.compare(bytes, name: "redacted", inspector: inspector, chunkSizes: [1, 7, 64 << 10])
    }

    /// An output budget crossed after the first chunk: the error is thrown, the sink has the start of
    /// the document and never its end, so it cannot pass for the complete document.
    @Test(arguments: [OutputMode.plain, .typed])
    func budgetFailureAfterFirstChunkLeavesAnUnfinishedDocument(mode: OutputMode) throws {
        let bytes = GeneratedArchive.make(seed: 5, objects: 3000)
        let full = try #require(try ArchiveInspector(policy: .inspection).convert(bytes, mode: mode).json)
        var policy = Policy.inspection
        policy.limits.maxOutputBytes = full.count - 1
        let conversion = try ArchiveInspector(policy: policy).prepareConversion(ByteStorage(bytes))
        let sink = CollectingSink()
        #expect(throws: ArchiveGateError.self) {
            _ = try conversion.stream(mode: mode, pretty: false, to: sink, chunkSize: 4096)
        }
        #expect(sink.bytes.count >= 4096, "the failure came after the first chunk")
        #expect(sink.bytes.count < full.count)
        #expect(Array(full.prefix(sink.bytes.count)) == sink.bytes, "what went out is the document's start")
        #expect((try? JSONSerialization.jsonObject(with: Data(sink.bytes))) == nil, "the partial output does not parse as JSON")
    }

    /// A sink that stops taking bytes stops the rendering: `stream` says so and little more is produced.
    @Test func refusingSinkStopsTheRendering() throws {
        let bytes = GeneratedArchive.make(seed: 6, objects: 3000)
        let conversion = try ArchiveInspector(policy: .inspection).prepareConversion(ByteStorage(bytes))
        let sink = CollectingSink(refusesAfter: 8192)
        let finished = try conversion.stream(mode: .plain, pretty: true, to: sink, chunkSize: 1024)
        #expect(!finished)
        #expect(sink.bytes.count >= 8192 && sink.bytes.count < 8192 + 8 * 1024)
    }

    /// The chunked indenter and filter against the whole-document ones, cut at every position.
    @Test(arguments: [
        #"{"root":{"$class":"Memo","title":"t","note":null,"e":{},"a":[],"n":[null,{"$class":"X"},null]}}"#,
        #"{"root":{"s":"\"$class\":\"no\",\"x\":null","t":"a\\","$class":"Y"},"k":{"a":null,"b":null}}"#,
        #"{"a":null,"$class":"X","b":1,"c":"\\\"{[","d":[{"$class":"Z","z":null}]}"#,
    ])
    func chunkedStagesMatchWholeDocumentStagesAtEveryCut(json: String) {
        let input = Array(json.utf8)
        let filters = [PlainJSONFilter(), PlainJSONFilter(dropsClassNames: true), PlainJSONFilter(dropsNulls: true),
                       PlainJSONFilter(dropsClassNames: true, dropsNulls: true)]
        for filter in filters {
            for pretty in [false, true] {
                let expected = filter.apply(input, pretty: pretty)
                for cut in 0 ... input.count {
                    let sink = CollectingSink()
                    let pipeline = JSONStreamPipeline(filter: filter, pretty: pretty, sink: sink)
                    input.withUnsafeBufferPointer { all in
                        _ = pipeline.consume(UnsafeBufferPointer(rebasing: all[0 ..< cut]))
                        _ = pipeline.consume(UnsafeBufferPointer(rebasing: all[cut...]))
                    }
                    _ = pipeline.finish()
                    #expect(sink.bytes == expected, "cut at \(cut), pretty \(pretty), \(filter)")
                }
            }
        }
    }
}
