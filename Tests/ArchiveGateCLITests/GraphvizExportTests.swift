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
