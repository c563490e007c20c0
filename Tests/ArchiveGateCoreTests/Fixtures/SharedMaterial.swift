import Foundation

/// The project's shared material, `../shared` beside the repository: CI and the developers have
/// it, a user's clone does not. Tests that read it carry `.enabled(if: SharedMaterial.hasCorpus, …)`
/// so that without it they show as skipped, with the reason, never as passed.
enum SharedMaterial {
    /// `../shared` relative to the package root (three levels above this file's folder).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("../shared").standardizedFileURL

    /// Real archives from public projects (`corpus/public/SOURCES.md`).
    static let corpus = root.appendingPathComponent("corpus/public")

    static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("SOURCES.md").path) }

    static let corpusAbsent = "../shared/corpus/public is absent (a clone without ../shared beside it)"

    /// Other projects' test vectors and real-device archives (`peer-corpus/SOURCES.md`).
    static let peerCorpus = root.appendingPathComponent("peer-corpus")

    static var hasPeerCorpus: Bool { FileManager.default.fileExists(atPath: peerCorpus.appendingPathComponent("SOURCES.md").path) }

    static let peerCorpusAbsent = "../shared/peer-corpus is absent (a clone without ../shared beside it)"
}
