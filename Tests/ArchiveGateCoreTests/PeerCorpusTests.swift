import Foundation
import Testing
@testable import ArchiveGateCore

/// Every file of the peer corpus (`../shared/peer-corpus`: other projects' test vectors and
/// real-device archives, SOURCES.md there) converts in inspection mode, or fails with the kind of
/// typed error its source project's own tests expect. Where ArchiveGate deliberately answers
/// otherwise, the table says so and why.
@Suite(.enabled(if: SharedMaterial.hasPeerCorpus, Comment(rawValue: SharedMaterial.peerCorpusAbsent)))
struct PeerCorpusTests {
    /// What a file must give.
    enum Expected: Equatable, CustomStringConvertible {
        /// A keyed archive: converts to JSON in inspection mode.
        case converts
        /// A property list that is not a keyed archive: it parses, then `archive.not_a_keyed_archive`.
        case plainPropertyList
        /// Refused with a code starting with this prefix (`plist.` when the reader must refuse it).
        case refused(String)

        var description: String {
            switch self {
            case .converts: "converts"
            case .plainPropertyList: "archive.not_a_keyed_archive"
            case .refused(let prefix): "refused with \(prefix)…"
            }
        }
    }

    /// The expectation for a file, by folder and name, from the source project's own tests.
    static func expected(_ path: String) -> Expected {
        let folder = String(path.prefix { $0 != "/" })
        let name = String(path.dropFirst(folder.count + 1))
        if let exact = exceptions[path] { return exact }
        switch folder {
        case "cpython":
            // test_plistlib.py: INVALID_BINARY_PLISTS, unsupported tokens and the invalid* XML
            // vectors raise InvalidFileException; everything else loads.
            // ArchiveGate reads the documented set marker 0xC_ (CPython refuses it): the empty set
            // c0 is a plain property list; c1…ce are sets that hold themselves (their references
            // are all 0), which no walk can finish: refused as a cycle, as CoreFoundation does.
            if name == "unsupported_token_c0.bplist" { return .plainPropertyList }
            if name.hasPrefix("unsupported_token_c") && name != "unsupported_token_cf.bplist" { return .refused("archive.collection_cycle") }
            if name.hasPrefix("invalid") || name.hasPrefix("unsupported_token") { return .refused("plist.") }
            return .plainPropertyList
        case "libplist":
            // Regression inputs that crashed or leaked libplist: a typed refusal is the right answer.
            if name.contains("-crashes/") || name.contains("-leaks/") { return .refused("plist.") }
            if name.hasPrefix("xml_behavior/") { return name.contains("rejected") ? .refused("plist.") : .plainPropertyList }
            return .plainPropertyList
        case "bpylist2":
            return name.hasSuffix("_archive.plist") ? .converts : .plainPropertyList
        case "corelibs":
            return name == "Test.plist" ? .plainPropertyList : .converts
        case "go-ios":
            if name.hasPrefix("hardening_") || name.hasPrefix("missing_") || name.hasPrefix("wrong_") || name.hasPrefix("broken_") {
                return .refused("")  // go-ios' own tests expect an error; the code is pinned in `exceptions` where it matters
            }
            return .converts
        case "ileapp":
            return .converts
        case "mvt":
            return name.hasPrefix("manifest_") ? .converts : .plainPropertyList
        default:
            return .converts
        }
    }

