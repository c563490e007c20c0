import Foundation
import Testing
@testable import ArchiveGateCore

/// The seven real archives Apple's own decoder refuses (docs/FOUNDATION-LAYOUTS.md "Real archives
/// Apple's decoder refuses"): each is refused with the code, pointer and key of the one field at
/// fault, and inspection mode still shows what the archive holds.
@Suite(.enabled(if: AppleCorpus.isPresent, Comment(rawValue: AppleCorpus.absent)))
struct RealCorpusRefusalTests {
    @Test(arguments: [
        ("real-corpus/imessage-exporter/4634568a35594952_CheckinEnded.plist", "archive.length_mismatch", "/root/sessionIdentifier", "NS.uuidbytes", "found 2", #""NS.uuidbytes":"AA8=""#),
        ("real-corpus/imessage-exporter/61c72c31dda8cc10_CheckinLate.plist", "archive.length_mismatch", "/root/sessionIdentifier", "NS.uuidbytes", "found 2", #""NS.uuidbytes":"AA8=""#),
        ("real-corpus/imessage-exporter/a457e03c6ccc1bb6_CheckinTimer.plist", "archive.length_mismatch", "/root/sessionIdentifier", "NS.uuidbytes", "found 2", #""NS.uuidbytes":"AA8=""#),
        ("real-corpus/imessage-exporter/f7cab011e696588c_CheckinLocation.plist", "archive.length_mismatch", "/root/sessionIdentifier", "NS.uuidbytes", "found 2", #""NS.uuidbytes":"AA8=""#),
        ("real-corpus/imessage-exporter/796c2ca2c92c50cd_Sent265.plist", "archive.length_mismatch", "/root/sessionIdentifier", "NS.uuidbytes", "found 28", #""NS.uuidbytes":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==""#),
        ("real-corpus/plaso/7ba7efde15339ed8_9368974384.db__sqlite_threads.metadata_1.bin", "archive.invalid_value", "/root/IGUser*inviter/externalURL", "NS.relative", "NSURL", #""externalURL":"""#),
        ("real-corpus/plaso/900a2b02e01062a6_9368974384.db__sqlite_threads.metadata_2.bin", "archive.invalid_value", "/root/IGUser*inviter/externalURL", "NS.relative", "NSURL", #""externalURL":"""#),
    ])
    func refusedAtTheFieldAppleRefuses(file: String, code: String, path: String, key: String, message: String, shown: String) throws {
        let result = try ArchiveInspector(policy: .inspection).convert(try AppleCorpus.bytes(file), mode: .plain)
        let violations = result.report.violations
        #expect(violations.count == 1)
        let violation = try #require(violations.first)
        #expect(violation.code.rawValue == code)
        #expect(violation.path == path)
        #expect(violation.key == key)
        #expect(violation.message.contains(message), "\(violation.message)")
        #expect(!result.report.valid)
        // Inspection mode still shows what the archive holds: the NSUUID as `{"$class": …}` with
        // its bytes, the NSURL as its (empty) text.
        let json = String(decoding: try #require(result.json), as: UTF8.self)
        #expect(json.contains(shown), "\(json)")
    }
}
