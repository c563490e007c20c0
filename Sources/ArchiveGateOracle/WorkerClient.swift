import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The driver's end of the Foundation worker (`FoundationWorker`): sends an archive, waits for
/// the answer with a timeout, and starts a new worker if the old one is gone or stuck.
final class WorkerClient {
    private let executable: String
    private let timeoutMilliseconds: Int32
    private var process: Process?
    private var requestFD: Int32 = -1
    private var answerFD: Int32 = -1
    /// Workers started, counting the first.
    private(set) var starts = 0

    init(executable: String, timeoutMilliseconds: Int32 = 5000) {
        self.executable = executable
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Nanoseconds and answers per status, for the run summary.
    private(set) var timeByStatus: [String: (count: Int, nanoseconds: UInt64)] = [:]

    /// Answers already known, by archive bytes: Foundation is deterministic, and mutations of a
    /// pool of base archives repeat (`$version` values, unmutated bases). Bounded.
    private var answers: [[UInt8]: (status: WorkerStatus, payload: [UInt8])] = [:]
    private static let maxRemembered = 100_000
    /// Archives answered from `answers`.
    private(set) var remembered = 0

    /// What Foundation did with `archive`.
    func decode(_ archive: [UInt8]) -> (status: WorkerStatus, payload: [UInt8]) {
        if let known = answers[archive] {
            remembered += 1
            return known
        }
        var answer = measuredDecode(archive)
        // A stall of the shared machine is not Foundation's answer: up to three more tries, each on a
        // fresh worker (seed 7 --only 638825 timed out twice at load 20+ in a 1 M run; alone it answers).
        for _ in 0 ..< 3 where answer.status == .timedOut { answer = measuredDecode(archive) }
        if answer.status != .timedOut, answers.count < Self.maxRemembered { answers[archive] = answer }
        return answer
    }

    /// Crashes on archives ArchiveGate calls valid that were asked again on a fresh child, and
    /// how many of those the fresh child decoded or refused without crashing.
    private(set) var freshRetries = 0
    private(set) var crashesNotReproduced = 0

    /// What Foundation does with `archive` in a child with no history. A decoding child answers
    /// requests until it dies, so a crash can come from state earlier archives left in that child
    /// (seed 7 `--only 676675` crashed in the 1 M runs, decodes alone). A new worker's first child
    /// has no history: its answer is the archive's own, and replaces the remembered one. Rare (a
    /// crash on an archive ArchiveGate calls valid), so the cost of a new worker does not matter.
    func decodeOnFreshChild(_ archive: [UInt8]) -> (status: WorkerStatus, payload: [UInt8]) {
        freshRetries += 1
        stop()
        let answer = measuredDecode(archive)
        if answer.status != .crashed, answer.status != .timedOut {
            crashesNotReproduced += 1
            answers[archive] = answer
        }
        return answer
    }

    private func measuredDecode(_ archive: [UInt8]) -> (status: WorkerStatus, payload: [UInt8]) {
        let start = DispatchTime.now().uptimeNanoseconds
        let answer = exchange(archive)
        let key = answer.status == .crashed ? "crashed (\(String(decoding: answer.payload, as: UTF8.self)))" : "\(answer.status)"
        let entry = timeByStatus[key] ?? (0, 0)
        timeByStatus[key] = (entry.count + 1, entry.nanoseconds + DispatchTime.now().uptimeNanoseconds - start)
        return answer
    }

    private func exchange(_ archive: [UInt8]) -> (status: WorkerStatus, payload: [UInt8]) {
        for _ in 0 ..< 2 {
            if process == nil { start() }
            var request = [UInt8(archive.count & 0xFF), UInt8(archive.count >> 8 & 0xFF), UInt8(archive.count >> 16 & 0xFF), UInt8(archive.count >> 24 & 0xFF)]
            request += archive
            guard writeFully(request) else { stop(); continue }
            guard let header = readFully(5) else {
                let timedOut = lastReadTimedOut
                stop()
                if timedOut { return (.timedOut, Array("no answer within \(timeoutMilliseconds) ms".utf8)) }
                return (.crashed, Array("worker exited".utf8))
            }
            let length = Int(header[1]) | Int(header[2]) << 8 | Int(header[3]) << 16 | Int(header[4]) << 24
            guard let payload = readFully(length), let status = WorkerStatus(rawValue: header[0]) else { stop(); continue }
            return (status, payload)
        }
        return (.crashed, Array("worker could not be started".utf8))
    }

    func stop() {
        if let process {
            // The worker leads its own process group: this also ends a child stuck in a loop.
            kill(-process.processIdentifier, SIGKILL)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        if requestFD >= 0 { close(requestFD) }
        if answerFD >= 0 { close(answerFD) }
        requestFD = -1
        answerFD = -1
        process = nil
    }

    private func start() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--worker"]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let requests = Pipe(), answers = Pipe()
        process.standardInput = requests
        process.standardOutput = answers
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return }
        requestFD = dup(requests.fileHandleForWriting.fileDescriptor)
        answerFD = dup(answers.fileHandleForReading.fileDescriptor)
        try? requests.fileHandleForWriting.close()
        try? answers.fileHandleForReading.close()
        self.process = process
        starts += 1
    }

    private var lastReadTimedOut = false

    private func writeFully(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(requestFD, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }

    private func readFully(_ length: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: length)
        var done = 0
        lastReadTimedOut = false
        while done < length {
            var poller = pollfd(fd: answerFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeoutMilliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { lastReadTimedOut = true; return nil }
            let count = buffer.withUnsafeMutableBytes { read(answerFD, $0.baseAddress! + done, length - done) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return nil }
            done += count
        }
        return buffer
    }
}
