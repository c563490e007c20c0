import Foundation
import Testing

/// A custom class whose instances point at each other (archived as `ArchiveGateCLITests.Link`).
final class Link: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String
    var next: Link?

    init(name: String) { self.name = name }

    required init?(coder: NSCoder) {
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? ""
        next = coder.decodeObject(of: Link.self, forKey: "next")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(next, forKey: "next")
    }
}

/// `convert --format dot` on a cyclic graph, parsed back and checked with Graphviz's `dot`.
@Suite struct GraphvizExportTests {
    static func cycle() throws -> String {
        let first = Link(name: "first")
        let second = Link(name: "second \"quoted\"")
        first.next = second
        second.next = first
        let directory = try CLIRunner.temporaryDirectory()
        return try CLIRunner.write(try CLITests.archive([first] as NSArray), named: "cycle.archive", in: directory)
    }

    /// The graph's nodes (id → label) and edges (from, to, label), read back from the DOT text.
    static func parse(_ dot: String) -> (nodes: [String: String], edges: [(String, String, String)]) {
        var nodes: [String: String] = [:]
        var edges: [(String, String, String)] = []
        let edge = /^\s*(\w+) -> (\w+) \[label="((?:[^"\\]|\\.)*)"/
        let node = /^\s*(n\d+) \[label="((?:[^"\\]|\\.)*)"/
        for line in dot.split(separator: "\n") {
            if let match = line.firstMatch(of: edge) {
                edges.append((String(match.1), String(match.2), String(match.3)))
            } else if let match = line.firstMatch(of: node) {
                nodes[String(match.1)] = String(match.2)
            }
        }
        return (nodes, edges)
    }

    @Test func aCycleIsDrawnWithKeysOnEdgesAndTheRejectedClassInRed() throws {
        let result = try CLIRunner.run(["convert", "--format", "dot", try Self.cycle()])
        #expect(result.status == 1, "the foundation policy rejects Link: \(result.stderr)")
        #expect(result.stdout.hasPrefix("digraph archive {\n") && result.stdout.hasSuffix("}\n"))
        let (nodes, edges) = Self.parse(result.stdout)
        let links = nodes.filter { $0.value.hasPrefix("ArchiveGateCLITests.Link") }
        #expect(links.count == 2)
        // The policy walk stops at the first object it refuses: that one is marked.
        #expect(links.values.filter { $0.contains("policy.class_not_allowed") }.count == 1)
        #expect(nodes.values.contains("\\\"second \\\"quoted\\\"\\\""))
        // The cycle: each Link's `next` edge reaches the other.
        let nextEdges = edges.filter { $0.2 == "next" }
        #expect(nextEdges.count == 2)
        #expect(Set(nextEdges.map(\.0)) == Set(links.keys) && Set(nextEdges.map(\.1)) == Set(links.keys))
        #expect(edges.contains { $0.0 == "top" && $0.2 == "root" })
        #expect(edges.contains { $0.2 == "NS.objects[0]" && links.keys.contains($0.1) })
        let redLines = result.stdout.split(separator: "\n").filter { $0.contains("color=red") }
        #expect(redLines.count == 3)  // the refused Link and the `name` and `next` edges leaving it
    }

    /// A batch draws one `<relative path>.dot` per archive under --out: a valid one, a rejected one
    /// (its refused object in red), none for a malformed or non-plist file; the summary counts them.
    @Test func aBatchDrawsOneGraphPerArchiveUnderOut() throws {
        let input = try CLIRunner.temporaryDirectory()
        let nested = input.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let cycleFirst = Link(name: "first")
        cycleFirst.next = Link(name: "second")
        _ = try CLIRunner.write(try CLITests.archive([cycleFirst] as NSArray), named: "links.archive", in: input)
        _ = try CLIRunner.write(try CLITests.archive(["a", 1] as NSArray), named: "plain.archive", in: nested)
        _ = try CLIRunner.write(Array("bplist00cut".utf8), named: "cut.archive", in: input)
        _ = try CLIRunner.write(Array("just text".utf8), named: "notes.txt", in: input)
        let out = try CLIRunner.temporaryDirectory().appendingPathComponent("graphs")
        let result = try CLIRunner.runToFiles(["convert", "--format", "dot", "--recursive", "--out", out.path, input.path])
        #expect(result.status == 2, "worst is the malformed file: \(result.stderr.suffix(400))")
        #expect(result.stdout.isEmpty)
        let drawn = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dot") }.sorted()
        #expect(drawn == ["links.archive.dot", "sub/plain.archive.dot"])
        let links = try String(contentsOf: out.appendingPathComponent("links.archive.dot"), encoding: .utf8)
        #expect(links.hasPrefix("digraph archive {\n") && links.contains("policy.class_not_allowed") && links.contains("color=red"))
        let plain = try String(contentsOf: out.appendingPathComponent("sub/plain.archive.dot"), encoding: .utf8)
        #expect(Self.parse(plain).edges.contains { $0.2 == "NS.objects[0]" } && !plain.contains("color=red"))
        // Inline scalars are labelled with their value: the string quoted, the number as written.
        let plainNodes = Self.parse(plain).nodes
        #expect(plainNodes.values.contains("\\\"a\\\"") && plainNodes.values.contains("1"), "\(plainNodes)")
        #expect(result.stderr.contains(": 1 drawn, 1 rejected, 1 malformed, 1 skipped (not a property list)"), "\(result.stderr.suffix(400))")
        let noOut = try CLIRunner.runToFiles(["convert", "--format", "dot", input.path])
        #expect(noOut.status != 0 && noOut.stderr.contains("--format dot in a batch needs --out DIR"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dot"), "Graphviz dot is not installed (scripts/bootstrap test)"))
    func graphvizAcceptsTheOutput() throws {
        let graph = try CLIRunner.run(["convert", "--allow-any-class", "--format", "dot", try Self.cycle()])
        #expect(graph.status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
        process.arguments = ["-Tplain"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data(graph.stdout.utf8))
        try input.fileHandleForWriting.close()
        let plain = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // `-Tplain` lists one "node" line per node and one "edge" line per edge of the laid-out graph.
        let parsed = Self.parse(graph.stdout)
        #expect(plain.split(separator: "\n").filter { $0.hasPrefix("node ") }.count == parsed.nodes.count + 1)
        #expect(plain.split(separator: "\n").filter { $0.hasPrefix("edge ") }.count == parsed.edges.count)
    }
}
