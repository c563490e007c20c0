import ArchiveGateCore
import Foundation

/// `archivegate-bench`: ours (validate / validate+plain / typed) against Foundation's
/// `NSKeyedUnarchiver` + `JSONSerialization`, on the same bytes, in one run.
///
///     inputs   generated once with Foundation's NSKeyedArchiver, cached in .build-bench-inputs/
///     cases    every (input, engine) runs in its own child process: adaptive N, median time,
///              VmHWM peak memory; a crash or timeout becomes a table entry
///     report   Markdown tables on stdout (and --markdown PATH)
@main
enum BenchmarkMain {
    static func main() {
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("archivegate-bench: \(error)\n\n\(BenchOptions.usage)\n".utf8))
            exit(64)
        }
        switch options.mode {
        case .help:
            print(BenchOptions.usage)
        case .child(let request):
            exit(CaseChild.run(request))
        case .prepareInputs(let names):
            do {
                let cache = InputCache(directory: URL(fileURLWithPath: options.inputsDirectory, isDirectory: true))
                for input in BenchInput.all where names.contains(input.name) {
                    let (bytes, generated) = try cache.bytes(for: input)
                    if let generated {
                        FileHandle.standardError.write(Data("[bench] \(input.name): generated \(bytes.count) bytes with NSKeyedArchiver in \(String(format: "%.1f", generated)) s\n".utf8))
                    }
                    print("\(input.name)\t\(cache.path(for: input))\t\(bytes.count)")
                }
            } catch {
                FileHandle.standardError.write(Data("archivegate-bench: \(error)\n".utf8))
                exit(1)
            }
        case .foundationConvert(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("archivegate-bench: cannot read \(path)\n".utf8))
                exit(1)
            }
            do {
                var json = try FoundationPeer.decodeToJSON(data)
                json.append(0x0A)
                FileHandle.standardOutput.write(json)
            } catch {
                FileHandle.standardError.write(Data("archivegate-bench: Foundation: \(error)\n".utf8))
                exit(1)
            }
        case .parent:
            do {
                try BenchmarkRun(options: options).run()
            } catch {
                FileHandle.standardError.write(Data("archivegate-bench: \(error)\n".utf8))
                exit(1)
            }
        }
    }
}

/// One input's row: its size, object count and the four engines' results.
struct InputRow {
    var input: BenchInput
    var bytes: Int
    var objects: Int
    var results: [Engine: CaseResult] = [:]
}

/// The parent: make inputs, run every case in a child, print the tables.
struct BenchmarkRun {
    let options: BenchOptions

    func run() throws {
        let cache = InputCache(directory: URL(fileURLWithPath: options.inputsDirectory, isDirectory: true))
        let stderrLog = URL(fileURLWithPath: options.inputsDirectory).appendingPathComponent("last-child-stderr.log")
        let started = MonotonicClock.now()
        let loadBefore = Self.loadAverage()
        var rows: [InputRow] = []
        for input in options.inputs {
            progress("\(input.name): preparing input…")
            let (bytes, generated) = try cache.bytes(for: input)
            if let generated {
                progress("\(input.name): generated \(bytes.count) bytes with NSKeyedArchiver in \(String(format: "%.1f", generated)) s")
            }
            // One untimed validation up front: the object count, and proof the strict policy
            // accepts the input (a rejected input would measure the wrong thing).
            let report = try ArchiveInspector(policy: StrictPolicy.make()).validate(bytes)
            guard report.valid else {
                throw BenchError.rejected("\(input.name): \(report.violations.first.map { "\($0.code) \($0.path) \($0.message)" } ?? "?")")
            }
            var row = InputRow(input: input, bytes: bytes.count, objects: report.objectCount)
            for engine in Engine.allCases {
                let request = CaseChild.Request(engine: engine, input: input.name, inputFile: cache.path(for: input),
                                                plan: options.samplingPlan)
                let result = try CaseChild.spawn(request, timeoutSeconds: options.timeoutSeconds, stderrLog: stderrLog)
                row.results[engine] = result
                progress("\(input.name): \(engine.title): " + describe(result, bytes: bytes.count))
            }
            rows.append(row)
        }
        let report = BenchReport(rows: rows, command: commandLine(), seconds: MonotonicClock.seconds(since: started),
                                 loadBefore: loadBefore, loadAfter: Self.loadAverage())
        let markdown = report.markdown()
        print(markdown)
        if let path = options.markdownPath {
            try Data(markdown.utf8).write(to: URL(fileURLWithPath: path))
            progress("tables written to \(path)")
        }
    }

    private func describe(_ result: CaseResult, bytes: Int) -> String {
        guard let seconds = result.medianSeconds, let wall = result.medianWallSeconds else {
            if case .failed(let reason) = result.status { return "failed: \(reason)" }
            return result.statusLabel
        }
        return String(format: "median of %d runs: %.3f ms CPU (%.1f MB/s), %.3f ms wall; peak %d MiB",
                      result.samples.count, seconds * 1e3, Double(bytes) / seconds / 1e6, wall * 1e3, result.peakKiB / 1024)
    }

    /// The first three fields of `/proc/loadavg`.
    static func loadAverage() -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/loadavg") else { return "?" }
        defer { try? handle.close() }
        let fields = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
        return fields.prefix(3).joined(separator: " ")
    }

    private func commandLine() -> String {
        (["archivegate-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    }

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
    }
}
