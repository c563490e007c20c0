import Foundation
import Testing
@testable import ArchiveGateCore

/// The archives the encode and sanitize properties are checked over: Foundation-made fixtures (both
/// formats), hand-built ones, `examples/` and the fuzz seeds; the public corpus separately (skipped,
/// visibly, without ../shared).
enum WriteSamples {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Named fixture archives that need nothing outside the repository.
    static func fixtures() throws -> [(name: String, bytes: [UInt8])] {
        var samples = [(name: String, bytes: [UInt8])]()
        let objects: [(String, Any)] = [
            ("array", ["a", 5 as NSNumber, 2.5 as NSNumber, true as NSNumber] as NSArray),
            ("dictionary", ["k": "v", "n": 1 as NSNumber, "nested": ["x": [1, 2] as NSArray] as NSDictionary] as NSDictionary),
            ("date", NSDate(timeIntervalSinceReferenceDate: 12.5)),
            ("data", NSData(bytes: [0, 1, 2, 255], length: 4)),
            ("set", NSSet(array: ["a", "b"])),
            ("url", NSURL(string: "https://example.com/a?b=c")!),
            ("uuid", NSUUID(uuidString: "54CD5574-E957-4499-8A09-DAB688C0B586")!),
            ("shared", { () -> NSArray in let shared = "same" as NSString; return [shared, shared, ["k": shared] as NSDictionary] as NSArray }()),
            ("unicode", ["日本", "é🎉", "tab\tline\nend"] as NSArray),
            ("post", SamplePost(title: "T", likes: 1, subtitle: "s", tags: ["x", "y"], author: SampleAuthor(name: "A"))),
            ("node", { () -> SampleNode in let top = SampleNode(name: "top"); top.adopt(SampleNode(name: "leaf")); return top }()),
            ("pair", SamplePair(first: "text" as NSString, second: "text" as NSString)),
        ]
        for (name, object) in objects {
            for format in FixtureFormat.allCases {
                samples.append(("fixture/\(name).\(format)", try FoundationFixture.archive(object, as: format)))
            }
        }
        samples.append(("fixture/typed-every-kind", TypedModeTests.everyKind()))
        let manager = FileManager.default
        for folder in ["examples", "Fuzz/seeds"] {
            let url = packageRoot.appendingPathComponent(folder)
            for file in try manager.contentsOfDirectory(atPath: url.path).sorted()
            // plain.* are property lists, not keyed archives.
            where (file.hasSuffix(".archive") || file.hasSuffix(".bplist") || file.hasSuffix(".xml")) && !file.hasPrefix("plain.") {
                samples.append(("\(folder)/\(file)", try Array(Data(contentsOf: url.appendingPathComponent(file)))))
            }
        }
        return samples
    }

    /// Every corpus archive that is not deliberately broken.
    static func corpus() throws -> [(name: String, bytes: [UInt8])] {
        try CorpusTests.files().filter { CorpusTests.broken[$0] == nil }.map { file in
            (file, try Array(Data(contentsOf: CorpusTests.root.appendingPathComponent(file))))
        }
    }

    /// Typed JSON under inspection.
    static func typed(_ bytes: [UInt8]) throws -> [UInt8]? {
        try ArchiveInspector(policy: .inspection).convert(bytes, mode: .typed).json
    }

    /// True when every class in the archive is one Foundation decodes and the shapes are sound: then
    /// corelibs' `NSKeyedUnarchiver` (which traps on some malformed input) may be given it.
    static func isFoundationOnly(_ bytes: [UInt8]) -> Bool {
        guard (try? ArchiveInspector(policy: .foundation).validate(bytes).valid) == true,
              let archive = try? ArchiveInspector(policy: .inspection).decode(bytes) else { return false }
        return !archive.classes.contains { corelibsUnreadable.contains($0.name) }
    }

    /// Foundation classes swift-corelibs-foundation cannot decode in Apple's layout (docs/RELIABILITY.md,
    /// "Known corelibs bugs"): it cannot be the reference for an archive that holds one.
    static let corelibsUnreadable: Set<String> = ["NSAffineTransform"]

    /// What Foundation decodes under each `$top` name that holds an object (inline `$top` scalars
    /// are not objects, `$0`… are unkeyed encodings), or the error it reports.
    static func foundationGraph(_ bytes: [UInt8], classNames: [String: AnyClass] = [:]) throws -> [String: NSObject?] {
        let archive = try ArchiveInspector(policy: .inspection).decode(bytes)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        for (name, type) in classNames { unarchiver.setClass(type, forClassName: name) }
        var graph = [String: NSObject?]()
        for entry in archive.top where entry.inlineValue == nil && !entry.name.hasPrefix("$") {
            graph[entry.name] = unarchiver.decodeObject(forKey: entry.name) as? NSObject
            if let error = unarchiver.error { throw error }
        }
        unarchiver.finishDecoding()
        return graph
    }

    /// Foundation equality, falling back to the description (NaN is not equal to itself).
    static func sameGraph(_ lhs: [String: NSObject?], _ rhs: [String: NSObject?]) -> Bool {
        guard lhs.keys.sorted() == rhs.keys.sorted() else { return false }
        for (key, left) in lhs {
            let right = rhs[key] ?? nil
            switch (left, right) {
            case (nil, nil): continue
            case let (left?, right?): if !(left.isEqual(right) || left.description == right.description) { return false }
            default: return false
            }
        }
        return true
    }
}
