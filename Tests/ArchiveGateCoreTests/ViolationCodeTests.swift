import ArchiveGateCore
import Foundation
import Testing

/// The violation-code catalogue: distinct identifiers, shape codes included, and JSON that shows the
/// bare identifier (reports and problem documents depend on it).
@Suite struct ViolationCodeTests {
    @Test func everyCodeIsDistinctAndShapeCodesAreIncluded() {
        let raw = ViolationCode.all.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(ShapeProblem.Code.all.allSatisfy { ViolationCode.all.contains(ViolationCode($0)) })
        #expect(ViolationCode(ShapeProblem.Code.shapeMismatch).rawValue == "archive.shape_mismatch")
        #expect(ViolationCode.classNotAllowed.rawValue == "policy.class_not_allowed")
    }

    @Test func encodesAsItsIdentifierAndDecodesBack() throws {
        let encoded = try JSONEncoder().encode([ViolationCode.unknownKey, ViolationCode(.nullElement)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["policy.unknown_key","archive.null_element"]"#)
        #expect(try JSONDecoder().decode([ViolationCode].self, from: encoded) == [.unknownKey, ViolationCode(.nullElement)])
    }

    @Test func anUnknownIdentifierIsRefused() {
        #expect(ViolationCode(rawValue: "policy.no_such_rule") == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ViolationCode].self, from: Data(#"["policy.no_such_rule"]"#.utf8)) }
    }
}
