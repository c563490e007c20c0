import ArchiveGateCore
import Foundation
import Testing

/// The danger-code catalogue: distinct `danger.*` identifiers, every one used by the built-in
/// catalogue, and JSON that shows the bare identifier (reports and metrics depend on it).
@Suite struct DangerCodeTests {
    @Test func everyCodeIsDistinctAndUsedByTheBuiltInCatalogue() {
        let raw = DangerCode.all.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw.allSatisfy { $0.hasPrefix("danger.") })
        #expect(Set(DangerCatalogue.builtIn.entries.map(\.code)) == Set(DangerCode.all))
        #expect(DangerCode.predicate.rawValue == "danger.predicate")
        #expect(DangerCode.bigUTF8String.rawValue == "danger.big_utf8_string")
        #expect(DangerCatalogue.builtIn.entry(.nestedArchive)?.match == .shape(.nestedArchive))
    }

    @Test func encodesAsItsIdentifierAndDecodesBack() throws {
        let encoded = try JSONEncoder().encode([DangerCode.predicate, .urlBookmark])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["danger.predicate","danger.url_bookmark"]"#)
        #expect(try JSONDecoder().decode([DangerCode].self, from: encoded) == [.predicate, .urlBookmark])
        #expect("\(DangerCode.sortDescriptor)" == "danger.sort_descriptor")
    }

    @Test func anUnknownIdentifierIsRefused() {
        #expect(DangerCode(rawValue: "danger.no_such_class") == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DangerCode].self, from: Data(#"["danger.no_such_class"]"#.utf8)) }
    }
}
