import Foundation
import Testing

/// `--class-names keep|drop` and `--nulls keep|drop` on the real binary.
@Suite struct OutputSwitchTests {
    @Test func classNamesDropLeavesTheFields() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let file = try CLIRunner.write(try CLITests.archive(Memo(title: "t", count: 2)), named: "memo.archive", in: directory)
        let result = try CLIRunner.run(["convert", "--allow-any-class", "--class-names", "drop", file])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]]
        #expect(json?["root"]?.keys.sorted() == ["count", "title"])
    }

    @Test func nullsDropRemovesNullMembersAndPrettyStillIndents() throws {
        var name = PersonNameComponents()
        name.givenName = "Ada"
        let bytes = Data(try CLITests.archive(name as NSPersonNameComponents))
        let kept = try CLIRunner.run(["convert", "-"], stdin: bytes)
        #expect(kept.stdout.contains("\"familyName\":null"))
        let dropped = try CLIRunner.run(["convert", "--nulls", "drop", "--pretty", "-"], stdin: bytes)
        #expect(dropped.status == 0)
        #expect(dropped.stdout == "{\n  \"root\": {\n    \"givenName\": \"Ada\"\n  }\n}\n")
    }

    @Test func switchesRefuseTypedMode() throws {
        let result = try CLIRunner.run(["convert", "--mode", "typed", "--nulls", "drop", "-"], stdin: Data(try CLITests.archive("x" as NSString)))
        #expect(result.status == 64)
        #expect(result.stderr.contains("plain mode only"))
    }
}