    /// Files whose expectation is not their folder's rule.
    static let exceptions: [String: Expected] = [
        // CPython: keyed_archive.bplist is the one archive among its vectors.
        "cpython/keyed_archive.bplist": .converts,
        // CPython raises OverflowError for these dates (beyond datetime's year 9999); ArchiveGate
        // refuses dates outside 0001…9999 as well, since ISO 8601 JSON cannot carry them.
        "cpython/invalid_binary_36_too_large_datetime_datetime_overflow.bplist": .refused("plist.invalid_date"),
        "cpython/invalid_binary_37_too_large_datetime_timedelta_overflow.bplist": .refused("plist.invalid_date"),
        "cpython/not_plist_contents.bin": .refused("plist.not_a_property_list"),
        // test_xml_plist_with_entity_decl expects InvalidFileException: entity declarations are refused.
        "cpython/xml_with_entity_decl.plist": .refused("plist.forbidden_xml_construct"),
        // CPython reads the fill byte 0x0F as empty bytes; it is padding in Apple's format, never a
        // value CoreFoundation returns, so ArchiveGate refuses it as a marker.
        "cpython/singleton_0f.bplist": .refused("plist.invalid_marker"),
        // Integers from -2^63 to 2^64-1: a libplist crash once, a valid property list.
        "libplist/xplist-crashes/crash-348c909a0b3532977185f551eb5d2ed04e694883": .plainPropertyList,
        // libplist: amp.test and invalid_tag.test expect plistutil to fail; recursion.test too.
        "libplist/amp.plist": .refused("plist.invalid_xml"),
        "libplist/invalid_tag.plist": .refused("plist.invalid_xml"),
        "libplist/recursion.bplist": .refused("plist."),
        // empty_keys.test expects success: two empty keys, one holding only a comment. CoreFoundation
        // refuses markup other than CDATA inside <key>, and ArchiveGate reads XML as it does.
        "libplist/empty_keys.plist": .refused("plist.invalid_xml"),
        // malformed_dict.test expects plistutil to fail.
        "libplist/malformed_dict.bplist": .refused("plist."),
        // libplist also reads JSON, OpenStep and .strings; ArchiveGate reads what NSKeyedArchiver
        // writes (binary and XML) and says so.
        "libplist/int64_min_max.json": .refused("plist.not_a_property_list"),
        "libplist/j1.json": .refused("plist.not_a_property_list"),
        "libplist/j2.json": .refused("plist.not_a_property_list"),
        "libplist/o1.ostep": .refused("plist.not_a_property_list"),
        "libplist/o2.ostep": .refused("plist.not_a_property_list"),
        "libplist/o3.ostep": .refused("plist.not_a_property_list"),
        "libplist/test.strings": .refused("plist.not_a_property_list"),
        // bpylist2's test_archiver.py expectations.
        "bpylist2/invalid_type_archive.plist": .refused("archive.unsupported_archiver"),
        "bpylist2/invalid_version_archive.plist": .refused("archive.invalid_version"),
        "bpylist2/no_top_archive.plist": .refused("archive."),
        "bpylist2/no_objects_archive.plist": .refused("archive."),
        "bpylist2/no_class_meta_archive.plist": .refused("archive."),
        "bpylist2/no_class_name_archive.plist": .refused("archive.invalid_class_record"),
        "bpylist2/missing_uid_archive.plist": .refused("archive.missing_class"),
        "bpylist2/invalid_uid_archive.plist": .refused("archive.dangling_uid"),
        // bpylist2 raises MissingTopObjectUID because it decodes only `root`; Foundation writes other
        // `$top` keys (CloudKit records in the iLEAPP set have no `root`), so ArchiveGate renders them.
        "bpylist2/no_root_archive.plist": .converts,
        // bpylist2 raises CircularReference; ArchiveGate renders a cycle through objects as `$ref`.
        "bpylist2/circular_archive.plist": .converts,
        // go-ios: the version checks.
        "go-ios/wrong_version.xml": .refused("archive.invalid_version"),
        "go-ios/missing_version.xml": .refused("archive.invalid_version"),
        "go-ios/hardening_version_is_not_a_uint64.plist": .refused("archive.invalid_version"),
    ]

    /// Every file (not SOURCES.md), relative to the peer corpus, sorted.
    static func files() throws -> [String] {
        let root = SharedMaterial.peerCorpus
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        var files = [String]()
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative != "SOURCES.md" { files.append(relative) }
        }
        return files.sorted()
    }

    @Test func everyFileConvertsOrGetsTheErrorItsSourceExpects() throws {
        let files = try Self.files()
        #expect(files.count >= 490, "the peer corpus shrank: \(files.count) files")
        var mismatches: [String] = []
        for file in files {
            let bytes = try Array(Data(contentsOf: SharedMaterial.peerCorpus.appendingPathComponent(file)))
            let outcome: String
            do {
                let inspection = try ArchiveInspector(policy: .inspection).convert(bytes, mode: .plain)
                if let json = inspection.json, (try? JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])) != nil {
                    outcome = "converts"
                } else {
                    outcome = "not rendered: \(inspection.report.violations.map(\.code.rawValue))"
                }
            } catch {
                outcome = error.code.rawValue
            }
            let expected = Self.expected(file)
            let matches = switch expected {
            case .converts: outcome == "converts"
            case .plainPropertyList: outcome == "archive.not_a_keyed_archive"
            case .refused(let prefix): outcome != "converts" && outcome.hasPrefix(prefix) && outcome.contains(".")
            }
            if !matches { mismatches.append("\(file): expected \(expected), got \(outcome)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }
}
