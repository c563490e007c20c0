import Foundation
@testable import ArchiveGateCore

/// `../shared/typedstream-corpus`: other projects' typedstream fixtures, with `manifest.json`
/// (one record per file: `file`, `negative`, pytypedstream's `stream` result and `classes`, and each
/// source's `expected` values). Tests that read it skip, with the reason, when it is absent.
enum TypedStreamCorpus {
    static let root = SharedMaterial.root.appendingPathComponent("typedstream-corpus")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.json").path) }

    static let absent = "../shared/typedstream-corpus is absent (a clone without ../shared beside it)"

    /// One manifest record, the parts the tests use.
    struct Entry: Sendable, CustomStringConvertible {
        var file: String
        /// The manifest's reason when a source project treats the file as malformed or undecodable.
        var negative: String?
        /// e.g. `v4 streamtyped (little-endian) sys1000`, or `empty`.
        var header: String
        /// pytypedstream's low-level stream read: "ok" or its error.
        var pytypedstreamStream: String?
        var pytypedstreamClasses: [String]
        /// Every `expected` value that is a list of strings, with its kind, over all sources.
        var expected: [(kind: String, strings: [String])]

        var description: String { file }

        /// Negative files that pytypedstream itself reads are malformed only as iMessage bodies (no
        /// text); as typedstreams they are well formed, and a strict reader must read them.
        var mustFail: Bool { negative != nil && pytypedstreamStream != "ok" }

        func expectedStrings(_ kind: String) -> [[String]] {
            expected.filter { $0.kind == kind }.map(\.strings)
        }
    }

    static let entries: [Entry] = {
        guard isPresent,
              let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")),
              let records = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return records.compactMap { record in
            guard let file = record["file"] as? String else { return nil }
            let py = record["pytypedstream"] as? [String: Any]
            var expected: [(String, [String])] = []
            for source in record["sources"] as? [[String: Any]] ?? [] {
                for item in source["expected"] as? [[String: Any]] ?? [] {
                    if let kind = item["kind"] as? String, let value = item["value"] as? [String] { expected.append((kind, value)) }
                }
            }
            return Entry(file: file, negative: record["negative"] as? String, header: record["header"] as? String ?? "",
                         pytypedstreamStream: py?["stream"] as? String,
                         pytypedstreamClasses: py?["classes"] as? [String] ?? [], expected: expected)
        }
    }()

    static func bytes(_ file: String) throws -> [UInt8] {
        try Array(Data(contentsOf: root.appendingPathComponent(file)))
    }

    /// The graph of a corpus file, read with the default limits.
    static func graph(_ file: String) throws -> TypedStreamGraph {
        try TypedStreamReader.read(ByteStorage(bytes(file)), limits: PropertyListLimits())
    }
}
