import Testing

/// An input file that cannot be opened is a usage error (64), not a malformed archive (2).
@Suite struct UnreadableInputTests {
    @Test(arguments: [["convert"], ["validate"], ["policy", "suggest"]])
    func aMissingInputFileExitsWithTheUsageCode(command: [String]) throws {
        let result = try CLIRunner.run(command + ["/nonexistent/input.archive"])
        #expect(result.status == 64, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("cannot open '/nonexistent/input.archive'"), "\(result.stderr)")
    }
}
