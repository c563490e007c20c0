import ArchiveGateCore
import Foundation
import Testing

/// The inputs issue #2's "done when" names: each must end with exit 1 or 2 and one line of reason,
/// in under a second and 100 MB.
@Suite struct HostileInputTests {
    static func deepChain(_ depth: Int) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let node = builder.classRecord("Node", chain: ["Node", "NSObject"])
        var next: UInt32 = 0
        for _ in 0 ..< depth { next = builder.object(class: node, fields: ["child": .uid(next)]) }
        builder.setTop("root", next)
        return builder.binary()
    }

    static func billionLaughs(levels: Int) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        var level = builder.add(.string("lol"))
        for _ in 0 ..< levels { level = builder.array(of: [level, level]) }
        builder.setTop("root", level)
        return builder.binary()
    }

    /// One string referenced `references` times: plain JSON writes a value at every site (an array
    /// would be written once and referenced), so this is what still amplifies.
    static func sharedString(kibibytes: Int, references: Int) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let text = builder.add(.string(String(repeating: "a", count: kibibytes << 10)))
        builder.setTop("root", builder.array(of: Array(repeating: text, count: references)))
        return builder.binary()
    }

    static func selfContainingDictionary() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let key = builder.add(.string("self"))
        let dictionary = builder.reserve()
        let record = builder.classRecord("NSMutableDictionary", chain: ["NSMutableDictionary", "NSDictionary", "NSObject"])
        builder.set(dictionary, to: .dictionary(["NS.keys": .array([.uid(key)]), "NS.objects": .array([.uid(dictionary)]), "$class": .uid(record)]))
        builder.setTop("root", dictionary)
        return builder.binary()
    }

    static func spoofedClasses() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let record = builder.classRecord("EvilPayload", chain: ["NSString", "NSObject"])
        let text = builder.add(.string("x"))
        builder.setTop("root", builder.object(class: record, fields: ["NS.string": .uid(text)]))
        return builder.binary()
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: @Sendable () -> [UInt8]
        var arguments: [String]
        var status: Int32
        var code: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "50,000-deep nesting", bytes: { deepChain(50_000) }, arguments: ["--allow-any-class"], status: 3,
             code: "archive.depth_limit_exceeded"),
        // The limit is under one output chunk, so the refusal comes before anything is written.
        Case(name: "a 16 KiB string shared 1,000 times", bytes: { sharedString(kibibytes: 16, references: 1000) },
             arguments: ["--limit", "maxOutputBytes=40000"], status: 3, code: "archive.output_limit_exceeded"),
        Case(name: "self-containing dictionary", bytes: { selfContainingDictionary() }, arguments: ["--allow-any-class"], status: 2,
             code: "archive.collection_cycle"),
        Case(name: "spoofed $classes", bytes: { spoofedClasses() }, arguments: [], status: 1, code: "policy.class_not_allowed"),
    ]

    @Test(arguments: cases)
    func convertStopsFastWithOneLine(_ input: Case) throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(input.bytes(), named: "input.archive", in: directory)
        let result = try CLIRunner.runMeasured(["convert"] + input.arguments + [file], in: directory)
        #expect(result.status == input.status)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(input.code) == true)
        // CPU time is the work done; wall time on a loaded test machine only gets a sanity bound.
        #expect(result.cpuSeconds < 1.0, "CPU \(result.cpuSeconds) s")
        #expect(result.seconds < 10.0)
        #expect(result.peakKiB < 100 * 1024, "peak RSS \(result.peakKiB) KiB")
    }

    /// 2^40 leaves if expanded: written once per array (later sites `$ref`), it converts at once.
    @Test func aFortyLevelDoublySharedGraphConvertsInProportion() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let bytes = Self.billionLaughs(levels: 40)
        let file = try CLIRunner.write(bytes, named: "laughs.archive", in: directory)
        let result = try CLIRunner.runMeasured(["convert", file], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"root":[[[["#))
        #expect(result.stdout.contains(#"{"$ref":"/root/0"}"#))
        #expect(result.stdout.utf8.count <= 16 * bytes.count)
        #expect(result.cpuSeconds < 1.0, "CPU \(result.cpuSeconds) s")
    }
}
