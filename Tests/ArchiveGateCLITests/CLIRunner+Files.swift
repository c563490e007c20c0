import Foundation

extension CLIRunner {
    /// Runs the binary with stdout and stderr going to files, then reads them: a batch writes
    /// hundreds of kilobytes to both, and reading one pipe to its end while the other fills would
    /// block the child forever.
    static func runToFiles(_ arguments: [String]) throws -> Result {
        let directory = try temporaryDirectory()
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8), seconds: Date().timeIntervalSince(start))
    }
}
