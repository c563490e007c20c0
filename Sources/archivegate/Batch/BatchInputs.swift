import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One file a batch will read: where it is and where its output goes in a mirrored tree.
struct BatchInput: Sendable {
    /// The path as opened (argument-relative or absolute, as the user gave it).
    var path: String
    /// The path relative to the folder argument it was found under (the file name for a file argument),
    /// prefixed with that folder's name when several inputs were given.
    var relativePath: String
    /// Its size when listed, for the progress bar's MB and ETA.
    var size: Int
}

/// Lists the files of a batch: folder arguments walked (recursively with `--recursive`), globs applied,
/// symbolic links to folders never followed (a forensic image may loop), order sorted and stable.
enum BatchInputs {
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every input file under `arguments`; a missing argument throws `CLIFailure.usage`.
    static func list(_ arguments: [String], options: BatchOptions) throws -> [BatchInput] {
        var inputs: [BatchInput] = []
        let prefixed = arguments.count > 1
        for argument in arguments {
            var status = stat()
            guard stat(argument, &status) == 0 else {
                throw CLIFailure.usage("cannot open '\(argument)'")
            }
            let prefix = prefixed ? URL(fileURLWithPath: argument).standardized.lastPathComponent + "/" : ""
            if isDirectory(argument) {
                for (path, relative, size) in walk(argument, recursive: options.recursive)
                where selected(relative, options: options) {
                    inputs.append(BatchInput(path: path, relativePath: prefix + relative, size: size))
                }
            } else {
                let name = URL(fileURLWithPath: argument).lastPathComponent
                guard selected(name, options: options) else { continue }
                inputs.append(BatchInput(path: argument, relativePath: name, size: fileSize(argument)))
            }
        }
        return inputs
    }

    /// Include globs (any must match, if given) and exclude globs (none may match), each tried on
    /// the relative path and on the file name, so `*.plist` selects in sub-folders too.
    static func selected(_ relativePath: String, options: BatchOptions) -> Bool {
        if options.include.isEmpty, options.exclude.isEmpty { return true }
        let name = String(relativePath.split(separator: "/").last ?? Substring(relativePath))
        func matches(_ glob: String) -> Bool {
            fnmatch(glob, relativePath, 0) == 0 || fnmatch(glob, name, 0) == 0
        }
        if !options.include.isEmpty, !options.include.contains(where: matches) { return false }
        return !options.exclude.contains(where: matches)
    }

    /// Regular files under `root` as (path, path relative to root, size), sorted by relative path.
    private static func walk(_ root: String, recursive: Bool) -> [(String, String, Int)] {
        var found: [(String, String, Int)] = []
        var pending = [""]
        while let relativeFolder = pending.popLast() {
            let folder = relativeFolder.isEmpty ? root : root + "/" + relativeFolder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names {
                let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                let path = root + "/" + relative
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFREG: found.append((path, relative, Int(status.st_size)))
                case S_IFDIR where recursive: pending.append(relative)
                default: continue  // links, sockets, devices: not followed, not read
                }
            }
        }
        return found.sorted { $0.1 < $1.1 }
    }

    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
