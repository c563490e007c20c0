"""scripts/bench --throughput: issue 32's two front-end rows, each with its target beside it.

1. Folder batch: the release `archivegate convert --jobs 2 --allow-any-class DIR > out.jsonl` (JSON
   Lines on stdout) and `archivegate validate --jobs 2 DIR > out.jsonl` over a temporary folder of
   small real archives (`../shared/real-corpus` copied until it holds at least 5,000 files), each
   run as its own process; files per second of wall time (fork to exit), medians of N runs.
2. HTTP: wrk (scripts/lib-load's harness: a throw-away config, one tenant, config/load's policy)
   POSTing the 1 KB archive to /v1/validate of a release `archivegate serve`, 64 connections, wrk
   and the server on the same cores; req/s and p99 of each run, medians of N runs, and the
   server's CPU per request (comparable across runs when other work shares the machine).

With --baseline BIN, another build is measured in the same rounds (round by round, alternating), so
load from other work on the machine falls on both alike: before/after. Figures are printed, never
asserted. docs/BENCHMARKS.md, "Throughput: folder batch and HTTP".

    python3 scripts/lib-bench/throughput.py --archivegate .build-release/release/archivegate
    python3 scripts/lib-bench/throughput.py --archivegate NEW --baseline OLD --runs 5 --only batch
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib-load"))
os.environ.setdefault("LG_NAME", "bench")
import harness  # noqa: E402

# Issue 32's targets for the two rows.
BATCH_TARGET_FILES_PER_SECOND = 10_000
HTTP_TARGET_RPS = 20_000
HTTP_TARGET_P99_MS = 10.0
MINIMUM_FILES = 5_000


def say(message):
    print(f"bench: throughput: {message}", file=sys.stderr, flush=True)


def make_folder(corpus, minimum):
    """A temporary flat folder holding copies of every file under `corpus` until there are at least
    `minimum` files (copy k of `a/b.plist` is `c<k>-a_b.plist`)."""
    sources = sorted(os.path.join(folder, name) for folder, _, names in os.walk(corpus) for name in names
                     if os.path.isfile(os.path.join(folder, name)) and not os.path.islink(os.path.join(folder, name)))
    harness.check(sources, f"no files under {corpus}")
    folder = tempfile.mkdtemp(prefix="archivegate-throughput-")
    copies = -(-minimum // len(sources))
    for copy in range(1, copies + 1):
        for source in sources:
            name = f"c{copy}-" + os.path.relpath(source, corpus).replace(os.sep, "_")
            shutil.copyfile(source, os.path.join(folder, name))
    return folder, len(sources) * copies, sum(os.path.getsize(s) for s in sources) * copies


def batch_commands(jobs):
    """(label, arguments before the folder). Both write JSON Lines to stdout."""
    return [
        ("convert --allow-any-class", ["convert", "--jobs", str(jobs), "--allow-any-class"]),
        ("validate (default policy)", ["validate", "--jobs", str(jobs)]),
    ]


def run_batch(binary, arguments, folder, output, errors):
    """(wall seconds, user + system CPU seconds, summary line) of one batch process: stdout to
    `output`, stderr to `errors` (read back for the summary). CPU time from wait4's rusage: the
    figure that stays comparable when other work shares the cores."""
    with open(output, "wb") as out, open(errors, "wb") as err:
        started = time.monotonic()
        process = subprocess.Popen([binary, *arguments, folder], stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.monotonic() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    with open(errors, errors="replace") as err:
        stderr = err.read()
    summary = [line for line in stderr.splitlines() if "summary: " in line]
    # Exit 1–3 are verdicts (a rejected or malformed file in the batch), not a failed run.
    harness.check(process.returncode in (0, 1, 2, 3) and summary,
                  f"{' '.join(arguments)} exited {process.returncode}: {stderr[-600:]!r}")
    return seconds, usage.ru_utime + usage.ru_stime, summary[0].split("summary: ", 1)[1]


def measure_batch(builds, args):
    folder, files, size = make_folder(args.corpus, args.min_files)
    scratch = tempfile.mkdtemp(prefix="archivegate-throughput-out-")
    rows = []
    try:
        say(f"folder batch: {files:,} files, {size / 1e6:.1f} MB in {folder}; {args.runs} runs after a warm-up")
        for label, arguments in batch_commands(args.jobs):
            times = {name: [] for name, _ in builds}
            cpus = {name: [] for name, _ in builds}
            summaries = {}
            for round_ in range(args.runs + 1):
                for name, binary in builds:
                    seconds, cpu, summary = run_batch(binary, arguments, folder, os.path.join(scratch, "out.jsonl"),
                                                      os.path.join(scratch, "err.txt"))
                    if round_:
                        times[name].append(seconds)
                        cpus[name].append(cpu)
                    summaries[name] = summary
            for name, _ in builds:
                median = statistics.median(times[name])
                cpu = statistics.median(cpus[name])
                rows.append({"build": name, "label": label, "files": files, "seconds": median, "cpu": cpu,
                             "rate": files / median, "runs": times[name], "summary": summaries[name]})
                say(f"{name}: {label}: {files / median:,.0f} files/s, {1000 * cpu / files:.3f} ms CPU per file (median of "
                    f"{len(times[name])}: " + ", ".join(f"{s:.3f}" for s in times[name]) + f" s wall); {summaries[name]}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    return rows


def measure_http(builds, args):
    harness.install_signal_cleanup()
    results = {name: [] for name, _ in builds}
    for round_ in range(args.runs):
        for name, binary in builds:
            tenant = harness.Tenant("throughput")
            server = harness.Server(binary, [tenant], label=f"{name} server", settings=harness.UNCAPPED_UPLOADS).start()
            try:
                harness.check_fixture_accepted(server, tenant, "1k")
                if args.warmup:
                    harness.Wrk(server, tenant, "1k", args.connections, args.warmup).result()
                metrics_before, cpu_before = server.metrics(), server.cpu_seconds()
                result = harness.Wrk(server, tenant, "1k", args.connections, args.duration).result()
                served = sum(harness.metrics_delta(metrics_before, server.metrics()).values())
                result["cpu_ms"] = 1000 * (server.cpu_seconds() - cpu_before) / served if served else 0.0
                harness.check(not result["status"] and not result["socket_errors"],
                              f"{name}: non-2xx {result['status']}, socket errors {result['socket_errors']}")
                results[name].append(result)
                say(f"{name}: round {round_ + 1}: {harness.describe(result)}; server CPU {result['cpu_ms']:.3f} ms/request")
            finally:
                server.stop()
    rows = []
    for name, _ in builds:
        runs = results[name]
        rows.append({"build": name, "rps": statistics.median(r["rps"] for r in runs),
                     "p50_ms": statistics.median(r["p50_us"] for r in runs) / 1000,
                     "p99_ms": statistics.median(r["p99_us"] for r in runs) / 1000,
                     "cpu_ms": statistics.median(r["cpu_ms"] for r in runs),
                     "runs": [(r["rps"], r["p99_us"] / 1000) for r in runs]})
    return rows


def render(batch_rows, http_rows, args, before, after):
    lines = [f"#### Throughput (issue 32), {before['date']}, nproc {before['nproc']}, {before['cpu']}",
             f"load average before {before['load']}, after {after['load']}; medians of {args.runs} runs", ""]
    if batch_rows:
        lines += [f"Folder batch: `archivegate … --jobs {args.jobs} DIR > out.jsonl` (JSON Lines), "
                  f"{batch_rows[0]['files']:,} files (`{os.path.join(os.path.basename(os.path.dirname(os.path.abspath(args.corpus))), os.path.basename(os.path.abspath(args.corpus)))}` copied), whole process, wall time",
                  "", "| build | command | files/s | wall s | CPU ms per file | runs (wall s) | target | met |",
                  "|---|---|--:|--:|--:|---|---|:-:|"]
        for row in batch_rows:
            met = row["rate"] >= BATCH_TARGET_FILES_PER_SECOND
            lines.append(f"| {row['build']} | `{row['label']}` | {row['rate']:,.0f} | {row['seconds']:.3f} | "
                         f"{1000 * row['cpu'] / row['files']:.3f} | "
                         + ", ".join(f"{s:.3f}" for s in row["runs"])
                         + f" | ≥ {BATCH_TARGET_FILES_PER_SECOND:,} files/s | {'yes' if met else '**no**'} |")
        lines.append("")
    if http_rows:
        lines += [f"HTTP: wrk, {args.connections} connections, POST /v1/validate with the 1 KB archive "
                  f"(config/load), {args.duration:g} s runs after {args.warmup:g} s warm-up, wrk and server on the same cores, log level info",
                  "", "| build | req/s | p50 ms | p99 ms | server CPU ms/req | runs (req/s, p99 ms) | target | met |",
                  "|---|--:|--:|--:|--:|---|---|:-:|"]
        for row in http_rows:
            met = row["rps"] >= HTTP_TARGET_RPS and row["p99_ms"] <= HTTP_TARGET_P99_MS
            lines.append(f"| {row['build']} | {row['rps']:,.0f} | {row['p50_ms']:.2f} | {row['p99_ms']:.2f} | {row['cpu_ms']:.3f} | "
                         + ", ".join(f"{rps:,.0f} / {p99:.1f}" for rps, p99 in row["runs"])
                         + f" | ≥ {HTTP_TARGET_RPS:,} req/s, p99 ≤ {HTTP_TARGET_P99_MS:g} ms | {'yes' if met else '**no**'} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(prog="scripts/lib-bench/throughput.py")
    parser.add_argument("--archivegate", required=True, help="the release archivegate (archivegate-server beside it)")
    parser.add_argument("--baseline", help="another archivegate build measured in the same rounds")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(ROOT), "shared", "real-corpus"))
    parser.add_argument("--min-files", type=int, default=MINIMUM_FILES)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--duration", type=float, default=10, help="seconds of each wrk run")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--only", choices=["batch", "http"])
    parser.add_argument("--quick", action="store_true", help="3 runs, 5 s wrk runs")
    parser.add_argument("--markdown", help="also write the tables to this file")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.duration = min(args.runs, 3), min(args.duration, 5)
    builds = [("ours", os.path.abspath(args.archivegate))]
    if args.baseline:
        builds = [("baseline", os.path.abspath(args.baseline))] + builds
    before = harness.machine()
    batch_rows, http_rows = [], []
    if args.only != "http":
        if os.path.isdir(args.corpus):
            batch_rows = measure_batch(builds, args)
        else:
            say(f"folder batch skipped: {args.corpus} is absent")
    if args.only != "batch":
        harness.check(shutil.which("wrk"), "wrk is not installed (scripts/lib-load/common.sh lg_need_wrk)")
        http_rows = measure_http(builds, args)
    table = render(batch_rows, http_rows, args, before, harness.machine())
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(table + "\n")


if __name__ == "__main__":
    try:
        main()
    except harness.Failure as failure:
        say(f"FAIL: {failure}")
        sys.exit(1)
