import Foundation

/// Runs the real `archivegate` binary built beside the test bundle.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    static var binary: URL {
        if let override = ProcessInfo.processInfo.environment["ARCHIVEGATE_BIN"] { return URL(fileURLWithPath: override) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("archivegate")
    }

    /// `environment` is added to (and overrides) the test runner's own.
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        let start = Date()
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), seconds: Date().timeIntervalSince(start))
    }

    /// Runs the binary under GNU time (`/usr/bin/time`, installed by scripts/test) with output to
    /// files, and returns its status, output, wall and CPU time, and its own peak RSS.
    ///
    /// Why not `wait4` here: on Linux an exec'd child's `ru_maxrss` includes the RSS of the process
    /// it was spawned from (this ~100 MB test runner), so only a small parent measures it honestly.
    static func runMeasured(_ arguments: [String], in directory: URL) throws -> (status: Int32, stdout: String, stderr: String,
                                                                                    seconds: Double, cpuSeconds: Double, peakKiB: Int) {
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = directory.appendingPathComponent("stderr").path
        let measurePath = directory.appendingPathComponent("measure").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-o", measurePath, "-f", "%M %U %S", binary.path] + arguments
        process.standardOutput = FileHandle(forWritingAtPath: outPath) ?? { FileManager.default.createFile(atPath: outPath, contents: nil); return FileHandle(forWritingAtPath: outPath)! }()
        process.standardError = FileHandle(forWritingAtPath: errPath) ?? { FileManager.default.createFile(atPath: errPath, contents: nil); return FileHandle(forWritingAtPath: errPath)! }()
        let start = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        let measured = ((try? String(contentsOfFile: measurePath, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isNewline).last.map { $0.split(separator: " ") } ?? []
        let peak = measured.first.flatMap { Int($0) } ?? Int.max
        let cpu = measured.count == 3 ? (Double(measured[1]) ?? .infinity) + (Double(measured[2]) ?? .infinity) : .infinity
        // GNU time reports a signalled child as its own failure; keep the child's exit status.
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stdout, stderr, seconds, cpu, peak)
    }

    /// A fresh temporary directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("archivegate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The package root (for config/ files).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
