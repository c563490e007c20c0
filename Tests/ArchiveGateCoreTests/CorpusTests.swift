import Foundation
import Testing
@testable import ArchiveGateCore

/// Every file of the public corpus (`../shared/corpus/public`, SOURCES.md describes them): the
/// valid archives convert in inspection mode to well-formed JSON, the deliberately broken ones fail
/// with their typed error, and none takes long. Skipped, visibly, when the corpus is not there.
@Suite(.enabled(if: SharedMaterial.hasCorpus, Comment(rawValue: SharedMaterial.corpusAbsent)))
struct CorpusTests {
    static let root: URL = SharedMaterial.corpus

    /// The broken files and the code each must fail with.
    static let broken: [String: String] = [
        "go-ios/broken_plist.xml": "plist.not_a_property_list",  // starts with `="1.0"`, not `<`
        "go-ios/wrong_archiver.xml": "archive.unsupported_archiver",  // DummyArchiver
        "bpylist2/invalid_type_archive.plist": "archive.unsupported_archiver",  // NSArchiver
        "bpylist2/invalid_uid_archive.plist": "archive.dangling_uid",  // $top root → UID 10 of 3
        "bpylist2/missing_uid_archive.plist": "archive.missing_class",  // `$classy`, no `$class`
        "bpylist2/no_class_name_archive.plist": "archive.invalid_class_record",  // record with `$classes` but `$class_name` for `$classname`
        "nskeyedunarchiver-php/invalidReference.bin.plist": "archive.dangling_uid",  // root → UID 5 of 3
        "nskeyedunarchiver-php/objectWithNoClassName.bin.plist": "archive.missing_class",  // `$notaclassname`
        "nskeyedunarchiver-php/objectWithNonArrayClassChain.bin.plist": "archive.invalid_class_record",  // $classes: a string
        "nskeyedunarchiver-php/objectWithNonStringClassName.bin.plist": "archive.invalid_class_record",  // $classname: 42
        // Not an archive at all (a plain array containing itself), and its offset table runs 19 bytes
        // into the trailer: the exact-size check refuses it before anything is read.
        "rust-plist/binary_circular_array.plist": "plist.invalid_trailer",
        "nskeyedunarchiver-rs/circularReference.plist": "archive.collection_cycle",  // NSMutableArray containing itself
    ]

    /// Files Foundation's `NSKeyedUnarchiver` would not decode as they are, though their own
    /// projects read them: inspection renders them and lists the shape finding, and the report is
    /// not valid (issue 13).
    static let shapeFindings: [String: [String]] = [
        "bpylist2/nsmutabledata_archive.plist": ["archive.shape_mismatch"],  // NS.data by reference, not inline
        "imessage-exporter/ApplePayRecurring.plist": ["archive.length_mismatch"],  // a 4-byte (anonymized) NS.uuidbytes
        // An NSValue of ObjC type "[3i]" (an old-style array): only scalar types are promised (issue 36).
        "swift-corelibs-foundation/NSKeyedUnarchiver-ConcreteValueTest.plist": ["archive.invalid_value"],
    ]

    /// Small valid archives whose plain JSON is asserted exactly.
    static let exact: [String: String] = [
        "go-ios/nsuuid.bin": #"{"root":"54CD5574-E957-4499-8A09-DAB688C0B586"}"#,
        "nskeyedunarchiver-php/null.bin.plist": #"{"root":null}"#,
        "bpylist2/circular_archive.plist": #"{"root":{"$class":"crap.Foo","recursive":{"$ref":"/root"},"title":"hello"}}"#,
    ]

    /// Every corpus file (not SOURCES.md), relative to the corpus root, sorted.
    static func files() throws -> [String] {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        var files = [String]()
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            if relative != "SOURCES.md" { files.append(relative) }
        }
        return files.sorted()
    }

    @Test func everyFileConvertsOrFailsWithItsCode() throws {
        let files = try Self.files()
        #expect(files.count == 95)
        for name in Self.broken.keys { #expect(files.contains(name), "missing \(name)") }
        for file in files {
            let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent(file)))
            let started = ContinuousClock.now
            let outcome: String
            do {
                let inspection = try ArchiveInspector(policy: .inspection).convert(bytes, mode: .plain)
                let findings = inspection.report.violations.map(\.code.rawValue)
                #expect(findings == Self.shapeFindings[file] ?? [], "\(file)")
                guard inspection.report.violations.isEmpty || Self.shapeFindings[file] == findings, let json = inspection.json else {
                    Issue.record("\(file): rejected by inspection: \(inspection.report.violations.map(\.code.rawValue))")
                    continue
                }
                #expect((try? JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])) != nil,
                        "\(file): not JSON: \(String(decoding: json.prefix(200), as: UTF8.self))")
                #expect(inspection.report.format == (Self.isXML(bytes) ? .xml : .binary), "\(file)")
                if let expected = Self.exact[file] { #expect(String(decoding: json, as: UTF8.self) == expected, "\(file)") }
                outcome = "ok"
            } catch {
                outcome = error.code.rawValue
            }
            #expect(outcome == Self.broken[file] ?? "ok", "\(file)")
            #expect(ContinuousClock.now - started < .seconds(2), "\(file) is slow")
        }
    }

    @Test func validFilesConvertTheSameTwiceInBothModes() throws {
        let files = try Self.files()
        for file in files where Self.broken[file] == nil {
            let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent(file)))
            for mode in OutputMode.allCases {
                let once = try ArchiveInspector(policy: .inspection).convert(bytes, mode: mode)
                let twice = try ArchiveInspector(policy: .inspection).convert(bytes, mode: mode)
                #expect(once.json != nil && once.json == twice.json, "\(file) \(mode)")
                #expect(once.report == twice.report, "\(file) \(mode)")
            }
        }
    }

    @Test func theFoundationPolicyRejectsTheCustomClassesOfTheCorpus() throws {
        let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent("bpylist2/circular_archive.plist")))
        let report = try ArchiveInspector(policy: .foundation).validate(bytes)
        #expect(!report.valid)
        #expect(report.violations.map { "\($0.code) \($0.path) \($0.className ?? "-")" } == ["policy.class_not_allowed /root crap.Foo"])
        #expect(report.classes.first { $0.name == "crap.Foo" }?.claimedClasses == ["crap.Foo", "NSCoder", "NSObject"])
    }

    static func isXML(_ bytes: [UInt8]) -> Bool {
        !bytes.starts(with: Array("bplist".utf8))
    }
}
