import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Replaces this process with the HTTP server, `archivegate-server` in this executable's folder.
enum ServerHandOver {
    /// The server's file name; the Dockerfile and the scripts install it beside `archivegate`.
    static let programName = "archivegate-server"

    /// Why the server could not be started, as one line for stderr, and the exit code.
    struct Failure {
        let message: String
        let exitCode: Int32
    }

    /// Exit code when the server program is missing or cannot be executed: 69, EX_UNAVAILABLE
    /// from sysexits(3) ("a service is unavailable"), beside the CLI's 64 (EX_USAGE).
    static let unavailableExitCode: Int32 = 69

    /// The server's path: `archivegate-server` in the folder of the running executable
    /// (`/proc/self/exe`, so a symlink or a relative invocation still finds the real folder).
    static func serverPath() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent + "/" + programName
    }

    /// glibc malloc settings the server starts with unless `GLIBC_TUNABLES` is already set: two
    /// arenas, and blocks of 1 MiB and more mapped and unmapped on their own. glibc's defaults (8
    /// arenas per core; an mmap threshold that rises to 32 MiB once a large block is freed) keep
    /// inflation and decode buffers the memory budget already gave back, so the process's RSS
    /// wandered 135–245 MiB over a 128 MiB budget in the same robustness run (held gzip trailers);
    /// with these it stays at 111 MiB and returns to ~40 MiB (docs/MEMORY.md).
    static let mallocTunables = "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=1048576"

    /// Execs the server with `arguments`; returns only when that failed. The environment is passed
    /// on as it is, plus `mallocTunables` when the caller set no `GLIBC_TUNABLES` of its own.
    static func exec(arguments: [String]) -> Failure {
        let path = serverPath()
        setenv("GLIBC_TUNABLES", mallocTunables, 0)  // 0: an operator's own tunables win
        // Signals blocked on this thread would stay blocked in the server (exec keeps the mask),
        // and its graceful shutdown waits for SIGTERM/SIGINT: start it with none blocked, as a shell would.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        fflush(nil)  // all C streams: nothing printed so far may be lost by the exec
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let error = errno
        for pointer in argv { free(pointer) }
        let reason = String(cString: strerror(error))
        if error == ENOENT {
            return Failure(message: "serve: the HTTP server, \(programName), is not installed next to archivegate "
                + "(looked for \(path)); install it there to use `archivegate serve`", exitCode: unavailableExitCode)
        }
        return Failure(message: "serve: cannot run \(path): \(reason)", exitCode: unavailableExitCode)
    }
}
