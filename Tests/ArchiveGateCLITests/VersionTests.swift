import Foundation
import Testing

/// `archivegate --version` prints the string of Sources/ArchiveGateCore/ArchiveGateVersion.swift, the one place the
/// version is written (scripts/build-wheel reads the same file for the Python package).
@Suite struct VersionTests {
    @Test func versionPrintsTheStringOfVersionSwift() throws {
        let source = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Sources/ArchiveGateCore/ArchiveGateVersion.swift"),
                                encoding: .utf8)
        let marker = "static let string = \""
        let start = try #require(source.range(of: marker)).upperBound
        let end = try #require(source[start...].firstIndex(of: "\""))
        let version = String(source[start ..< end])
        #expect(version.first?.isNumber == true)

        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == version + "\n")
        #expect(result.stderr.isEmpty)
    }
}
