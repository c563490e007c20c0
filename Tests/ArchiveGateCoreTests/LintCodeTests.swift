import ArchiveGateCore
import Foundation
import Testing

/// The lint-code catalogue: distinct `lint.*` identifiers and JSON that shows the bare identifier
/// (`policy check --strict` and tenant start-up errors print it).
@Suite struct LintCodeTests {
    @Test func everyCodeIsDistinct() {
        let raw = LintCode.all.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw == ["lint.any_class", "lint.nsobject", "lint.group_root", "lint.unknown_class"])
    }

    @Test func encodesAsItsIdentifierAndDecodesBack() throws {
        let encoded = try JSONEncoder().encode([LintCode.anyClass, .groupRoot])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["lint.any_class","lint.group_root"]"#)
        #expect(try JSONDecoder().decode([LintCode].self, from: encoded) == [.anyClass, .groupRoot])
        #expect("\(LintCode.nsobject)" == "lint.nsobject")
    }

    @Test func anUnknownIdentifierIsRefused() {
        #expect(LintCode(rawValue: "lint.no_such_rule") == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LintCode].self, from: Data(#"["lint.no_such_rule"]"#.utf8)) }
    }
}
