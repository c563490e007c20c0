import ArchiveGateCore
import Foundation
import Testing

/// `convert` streams its JSON to stdout in chunks; what a failure after the first chunk leaves.
@Suite struct StreamedOutputTests {
    /// An NSArray of `count` distinct strings: its JSON is several 64 KiB chunks long.
    static func bigArchive(count: Int) -> [UInt8] {
        var builder = KeyedArchiveBuilder(capacity: count + 2)
        let strings = (0 ..< count).map { builder.add(.string("element \($0) with \"quotes\" and text")) }
        builder.setTop("root", builder.array(of: strings))
        return builder.binary()
    }

    @Test func largeDocumentIsWrittenWholeAcrossChunks() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(Self.bigArchive(count: 20_000), named: "big.archive", in: directory)
        let result = try CLIRunner.run(["convert", file])
        #expect(result.status == 0)
        #expect(result.stdout.utf8.count > 256 << 10)
        #expect(result.stdout.hasSuffix("]}\n"))
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String]]
        #expect(json?["root"]?.count == 20_000)
        #expect(json?["root"]?.last == "element 19999 with \"quotes\" and text")
    }

    /// The output budget crossed after the first chunk went out: exit 2, the usual `malformed:` line,
    /// a line saying stdout holds an incomplete document, and stdout the document's start only.
    @Test(arguments: ["plain", "typed"])
    func failureAfterFirstChunkExitsNonZeroAndSaysTheOutputIsIncomplete(mode: String) throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(Self.bigArchive(count: 20_000), named: "big.archive", in: directory)
        let full = try CLIRunner.run(["convert", "--mode", mode, file])
        #expect(full.status == 0)
        let limit = full.stdout.utf8.count - 2  // the compact document without its newline, less one byte
        let result = try CLIRunner.run(["convert", "--mode", mode, "--limit", "maxOutputBytes=\(limit)", file])
        #expect(result.status == 3, "a limit is inconclusive")
        #expect(result.stderr.contains("inconclusive: archive.output_limit_exceeded"))
        #expect(result.stderr.contains("output incomplete"))
        #expect(result.stdout.utf8.count >= 64 << 10, "at least one chunk went out before the failure")
        #expect(result.stdout.utf8.count < limit)
        #expect(full.stdout.hasPrefix(result.stdout), "stdout holds the document's start")
        #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) == nil, "and does not parse as a complete document")
    }

    /// A failure before any byte went out leaves stdout empty, as before streaming.
    @Test func failureBeforeTheFirstChunkLeavesStdoutEmpty() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(Self.bigArchive(count: 20_000), named: "big.archive", in: directory)
        let result = try CLIRunner.run(["convert", "--limit", "maxOutputBytes=1000", file])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("output incomplete"))
    }
}
