import Foundation

/// The two halves of "run each measured case in its own process": the parent re-executes this
/// binary with `--ours-case NAME --mode M` or `--foundation-case NAME`; the child loads the cached
/// input, measures, and prints one `CaseResult` line. A child that crashes (Foundation on hostile
/// shapes) or runs too long becomes a row entry instead of ending the benchmark, and each case's
/// peak memory is its own.
enum CaseChild {
    struct Request: Sendable {
        var engine: Engine
        var input: String
        var inputFile: String
        var plan: SamplingPlan
    }

    /// Child side: measure and print. Never throws; a failure is a result too.
    static func run(_ request: Request) -> Int32 {
        var result = CaseResult(engine: request.engine, input: request.input, status: .ok)
        result.startKiB = ProcessMemory.currentKiB
        do {
            let body = try request.engine.prepare(inputFile: request.inputFile)
            var outputBytes = 0
            result.samples = try sample(request.plan) { outputBytes = try body() }
            result.outputBytes = outputBytes
        } catch {
            result.status = .failed(String(describing: error))
        }
        result.peakKiB = ProcessMemory.peakKiB
        print(result.encodedLine())
        return 0
    }

    /// Parent side: run one case in a child and wait for it (killing it after `timeoutSeconds`).
    static func spawn(_ request: Request, timeoutSeconds: Double, stderrLog: URL) throws -> CaseResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try selfExecutablePath())
        var arguments = request.engine == .foundation
            ? ["--foundation-case", request.input]
            : ["--ours-case", request.input, "--mode", request.engine.rawValue]
        arguments += ["--input-file", request.inputFile,
                      "--budget", String(request.plan.budgetSeconds),
                      "--min-runs", String(request.plan.minRuns), "--max-runs", String(request.plan.maxRuns)]
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: stderrLog.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        process.standardInput = FileHandle.nullDevice

        try process.run()
        let watchdog = Watchdog(process)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) { watchdog.fire() }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let timedOut = watchdog.disarm()

        if process.terminationReason == .uncaughtSignal {
            return CaseResult(engine: request.engine, input: request.input,
                              status: timedOut ? .timedOut(timeoutSeconds) : .crashed(process.terminationStatus))
        }
        if let result = CaseResult.parse(output: String(decoding: output, as: UTF8.self)) {
            return result
        }
        let reason = (try? String(contentsOf: stderrLog, encoding: .utf8))?
            .split(separator: "\n").last.map(String.init) ?? "no result line"
        return CaseResult(engine: request.engine, input: request.input,
                          status: .failed("exit \(process.terminationStatus): \(reason)"))
    }

    private static func selfExecutablePath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}

/// Kills a child that runs past its time limit, and remembers whether it did.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private let process: Process
    private var fired = false
    private var disarmed = false

    init(_ process: Process) {
        self.process = process
    }

    func fire() {
        lock.withLock {
            guard !disarmed, process.isRunning else { return }
            fired = true
            process.terminate()
        }
    }

    /// Stops any later firing; returns whether it had fired.
    func disarm() -> Bool {
        lock.withLock {
            disarmed = true
            return fired
        }
    }
}
