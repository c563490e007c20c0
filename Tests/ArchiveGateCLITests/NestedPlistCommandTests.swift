import ArchiveGateCore
import Foundation
import Testing

/// `convert --nested` shows a plain property list inside NSData as `{"$plist": …}`.
@Suite struct NestedPlistCommandTests {
    /// `{"root": [<NSData holding {"cipherVersion": 1}>]}`.
    static func archive() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let inner = BinaryPropertyListWriter.write(.dictionary([.init(key: "cipherVersion", value: .integer(1))]))
        builder.setTop("root", builder.array(of: [builder.add(.data(inner))]))
        return builder.binary()
    }

    @Test func convertNestedRendersThePlistInPlace() throws {
        let file = try CLIRunner.write(Self.archive(), named: "plist-in-data.archive", in: try CLIRunner.temporaryDirectory())
        let nested = try CLIRunner.run(["convert", "--allow-any-class", "--nested", file])
        #expect(nested.stdout == #"{"root":[{"$plist":{"cipherVersion":1}}]}"# + "\n", "\(nested.stdout) \(nested.stderr)")
        let flat = try CLIRunner.run(["convert", "--allow-any-class", file])
        #expect(flat.stdout.hasPrefix(#"{"root":["YnBsaXN0MDD"#), "\(flat.stdout)")
        let typed = try CLIRunner.run(["convert", "--allow-any-class", "--nested", "--mode", "typed", file])
        #expect(!typed.stdout.contains("$plist") && typed.stdout.contains(#"{"$data":"YnBsaXN0MDD"#), "\(typed.stdout)")
    }
}
