import ArgumentParser
import Foundation

/// The flags that turn `convert` and `validate` into batch commands over folders.
///
/// Batch mode starts when any input is a folder or any of these flags is given; a single file with
/// none of them keeps the one-file behaviour (and output) the commands always had.
struct BatchOptions: ParsableArguments {
    @Flag(name: .long, help: "Descend into sub-folders of every folder argument.")
    var recursive = false

    @Option(name: .long, help: ArgumentHelp("Only files whose name or relative path matches this glob, e.g. '*.plist' (repeatable).", valueName: "glob"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Leave out files whose name or relative path matches this glob (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(name: .long, help: ArgumentHelp("Files decoded in parallel (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Write one <relative path>.json per converted file under this folder (a mirrored tree) instead of JSON Lines on stdout.", valueName: "dir"))
    var out: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a positive number; got \(jobs)") }
    }

    /// True when a batch flag was given (a folder argument also means batch mode).
    var requested: Bool { recursive || !include.isEmpty || !exclude.isEmpty || jobs != nil || out != nil }

    /// True when batch mode applies to `paths`.
    func applies(to paths: [String]) -> Bool {
        requested || paths.contains { BatchInputs.isDirectory($0) }
    }

    /// The worker count: `--jobs`, else the active core count.
    var workerCount: Int { jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
