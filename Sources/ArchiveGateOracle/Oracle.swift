import ArchiveGateCore
import ArchiveGateSeededRandom
import Foundation

/// The differential run: for each index, a Foundation-written archive (from a seeded pool),
/// mutated by one family, judged by ArchiveGate in-process and by Foundation in the worker.
struct Oracle {
    let seed: UInt64
    let worker: WorkerClient
    /// ArchiveGate exactly as `archivegate validate`/`convert` run without `--policy`.
    let inspector = ArchiveInspector(policy: .foundation)
    /// Base archives, the same for every run with this seed whatever `count` is.
    let pool: [[UInt8]]
    static let poolSize = 400
    /// Time spent in ArchiveGate (a class so `classify` can stay non-mutating).
    final class Timing { var ours: UInt64 = 0 }
    let timing = Timing()
    var ourNanoseconds: UInt64 { timing.ours }

    init(seed: UInt64, worker: WorkerClient) {
        self.seed = seed
        self.worker = worker
        var pool: [[UInt8]] = []
        var attempt: UInt64 = 0
        while pool.count < Self.poolSize, attempt < 10 * UInt64(Self.poolSize) {
            var generator = GraphGenerator(random: SeededRandom(seed: seed ^ 0xA5A5_5A5A, index: attempt))
            // Mostly object roots: an inline root (a bare string or number) leaves little to mutate.
            if let archive = generator.archive(), archive.rootClass != "inline" || attempt % 10 == 0 { pool.append(archive.bytes) }
            attempt += 1
        }
        self.pool = pool
    }

    /// The archive with this index and the family that made it.
    func archive(at index: UInt64) -> (family: MutationFamily, note: String, bytes: [UInt8]) {
        var random = SeededRandom(seed: seed, index: index)
        let base = pool[Int(random.next() % UInt64(pool.count))]
        guard let model = ArchiveModel(bytes: base) else { return (.none, "", base) }
        var mutator = Mutator(random: random, model: model)
        let roll = mutator.random.next() % 100
        let family: MutationFamily = roll < 5 ? .none : roll < 15 ? .combined : mutator.random.pick(MutationFamily.single)
        if family == .combined {
            let first = mutator.random.pick(MutationFamily.single)
            var second = mutator.random.pick(MutationFamily.single)
            if second == first { second = .fieldType }
            _ = mutator.apply(first)
            _ = mutator.apply(second)
        } else if !mutator.apply(family) {
            return (.none, "", base)
        }
        return (family, mutator.note, mutator.model.bytes)
    }

    func ourVerdict(_ bytes: [UInt8]) -> OurVerdict {
        do {
            let report = try inspector.validate(bytes)
            guard report.valid else {
                let first = report.violations.first
                return .invalid(rule: first?.code.rawValue ?? "invalid", detail: "\(first?.path ?? ""): \(first?.message ?? "")")
            }
            let inspection = try inspector.convert(bytes, mode: .plain)
            guard let json = inspection.json else { return .invalid(rule: "convert-refused", detail: "") }
            return .valid(json: json)
        } catch {
            return .invalid(rule: error.code.rawValue, detail: "\(error.location): \(error.message)")
        }
    }

    func classify(_ bytes: [UInt8]) -> (Classification, ours: OurVerdict, foundation: (status: WorkerStatus, payload: [UInt8])) {
        let start = DispatchTime.now().uptimeNanoseconds
        let ours = ourVerdict(bytes)
        timing.ours += DispatchTime.now().uptimeNanoseconds - start
        var theirs = worker.decode(bytes)
        if case .valid = ours, theirs.status == .crashed { theirs = worker.decodeOnFreshChild(bytes) }
        // corelibs fails (refuses, or traps further up when a collection receives the nil) on an
        // absent optional key that Apple reads as nil: then Foundation's answer is the one on the
        // archive with those keys written as $null, and agreement there is that known bug.
        var filledOptionalKeys = false
        if case .valid = ours, theirs.status == .refused || theirs.status == .crashed,
           let filled = ArchiveModel(bytes: bytes)?.fillingAbsentOptionalKeys() {
            theirs = worker.decode(filled.bytes)
            if theirs.status == .crashed { theirs = worker.decodeOnFreshChild(filled.bytes) }
            filledOptionalKeys = true
        }
        let message = String(decoding: theirs.payload, as: UTF8.self)
        switch (ours, theirs.status) {
        case (.valid(let json), .decoded):
            // Shared objects expanded over the whole document: a `$ref` in a `$top` member may
            // point into root, and root's into nothing but root.
            guard let mine = (try? JSONParser.parse(json))?.expandingSharedReferences(), let root = mine["root"] else {
                return (Classification(outcome: .wrongJSON, label: "our JSON does not parse", detail: ""), ours, theirs)
            }
            guard let foundation = try? JSONParser.parse(theirs.payload) else {
                return (Classification(outcome: .wrongJSON, label: "worker JSON does not parse", detail: message), ours, theirs)
            }
            // With members beside root, Foundation's answer is the whole `$top` (`FoundationWorker.topMembers`).
            let same: Bool
            if case .object(let pairs) = foundation, pairs.count == 1, pairs[0].key == FoundationJSON.tagMark + "top" {
                same = JSONComparison.equal(mine, pairs[0].value)
            } else {
                same = JSONComparison.equal(root, foundation)
            }
            if same {
                if filledOptionalKeys {
                    return (Classification(outcome: .discounted, label: KnownCorelibsBug.missingOptionalKey.rawValue, detail: ""), ours, theirs)
                }
                return (Classification(outcome: .agreeValid, label: "", detail: ""), ours, theirs)
            }
            return (Classification(outcome: .wrongJSON, label: "graphs differ", detail: ""), ours, theirs)
        case (.invalid, .writerCrashed):
            // corelibs built an object that traps when read (a dictionary from unequal NS.keys and
            // NS.objects): no usable graph, and we refused it.
            return (Classification(outcome: .agreeInvalid, label: "", detail: ""), ours, theirs)
        case (_, .writerCrashed):
            return (Classification(outcome: .harnessError, label: "oracle JSON writer trapped", detail: message), ours, theirs)
        case (.valid, _):
            if theirs.status == .refused || theirs.status == .crashed, let model = ArchiveModel(bytes: bytes),
               let bug = KnownCorelibsBug.explainRefusal(message: message, archive: model) {
                return (Classification(outcome: .discounted, label: bug.rawValue, detail: message), ours, theirs)
            }
            return (Classification(outcome: .falseValid, label: "Foundation \(theirs.status)", detail: message), ours, theirs)
        case (.invalid(let rule, let detail), .decoded):
            return (Classification(outcome: .stricter, label: rule, detail: detail), ours, theirs)
        case (.invalid, _):
            return (Classification(outcome: .agreeInvalid, label: "", detail: ""), ours, theirs)
        }
    }
}
