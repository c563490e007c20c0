import Foundation
import Testing
@testable import ArchiveGateCore

/// `policy suggest` accepts its own samples: for each group of the real corpus (each subfolder of
/// `../shared/real-corpus` is one app's archives), the policy suggested from the group is loaded and
/// the real evaluator checks every sample of the group under it, nested archives decoded.
@Suite(.enabled(if: AppleCorpus.isPresent, Comment(rawValue: AppleCorpus.absent)))
struct PolicySuggesterCorpusTests {
    /// What a policy suggested from some files makes of each of them.
    struct Fit {
        var policy: Policy
        var json: String
        /// Samples the suggested policy accepts.
        var accepted: [String] = []
        /// Samples it does not accept, with the first violation or finding code.
        var refused: [String: String] = [:]
        /// Samples with a Foundation object whose fields do not match its class (`archive.*`): the
        /// inspection policy, which admits every class, refuses them too.
        var unfitForAnyPolicy: Set<String> = []
        /// Files that are no keyed archive (malformed, a plain property list).
        var notArchives: Set<String> = []
        var nestedArchives = 0
    }

    static func fit(_ files: [URL], relativeTo root: URL) throws -> Fit {
        var suggester = PolicySuggester()
        var samples: [(String, [UInt8])] = []
        var unfit = Set<String>()
        var notArchives = Set<String>()
        var nested = 0
        for url in files {
            let name = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            let bytes = Array(try Data(contentsOf: url))
            do {
                let observation = try suggester.addSample(ByteStorage(bytes), label: name)
                samples.append((name, bytes))
                nested += observation.nestedArchives
                if !observation.shapeViolations.isEmpty { unfit.insert(name) }
            } catch {
                notArchives.insert(name)
            }
        }
        let json = suggester.policyJSON(name: "fit")
        var fit = Fit(policy: try Policy.load(json: Array(json.utf8), name: "fit"), json: json)
        fit.unfitForAnyPolicy = unfit
        fit.notArchives = notArchives
        fit.nestedArchives = nested
        let inspector = ArchiveInspector(policy: fit.policy, decodesNestedArchives: true)
        for (name, bytes) in samples {
            let report = try inspector.validate(bytes)
            if report.verdict == .accepted {
                fit.accepted.append(name)
            } else {
                fit.refused[name] = report.violations.first?.code.rawValue ?? report.unacknowledgedFindings.first?.code.rawValue
                    ?? report.verdict.description
            }
        }
        return fit
    }

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    /// The groups: every subfolder of the real corpus (none when it is absent; the suite is then skipped).
    static let groups: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: AppleCorpus.realCorpus.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: AppleCorpus.realCorpus.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }()

    @Test func everyGroupIsTested() {
        #expect(Self.groups.count >= 19, "the real corpus has 19 groups; found \(Self.groups)")
    }

    @Test(arguments: groups)
    func aPolicySuggestedFromAGroupAcceptsEverySampleOfIt(group: String) throws {
        let folder = AppleCorpus.realCorpus.appendingPathComponent(group)
        let fit = try Self.fit(Self.files(in: folder), relativeTo: AppleCorpus.realCorpus)
        // Every sample is accepted, but those no policy can accept: their Foundation objects do not
        // match their class, and the evaluator says so under any policy.
        #expect(Set(fit.refused.keys) == fit.unfitForAnyPolicy, "\(group): refused \(fit.refused)")
        for name in fit.unfitForAnyPolicy {
            #expect(fit.refused[name]?.hasPrefix("archive.") == true, "\(name): \(fit.refused[name] ?? "accepted")")
        }
        // The files that are no keyed archive are the three SOURCES.md names.
        #expect(fit.notArchives == AppleCorpus.realCorpusUnsound.filter { $0.hasPrefix(group + "/") })
        if !Self.files(in: folder).isEmpty, fit.notArchives.count < Self.files(in: folder).count {
            #expect(!fit.accepted.isEmpty, "\(group): no sample accepted")
        }
    }

    /// The issue's case: 8 of the 35 iLEAPP archives failed a policy suggested from themselves
    /// (inline `$top` booleans, nested archives neither acknowledged nor decoded).
    @Test func iLEAPPSamplesAllFitTheirPolicy() throws {
        let folder = SharedMaterial.peerCorpus.appendingPathComponent("ileapp")
        let fit = try Self.fit(Self.files(in: folder), relativeTo: SharedMaterial.peerCorpus)
        #expect(fit.accepted.count == 35, "refused: \(fit.refused)")
        #expect(fit.refused.isEmpty)
        #expect(fit.policy.root?.inlineKinds.contains(.bool) == true, "inline $top booleans are allowed for")
        #expect(fit.nestedArchives > 0)
        #expect(fit.policy.acknowledged.isSuperset(of: ["NSData", "NSMutableData"]), "nested archives are acknowledged by name")
    }

    /// The issue's CloudKit case: 3 of 4 samples failed the policy suggested from all four.
    @Test func cloudKitSamplesAllFitTheirPolicy() throws {
        let root = AppleCorpus.realCorpus
        let files = Self.files(in: root.appendingPathComponent("apple_cloud_notes_parser")) + [
            "plaso/a476fc3cca882170_NoteStore.sqlite__sqlite_ZICCLOUDSYNCINGOBJECT.ZUNAPPLIEDE.bin",
            "plaso/0fd31bc7e77b0d88_NoteStore.sqlite__sqlite_ZICCLOUDSYNCINGOBJECT.ZSERVERRECO.bin",
        ].map { root.appendingPathComponent($0) }
        let fit = try Self.fit(files, relativeTo: root)
        #expect(fit.accepted.count == 4, "refused: \(fit.refused)")
        #expect(fit.policy.root?.inlineKinds == [.bool, .integer])
        #expect(fit.policy.root?.names.isSuperset(of: ["CKRecord", "CKRecordID"]) == true)
    }
}
