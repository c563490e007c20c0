import ArchiveGateCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT/SIGTERM: finish the current archive, then report what was tried.
nonisolated(unsafe) var stopRequested = false
/// The archive being tried, for the last words of a driver that traps (a bug in ArchiveGate or here).
nonisolated(unsafe) var currentIndex: UInt64 = 0

/// Writes "ArchiveGateOracle: trapped on archive N" with async-signal-safe calls, then lets the
/// signal take its course.
private func reportTrap(_ signalNumber: Int32) {
    var text = Array("ArchiveGateOracle: trapped (signal \(signalNumber)) on archive ".utf8)
    var digits: [UInt8] = []
    var value = currentIndex
    repeat { digits.append(UInt8(ascii: "0") + UInt8(value % 10)); value /= 10 } while value > 0
    text += digits.reversed() + [0x0A]
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}

/// `ArchiveGateOracle [--seed N] [--start N] [--count N | --smoke] [--only INDEX [--dump DIR]] [--progress N]`
/// runs the differential oracle (scripts/differential); `--worker` is the Foundation side.
@main
enum OracleCommand {
    static let usage = """
    usage: ArchiveGateOracle [--seed N] [--start N] [--count N | --smoke] [--only INDEX [--dump DIR]] [--progress N]
      --seed N       run seed (default 1); archive i of a seed is always the same bytes
      --start N      first archive index (default 0): re-run a window of a long run
      --count N      archives to try (default 10000)
      --smoke        2,500 archives (the ./scripts/test run)
      --only INDEX   try archive INDEX alone and print both sides; --dump DIR writes it to DIR
      --progress N   print the running table every N archives (stderr)
      --seconds N    stop after N seconds (or at SIGINT/SIGTERM) and report the archives tried so far
    exit 0: no false-valid and no wrong-json; 1: some; 64: usage
    """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--worker"] { FoundationWorker.run() }
        // NSKeyedArchiver's output order follows Swift's per-process hash seed; a fixed seed makes
        // archive i of a run the same bytes every time (PLATFORM-NOTES). Re-exec once with it set.
        if getenv("SWIFT_DETERMINISTIC_HASHING") == nil {
            setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
            let path = executablePath()
            var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
            execv(path, &argv)
            fail("cannot re-execute \(path) with SWIFT_DETERMINISTIC_HASHING=1")
        }
        signal(SIGPIPE, SIG_IGN)
        var seed: UInt64 = 1
        var count: UInt64 = 10_000
        var start: UInt64 = 0
        var only: UInt64?
        var dump: String?
        var progress: UInt64 = 0
        var seconds = Double.infinity
        var position = 0
        func value() -> String {
            position += 1
            guard position < arguments.count else { fail("missing value for \(arguments[position - 1])") }
            return arguments[position]
        }
        while position < arguments.count {
            switch arguments[position] {
            case "--seed": seed = UInt64(value()) ?? { fail("--seed takes an integer") }()
            case "--count": count = UInt64(value()) ?? { fail("--count takes an integer") }()
            case "--smoke": count = 2_500
            case "--start": start = UInt64(value()) ?? { fail("--start takes an integer") }()
            case "--only": only = UInt64(value()) ?? { fail("--only takes an integer") }()
            case "--dump": dump = value()
            case "--seconds": seconds = Double(value()) ?? { fail("--seconds takes a number") }()
            case "--progress": progress = UInt64(value()) ?? { fail("--progress takes an integer") }()
            case "--help", "-h": print(usage); exit(0)
            default: fail("unknown argument \(arguments[position])")
            }
            position += 1
        }
        let worker = WorkerClient(executable: executablePath())
        let oracle = Oracle(seed: seed, worker: worker)
        if let only {
            explain(oracle, index: only, dump: dump)
            worker.stop()
            exit(0)
        }
        let started = Date()
        for trap in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] { signal(trap) { reportTrap($0) } }
        signal(SIGINT) { _ in stopRequested = true }
        signal(SIGTERM) { _ in stopRequested = true }
        var tally = Tally()
        var tried: UInt64 = 0
        var generating: UInt64 = 0, classifying: UInt64 = 0
        for index in start ..< start + count {
            if stopRequested || (index % 256 == 0 && Date().timeIntervalSince(started) > seconds) { break }
            tried += 1
            currentIndex = index
            let t0 = DispatchTime.now().uptimeNanoseconds
            let (family, note, bytes) = oracle.archive(at: index)
            let t1 = DispatchTime.now().uptimeNanoseconds
            let (classification, _, _) = oracle.classify(bytes)
            generating += t1 - t0
            classifying += DispatchTime.now().uptimeNanoseconds - t1
            tally.add(index: index, family: family, classification, note: note)
            if progress > 0, tried % progress == 0 {
                let elapsed = Date().timeIntervalSince(started)
                FileHandle.standardError.write(Data("[\(tried) archives, \(Int(elapsed)) s, \(Int(Double(tried) / elapsed))/s, worker starts \(worker.starts)]\n\(tally.table())\n".utf8))
            }
        }
        worker.stop()
        let elapsed = Date().timeIntervalSince(started)
        let stoppedEarly = tried < count ? " (stopped early: \(count) asked)" : ""
        print("differential oracle: seed \(seed), \(tried) archives\(stoppedEarly) in \(String(format: "%.1f", elapsed)) s (\(Int(Double(tried) / max(elapsed, 0.001)))/s), Foundation worker started \(worker.starts) times; \(worker.remembered) repeated archives answered from memory")
        print("time: generating \(generating / 1_000_000) ms, ArchiveGate \(oracle.ourNanoseconds / 1_000_000) ms, Foundation worker \((classifying - oracle.ourNanoseconds) / 1_000_000) ms")
        for (status, entry) in worker.timeByStatus.sorted(by: { $0.key < $1.key }) {
            print("  Foundation \(status): \(entry.count) archives, \(entry.nanoseconds / UInt64(max(entry.count, 1)) / 1000) µs each")
        }
        print("crashes on archives ArchiveGate calls valid, asked again in a new worker: \(worker.freshRetries); not reproduced there (a crash caused by earlier archives in the same child): \(worker.crashesNotReproduced)")
        print(tally.table())
        print(tally.details())
        let failures = tally.count(.falseValid) + tally.count(.wrongJSON) + tally.count(.harnessError)
        print(failures == 0 ? "\nPASS: no false-valid, no wrong-json" : "\nFAIL: \(failures) archives ArchiveGate calls valid disagree with Foundation (or the oracle failed on them)")
        exit(failures == 0 ? 0 : 1)
    }

    /// One archive, both verdicts in full.
    static func explain(_ oracle: Oracle, index: UInt64, dump: String?) {
        let (family, note, bytes) = oracle.archive(at: index)
        // Written and listed before classifying, so an archive that traps ArchiveGate is still shown.
        if let dump {
            let path = "\(dump)/oracle-\(oracle.seed)-\(index).archive"
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            print("written to \(path)")
        }
        if let model = ArchiveModel(bytes: bytes) {
            print("$objects:")
            for (uid, object) in model.objects.enumerated() { print("  \(uid): \(object.compact)") }
            print("header: " + model.header.map { "\($0.key): \($0.value.compact)" }.joined(separator: ", "))
        }
        fflush(nil)
        let (classification, ours, theirs) = oracle.classify(bytes)
        print("archive \(index) (seed \(oracle.seed)): family \(family.rawValue), touched \(note), \(bytes.count) bytes")
        print("outcome: \(classification.outcome.rawValue) \(classification.label)")
        switch ours {
        case .valid(let json): print("ArchiveGate: valid\n  \(String(decoding: json, as: UTF8.self))")
        case .invalid(let rule, let detail): print("ArchiveGate: invalid \(rule) \(detail)")
        }
        print("Foundation: \(theirs.status)\n  \(String(decoding: theirs.payload, as: UTF8.self))")
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("ArchiveGateOracle: \(message)\n\(usage)\n".utf8))
        exit(64)
    }
}
