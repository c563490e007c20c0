import Foundation
@testable import ArchiveGateCore

/// Both shared corpora of real archives (`../shared/real-corpus`, `../shared/peer-corpus`, each
/// with a SOURCES.md), as one list of files, and which of them are sound keyed archives.
enum AppleCorpus {
    static let realCorpus = SharedMaterial.root.appendingPathComponent("real-corpus")

    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: realCorpus.appendingPathComponent("SOURCES.md").path) && SharedMaterial.hasPeerCorpus
    }

    static let absent = "../shared/real-corpus or ../shared/peer-corpus is absent (a clone without ../shared beside it)"

    /// The files real-corpus/SOURCES.md says are not sound keyed archives as their source ships them.
    static let realCorpusUnsound: Set<String> = [
        "dd-plist/87d6270d424c8773_github-issue42.plist",
        "plist-backup/164c5b9a8398819d_com.apple.remindd.plist__nested_accountsListCategorizedCountsCach.bin",
        "plist-backup/d8cf53ed239a8cef_com.apple.remindd.plist__nested_hashtagLabelsInCustomSmartListFil.bin",
    ]

    struct File {
        /// `real-corpus/…` or `peer-corpus/…`.
        let name: String
        let url: URL
        /// A keyed archive that must convert (real corpus: all but the three above; peer corpus:
        /// what `PeerCorpusTests` expects to convert).
        let isSound: Bool
        /// Written by Apple's Foundation, AppKit or UIKit (the real corpus).
        let isAppleWritten: Bool
    }

    static func files() throws -> [File] {
        var result: [File] = []
        for (root, folder) in [(realCorpus, "real-corpus"), (SharedMaterial.peerCorpus, "peer-corpus")] {
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
            }
            for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                guard relative != "SOURCES.md" else { continue }
                let sound = folder == "real-corpus" ? !realCorpusUnsound.contains(relative) : PeerCorpusTests.expected(relative) == .converts
                result.append(File(name: folder + "/" + relative, url: url, isSound: sound, isAppleWritten: folder == "real-corpus"))
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: SharedMaterial.root.appendingPathComponent(name)))
    }

    /// Plain JSON of a file in inspection mode, parsed.
    static func plain(_ name: String) throws -> Any {
        let json = try ArchiveInspector(policy: .inspection).convert(bytes(name), mode: .plain).json ?? []
        return try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
    }

    /// Every JSON object in `value`, walked with an explicit stack.
    static func objects(in value: Any) -> [[String: Any]] {
        var found: [[String: Any]] = []
        var stack: [Any] = [value]
        while let next = stack.popLast() {
            if let object = next as? [String: Any] {
                found.append(object)
                stack.append(contentsOf: object.values)
            } else if let array = next as? [Any] {
                stack.append(contentsOf: array)
            }
        }
        return found
    }
}
