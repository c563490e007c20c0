import ArchiveGateTestSupport
import Dispatch
import Glibc

/// Child processes for tests (gzip bombs, a TLS server) via `posix_spawn`.
///
/// Not Foundation's `Process`: a child inherits the spawning thread's signal mask, and dispatch
/// and cooperative-pool threads block most signals, so a `Process` started from a test could
/// ignore `terminate()` forever. Here the mask and dispositions are reset, children are killed
/// with SIGKILL, and blocking waits run on a dispatch queue, off Swift's cooperative pool.
struct Subprocess {
    let pid: pid_t

    /// Starts `arguments[0]` (an absolute path) with stdin and stderr on /dev/null and stdout on
    /// `stdout` (/dev/null when nil).
    static func spawn(_ arguments: [String], stdout: Int32? = nil) throws -> Subprocess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw TestServerError("posix_spawn \(arguments[0]): \(result)") }
        return Subprocess(pid: pid)
    }

    /// Kills the child and reaps it.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        _ = wait()
    }

    /// Waits for the child to end; its exit status (or -1 when killed by a signal).
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    /// Standard output of `/bin/sh -c script`, which must exit 0.
    static func shell(_ script: String) async throws -> [UInt8] {
        let result: Result<[UInt8], TestServerError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "test-subprocess").async {
                continuation.resume(returning: runShell(script))
            }
        }
        return try result.get()
    }

    private static func runShell(_ script: String) -> Result<[UInt8], TestServerError> {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failure(TestServerError("pipe: \(errno)")) }
        // Close-on-exec, so children spawned concurrently don't inherit (and hold open) the pipe.
        fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        let child: Subprocess
        do {
            child = try spawn(["/bin/sh", "-c", script], stdout: fds[1])
        } catch {
            close(fds[0]); close(fds[1])
            return .failure(error as? TestServerError ?? TestServerError("\(error)"))
        }
        close(fds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        close(fds[0])
        let status = child.wait()
        return status == 0 ? .success(output) : .failure(TestServerError("\(script) exited with \(status)"))
    }
}
