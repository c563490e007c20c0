import Foundation

/// Nanosecond monotonic time (`CLOCK_MONOTONIC`), immune to wall-clock changes.
enum MonotonicClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    static func seconds(since start: UInt64) -> Double {
        Double(now() - start) / 1e9
    }
}

/// Nanoseconds of CPU this process has used (`CLOCK_PROCESS_CPUTIME_ID`, all threads). On a shared,
/// oversubscribed machine this is the figure that does not depend on what else runs.
enum ProcessCPUClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// How many times a case runs: enough for about `budgetSeconds`, within `minRuns ... maxRuns`.
struct SamplingPlan: Codable, Sendable {
    var budgetSeconds: Double
    var minRuns: Int
    var maxRuns: Int

    static let standard = SamplingPlan(budgetSeconds: 1.5, minRuns: 3, maxRuns: 5_000)
    static let quick = SamplingPlan(budgetSeconds: 0.2, minRuns: 1, maxRuns: 200)

    /// Runs after a first run of `firstSeconds` (which counts as a sample).
    func totalRuns(firstSeconds: Double) -> Int {
        let fitting = firstSeconds > 0 ? Int(budgetSeconds / firstSeconds) : maxRuns
        return max(minRuns, min(maxRuns, fitting))
    }
}

/// One timed run: wall-clock and process CPU seconds.
struct Sample: Codable, Sendable {
    var wall: Double
    var cpu: Double
}

/// Times `body` per the plan. The first run is a sample too: for the slow cases a separate
/// warm-up would double the cost for no information. N is chosen from the first run's CPU time.
func sample(_ plan: SamplingPlan, _ body: () throws -> Void) throws -> [Sample] {
    func timed() throws -> Sample {
        let wallStart = MonotonicClock.now()
        let cpuStart = ProcessCPUClock.now()
        try body()
        let cpu = Double(ProcessCPUClock.now() - cpuStart) / 1e9
        return Sample(wall: MonotonicClock.seconds(since: wallStart), cpu: cpu)
    }
    var samples = [try timed()]
    let total = plan.totalRuns(firstSeconds: samples[0].cpu)
    samples.reserveCapacity(total)
    while samples.count < total {
        samples.append(try timed())
    }
    return samples
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// This process's resident-set figures from `/proc/self/status`, in KiB.
///
/// `VmHWM` belongs to the address space, so it starts afresh at `exec`; `getrusage`'s
/// `ru_maxrss` does not (a child spawned by a large parent would report the parent's peak).
enum ProcessMemory {
    /// `VmHWM`: the resident-set high-water mark of this process image.
    static var peakKiB: Int { field("VmHWM:") }
    /// `VmRSS`: resident now.
    static var currentKiB: Int { field("VmRSS:") }

    private static func field(_ name: String) -> Int {
        // /proc files report size 0, so read to the end rather than by the stat'ed size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return -1 }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            // "VmHWM:\t   22344 kB"
            let number = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) } ?? -1
        }
        return -1
    }
}
