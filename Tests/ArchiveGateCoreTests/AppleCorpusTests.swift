import Foundation
import Testing
@testable import ArchiveGateCore

/// Apple-written archives (the real corpus) and other projects' vectors (the peer corpus): every
/// sound archive converts in both modes with plain JSON at most 16× its size, nothing Apple wrote is
/// called invalid, the values Apple's layouts hold are in the JSON (name components, catalog
/// colours, exact dates), and every string and number reachable from `$top` appears in the plain
/// JSON or is explained by a rule of docs/FOUNDATION-LAYOUTS.md.
@Suite(.enabled(if: AppleCorpus.isPresent, Comment(rawValue: AppleCorpus.absent)))
struct AppleCorpusTests {
    /// Real archives ArchiveGate still refuses, each for a rule that belongs to Foundation value
    /// validity (issue 36), not to a layout: Apple's NSUUID reads exactly 16 `NS.uuidbytes`.
    static let knownInvalid: [String: String] = [
        "real-corpus/imessage-exporter/4634568a35594952_CheckinEnded.plist": "archive.length_mismatch",
        "real-corpus/imessage-exporter/61c72c31dda8cc10_CheckinLate.plist": "archive.length_mismatch",
        "real-corpus/imessage-exporter/796c2ca2c92c50cd_Sent265.plist": "archive.length_mismatch",
        "real-corpus/imessage-exporter/a457e03c6ccc1bb6_CheckinTimer.plist": "archive.length_mismatch",
        "real-corpus/imessage-exporter/f7cab011e696588c_CheckinLocation.plist": "archive.length_mismatch",
        // An Instagram `externalURL` whose NS.relative NSURL refuses (NSURL's rule, issue 36).
        "real-corpus/plaso/7ba7efde15339ed8_9368974384.db__sqlite_threads.metadata_1.bin": "archive.invalid_value",
        "real-corpus/plaso/900a2b02e01062a6_9368974384.db__sqlite_threads.metadata_2.bin": "archive.invalid_value",
    ]

    @Test func everySoundFileConvertsInBothModesWithinItsSizeBound() throws {
        let files = try AppleCorpus.files().filter(\.isSound)
        #expect(files.count >= 750, "the corpora shrank: \(files.count) sound files")
        var problems: [String] = []
        var largestRatio = 0.0
        for file in files {
            let bytes = try AppleCorpus.bytes(file.name)
            do {
                let inspector = ArchiveInspector(policy: .inspection)
                let plain = try inspector.convert(bytes, mode: .plain)
                let typed = try inspector.convert(bytes, mode: .typed)
                guard let json = plain.json, typed.json != nil else {
                    problems.append("\(file.name): not rendered: \(plain.report.violations.map(\.code.rawValue))")
                    continue
                }
                largestRatio = max(largestRatio, Double(json.count) / Double(bytes.count))
                if json.count > 16 * bytes.count { problems.append("\(file.name): plain JSON \(json.count) bytes from \(bytes.count)") }
                let codes = Set(plain.report.violations.map(\.code.rawValue).filter { $0.hasPrefix("archive.") })
                if file.isAppleWritten, codes != Set(Self.knownInvalid[file.name].map { [$0] } ?? []) {
                    problems.append("\(file.name): called invalid: \(codes.sorted())")
                }
            } catch {
                problems.append("\(file.name): \(error.code.rawValue) \(error)")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
        #expect(largestRatio <= 16)
    }

    /// Apple's NSPersonNameComponents keep the parts in `_NSPersonNameComponentsData`.
    @Test(arguments: [
        ("real-corpus/apple_cloud_notes_parser/5c56ea8c8e0f7809_ZSERVERSHAREDATA.bin", ["Mr Tester", "F P"]),
        ("peer-corpus/ileapp/ba9ab8ad99f40dec.bplist", ["This Is DFIR", "This Is DFIR Two"]),
        ("peer-corpus/ileapp/b874f491ebc2d44f.bplist", ["This Is DFIR", "This Is DFIR Two"]),
    ])
    func cloudKitSharesShowTheirNameComponents(file: String, names: [String]) throws {
        let found = AppleCorpus.objects(in: try AppleCorpus.plain(file)).compactMap { object -> String? in
            guard let given = object["givenName"] as? String, let family = object["familyName"] as? String else { return nil }
            return "\(given) \(family)"
        }
        #expect(Set(found) == Set(names))
    }

    /// AppKit's catalog colours: names and the fallback colour, in place of `archive.invalid_value`.
    @Test func catalogColorsShowTheirNamesAndFallbacks() throws {
        let json = try AppleCorpus.plain("real-corpus/flycut/7fdf478ce2c0611f_DBSyncPrompt.nib")
        let catalog = AppleCorpus.objects(in: json).filter { $0["colorSpace"] as? String == "catalog" }
        let selected = try #require(catalog.first { $0["colorName"] as? String == "selectedTextBackgroundColor" })
        #expect(selected["catalogName"] as? String == "System")
        let fallback = try #require(selected["color"] as? [String: Any])
        #expect(fallback["colorSpace"] as? String == "calibratedWhite")
        #expect((fallback["white"] as? NSNumber)?.doubleValue == 0.6666666667)
        #expect((fallback["alpha"] as? NSNumber)?.doubleValue == 1)
        // Every catalog colour of every real nib has both names and a fallback.
        var count = 0
        for file in try AppleCorpus.files() where file.name.hasSuffix(".nib") {
            for color in AppleCorpus.objects(in: try AppleCorpus.plain(file.name)) where color["colorSpace"] as? String == "catalog" {
                count += 1
                #expect(color["catalogName"] is String && color["colorName"] is String && color["color"] is [String: Any], "\(file.name): \(color)")
            }
        }
        #expect(count >= 221)
    }

    /// NS.time keeps its sub-millisecond digits.
    @Test func datesKeepTheirSubMillisecondParts() throws {
        let json = try AppleCorpus.plain("real-corpus/xcodeproj-tuist/3a5edc9d2fffda33_UserInterfaceState.xcuserstate")
        var strings = Set<String>()
        var stack: [Any] = [json]
        while let next = stack.popLast() {
            if let object = next as? [String: Any] { stack.append(contentsOf: object.values) }
            else if let array = next as? [Any] { stack.append(contentsOf: array) }
            else if let text = next as? String { strings.insert(text) }
        }
        #expect(strings.contains("2023-06-26T13:38:28.623529Z"))
        #expect(strings.contains("2023-06-26T13:38:28.378773Z"))
    }

    @Test func everyReachableStringAndNumberIsInThePlainJSON() throws {
        var missing: [String] = []
        for file in try AppleCorpus.files() where file.isSound {
            let bytes = try AppleCorpus.bytes(file.name)
            guard let json = try ArchiveInspector(policy: .inspection).convert(bytes, mode: .plain).json else { continue }
            let shown = JSONValues(json)
            let archive = try KeyedArchive(plist: PropertyList.read(bytes))
            for value in ReachableValues(archive).values where !value.isExplained && !shown.contains(value) {
                missing.append("\(file.name): \(value.owner).\(value.key) = \(value.text)")
            }
        }
        #expect(missing.isEmpty, "\(missing.count) values not in the plain JSON:\n\(missing.prefix(50).joined(separator: "\n"))")
    }
}
