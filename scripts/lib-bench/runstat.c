/* runstat: runs one command and prints what it cost as a whole process, on one line:
 *
 *     wall_us user_us sys_us maxrss_kib output_bytes exit_code term_signal
 *
 * The command's stdout goes to a file (--out FILE), through a pipe this program drains and counts
 * (--pipe, like `cmd | cat > /dev/null`) or to /dev/null (default). Wall time is from just
 * before fork() to wait4()'s return; CPU time and peak RSS are wait4()'s rusage of the child.
 *
 * Why a C parent: a child's ru_maxrss starts from the RSS of the process that forked it (Linux
 * keeps the pre-exec high-water mark; with vfork/posix_spawn it is the parent's own), so the
 * parent must be tiny; and GNU time prints CPU time in 10 ms steps, too coarse for a 1 KB archive.
 * Compiled by scripts/bench into .build-bench/runstat. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static long long tv_us(struct timeval t) { return (long long)t.tv_sec * 1000000LL + t.tv_usec; }

int main(int argc, char **argv) {
    const char *out = NULL;
    int use_pipe = 0, first = 1;
    while (first < argc && strcmp(argv[first], "--") != 0) {
        if (strcmp(argv[first], "--pipe") == 0) { use_pipe = 1; first += 1; }
        else if (strcmp(argv[first], "--out") == 0 && first + 1 < argc) { out = argv[first + 1]; first += 2; }
        else { fprintf(stderr, "usage: runstat [--pipe | --out FILE] -- command [args...]\n"); return 64; }
    }
    if (first + 1 >= argc) { fprintf(stderr, "usage: runstat [--pipe | --out FILE] -- command [args...]\n"); return 64; }
    char **command = argv + first + 1;

    int fds[2] = {-1, -1};
    if (use_pipe && pipe(fds) != 0) { perror("runstat: pipe"); return 70; }
    long long started = now_us();
    pid_t pid = fork();
    if (pid < 0) { perror("runstat: fork"); return 70; }
    if (pid == 0) {
        int target;
        if (use_pipe) { target = fds[1]; close(fds[0]); }
        else if (out) target = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        else target = open("/dev/null", O_WRONLY);
        if (target < 0 || dup2(target, STDOUT_FILENO) < 0) { perror("runstat: stdout"); _exit(127); }
        if (target != STDOUT_FILENO) close(target);
        execvp(command[0], command);
        perror("runstat: exec");
        _exit(127);
    }
    long long output_bytes = 0;
    if (use_pipe) {
        close(fds[1]);
        static char buffer[1 << 16];
        for (;;) {
            ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n > 0) output_bytes += n;
            else if (n == 0 || errno != EINTR) break;
        }
        close(fds[0]);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) { perror("runstat: wait4"); return 70; }
    }
    long long wall = now_us() - started;
    if (out) {
        FILE *file = fopen(out, "rb");
        if (file) { fseek(file, 0, SEEK_END); output_bytes = ftell(file); fclose(file); }
    }
    printf("%lld %lld %lld %ld %lld %d %d\n", wall, tv_us(usage.ru_utime), tv_us(usage.ru_stime), usage.ru_maxrss,
           output_bytes, WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return 0;
}
