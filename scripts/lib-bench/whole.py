"""Whole-process figures for scripts/bench: what a user pays per command, beside Foundation and libplist.

Inputs: the benchmark program's own (`archivegate-bench --prepare-inputs`: dense52mb, …) and
`c_large`, the 51.7 MB archive `../shared/bench/gen.swift` writes (compiled with swiftc and run once,
cached beside the others; skipped, with the reason, when ../shared is absent). Issue 32's targets
are printed beside the figures for both.

Every measured command is a separate process started by `runstat` (scripts/lib-bench/runstat.c):
wall time around fork..wait4, CPU time (user + sys) and peak RSS from wait4's rusage. Commands on
the same input run interleaved, round by round, so load from other work on the machine spreads over
all of them alike; each has one unmeasured warm-up run first (page cache, binary pages), except the
slow Foundation peer. Figures are medians; nothing is asserted: the targets are printed beside them.
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Issue 32's targets, whole process, on c_large and dense52mb (the folder-batch and HTTP rows are
# scripts/lib-bench/throughput.py's); the 1 KB CPU target is issue 18's.
CONVERT_MBPS = 320
VALIDATE_MBPS = 500
PLISTUTIL_FACTOR = 10
RSS_FACTOR = 1.5
SMALL_CPU_MS = 8.0
TARGET_INPUTS = ["c_large", "dense52mb"]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GENERATOR = os.path.join(os.path.dirname(ROOT), "shared", "bench", "gen.swift")
# Written by ../shared/bench/gen.swift, not by archivegate-bench.
GENERATED_CASES = {"c_large": "c_large.bplist"}

FULL_CASES = ["1kb", "c_large", "dense52mb", "blobs", "deep5000", "shared100k", "xml2mb", "densexml"]
QUICK_CASES = ["1kb", "dense1mb"]
# Limits raised for inputs past the defaults (the 5,000-deep chain; the default maxDepth is 512).
# Foundation has no such limit: its unarchiver recurses per level and overflows the stack there,
# which the table records as a crash.
LIMIT_OVERRIDES = {"deep5000": ["--limit", "maxDepth=10000"]}


def say(message):
    print(f"[bench] {message}", file=sys.stderr, flush=True)


class Command:
    def __init__(self, label, argv, stdout):
        self.label = label
        self.argv = argv
        self.stdout = stdout  # "file", "pipe" or "null"
        self.samples = []
        self.failure = None


def commands_for(name, path, args, scratch):
    ours = [args.archivegate]
    extra = ["--allow-any-class"] + LIMIT_OVERRIDES.get(name, [])
    json_out = os.path.join(scratch, "out.json")
    commands = [
        Command("`cat` (floor: read the file)", ["cat", path], "null"),
        Command("`archivegate convert` > file", ours + ["convert"] + extra + [path], ("file", json_out)),
        Command("`archivegate convert` \\| pipe", ours + ["convert"] + extra + [path], "pipe"),
        Command("`archivegate validate`", ours + ["validate"] + extra + [path], "null"),
    ]
    if args.baseline:
        # Another build of the CLI (e.g. main before a change), interleaved with ours in the same rounds.
        base = [args.baseline]
        commands += [
            Command("baseline: convert > file", base + ["convert"] + extra + [path], ("file", os.path.join(scratch, "baseline.json"))),
            Command("baseline: convert \\| pipe", base + ["convert"] + extra + [path], "pipe"),
            Command("baseline: validate", base + ["validate"] + extra + [path], "null"),
        ]
    if not args.skip_peers:
        commands += [
            Command("libplist `plistutil` → XML file", ["plistutil", "-i", path, "-o", os.path.join(scratch, "out.plist"), "-f", "xml"], "null"),
            Command("Foundation unarchive + JSONSerialization > file", [args.peer, "--foundation-convert", path],
                    ("file", os.path.join(scratch, "foundation.json"))),
        ]
    return commands


def generated_input(name, inputs_dir):
    """The path of an input `../shared/bench/gen.swift` writes, made once (swiftc, then the program
    with SWIFT_DETERMINISTIC_HASHING=1, ~4 min for c_large) and cached in `inputs_dir`; nil with the
    reason said when the generator is absent or fails."""
    path = os.path.join(inputs_dir, GENERATED_CASES[name])
    if os.path.exists(path):
        return path
    if not os.path.exists(GENERATOR):
        say(f"{name} skipped: {os.path.relpath(GENERATOR, ROOT)} is absent (../shared not laid beside the repository)")
        return None
    binary = os.path.join(inputs_dir, "gen")
    say(f"{name}: compiling {os.path.relpath(GENERATOR, ROOT)} and writing its archives (once; a few minutes)")
    folder = tempfile.mkdtemp(prefix="gen-", dir=inputs_dir)
    try:
        subprocess.run(["swiftc", "-O", "-swift-version", "5", "-module-name", "App", GENERATOR, "-o", binary],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([binary, folder + "/"], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"))
        os.replace(os.path.join(folder, GENERATED_CASES[name]), path)
    except (OSError, subprocess.CalledProcessError) as error:
        say(f"{name} skipped: generating it failed ({error})")
        return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return path


def run_once(runstat, command):
    argv = [runstat]
    if command.stdout == "pipe":
        argv.append("--pipe")
    elif isinstance(command.stdout, tuple):
        argv += ["--out", command.stdout[1]]
    argv += ["--"] + command.argv
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"runstat failed: {done.stderr.strip()}")
    wall, user, system, rss, output, code, signal = (int(field) for field in done.stdout.split())
    sample = {"wall": wall / 1e6, "cpu": (user + system) / 1e6, "rss_kib": rss, "output": output}
    if signal:
        return sample, f"crashed (signal {signal})"
    if code != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1][:160]
        return sample, f"exit {code}: {last}"
    return sample, None


def measure(runstat, commands, runs):
    for command in commands:
        if command.label.startswith("Foundation"):
            continue
        _, failure = run_once(runstat, command)  # warm-up, not counted
        if failure:
            command.failure = failure
    for _ in range(runs):
        for command in commands:
            if command.failure:
                continue
            sample, failure = run_once(runstat, command)
            if failure:
                command.failure = failure
            else:
                command.samples.append(sample)


def median(command, key):
    return statistics.median(sample[key] for sample in command.samples)


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    with open("/proc/loadavg") as load:
        loadavg = " ".join(load.read().split()[:3])
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "nproc": os.cpu_count(),
            "cpu": cpu, "load": loadavg, "kernel": platform.release()}


def fmt_ms(seconds):
    ms = seconds * 1e3
    return f"{ms:,.0f}" if ms >= 100 else (f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}")


def fmt_mbps(size, seconds):
    rate = size / seconds / 1e6
    return f"{rate:,.0f}" if rate >= 100 else (f"{rate:.1f}" if rate >= 10 else f"{rate:.2f}")


def fmt_size(size):
    if size >= 1e6:
        return f"{size / 1e6:.1f} MB"
    if size >= 1e4:
        return f"{size / 1e3:.0f} KB"
    return f"{size:,} B"


def main():
    parser = argparse.ArgumentParser(prog="scripts/bench (whole process)")
    parser.add_argument("--runstat", required=True)
    parser.add_argument("--archivegate", required=True)
    parser.add_argument("--peer", required=True, help="archivegate-bench (generates inputs; the Foundation peer)")
    parser.add_argument("--inputs-dir", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int)
    parser.add_argument("--cases")
    parser.add_argument("--markdown")
    parser.add_argument("--baseline", help="a second archivegate binary measured in the same rounds (before/after)")
    parser.add_argument("--skip-peers", action="store_true", help="leave out plistutil and Foundation (a quick before/after)")
    parser.add_argument("--throughput", default="not measured (whole.py run alone)",
                        help="what the folder-batch and HTTP target rows say (scripts/bench: where those rows are)")
    args = parser.parse_args()
    runs = args.runs or (3 if args.quick else 5)
    names = args.cases.split(",") if args.cases else (QUICK_CASES if args.quick else FULL_CASES)
    scratch = os.path.join(args.inputs_dir, "whole-scratch")
    os.makedirs(scratch, exist_ok=True)

    inputs = {}
    for name in [name for name in names if name in GENERATED_CASES]:
        path = generated_input(name, args.inputs_dir)
        if path:
            inputs[name] = (path, os.path.getsize(path))
    prepared = [name for name in names if name not in GENERATED_CASES]
    listing = subprocess.run([args.peer, "--inputs-dir", args.inputs_dir, "--prepare-inputs", ",".join(prepared)],
                             stdout=subprocess.PIPE, check=True, text=True).stdout if prepared else ""
    for line in listing.splitlines():
        name, path, size = line.split("\t")
        inputs[name] = (path, int(size))
    names = [name for name in names if name in inputs or name not in GENERATED_CASES]
    missing = [name for name in names if name not in inputs]
    if missing:
        raise SystemExit(f"unknown inputs: {', '.join(missing)}")

    before = machine()
    started = time.monotonic()
    results = []
    for name in names:
        path, size = inputs[name]
        commands = commands_for(name, path, args, scratch)
        say(f"{name} ({fmt_size(size)}): {runs} runs of {len(commands)} commands")
        measure(args.runstat, commands, runs)
        for command in commands:
            if command.failure:
                say(f"  {command.label}: {command.failure}")
            else:
                say(f"  {command.label}: wall {fmt_ms(median(command, 'wall'))} ms, CPU {fmt_ms(median(command, 'cpu'))} ms, "
                    f"peak {median(command, 'rss_kib') / 1024:.1f} MiB")
        results.append((name, size, commands))
    after = machine()
    text = render(results, runs, before, after, time.monotonic() - started, args.quick, args.throughput)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text + "\n")


def render(results, runs, before, after, seconds, quick, throughput):
    lines = [
        f"#### Whole process: {before['date']}, nproc {before['nproc']}, {before['cpu']}, Linux {before['kernel']}",
        f"Medians of {runs} runs per command (after one warm-up run; none for Foundation), commands interleaved; "
        f"load average before {before['load']}, after {after['load']}; {seconds:.0f} s. "
        f"MB = 10^6 bytes of archive; ours with `--allow-any-class`; ×plistutil / ×Foundation = their median wall time ÷ ours.",
        "",
        "| input | size | command | wall ms | CPU ms | MB/s (wall) | MB/s (CPU) | peak RSS MiB | RSS ÷ input | output | ×plistutil | ×Foundation |",
        "|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for name, size, commands in results:
        peer = {key: next((c for c in commands if c.label.startswith(prefix) and c.samples), None)
                for key, prefix in (("plistutil", "libplist"), ("foundation", "Foundation"))}
        for command in commands:
            if command.failure or not command.samples:
                lines.append(f"| {name} | {fmt_size(size)} | {command.label} | {command.failure or 'no runs'} | | | | | | | | |")
                continue
            wall, cpu, rss = median(command, "wall"), median(command, "cpu"), median(command, "rss_kib") / 1024
            factors = []
            for key in ("plistutil", "foundation"):
                other = peer[key]
                ours = command.label.startswith("`archivegate")
                factors.append(f"{median(other, 'wall') / wall:.1f}×" if other and ours else "–")
            lines.append(
                f"| {name} | {fmt_size(size)} | {command.label} | {fmt_ms(wall)} | {fmt_ms(cpu)} | {fmt_mbps(size, wall)} | "
                f"{fmt_mbps(size, cpu)} | {rss:.1f} | {rss * 1048576 / size:.2f} | {fmt_size(command.samples[0]['output'])} | "
                f"{factors[0]} | {factors[1]} |")
    lines += ["", targets(results, quick, throughput)]
    return "\n".join(lines)


def targets(results, quick, throughput):
    """Issue 32's target table: every row, the figure beside its target; inputs not measured in
    this run are said so."""
    by_name = {name: (size, {c.label: c for c in commands}) for name, size, commands in results}
    rows = ["| target (issue 32) | input | measured | met |", "|---|---|--:|:-:|"]

    def cmd(name, prefix):
        size, commands = by_name[name]
        found = next((c for label, c in commands.items() if label.startswith(prefix)), None)
        return (size, found) if found and found.samples and not found.failure else (size, None)

    def verdict(ok):
        return "yes" if ok else "**no**"

    inputs = [name for name in TARGET_INPUTS if name in by_name] or (["dense1mb"] if "dense1mb" in by_name else [])
    for name in TARGET_INPUTS:
        if name not in by_name:
            rows.append(f"| convert, validate, peak RSS | {name} | not measured in this run | – |")
    for name in inputs:
        note = name + (" (quick: not a target input)" if name not in TARGET_INPUTS else "")
        size, plist = cmd(name, "libplist")
        _, convert = cmd(name, "`archivegate convert` > file")
        if convert:
            wall = median(convert, "wall")
            rate = size / wall / 1e6
            rows.append(f"| convert plain → file ≥ {CONVERT_MBPS} MB/s (wall) | {note} | {rate:,.0f} MB/s ({size / median(convert, 'cpu') / 1e6:,.0f} by CPU) | {verdict(rate >= CONVERT_MBPS)} |")
            if plist:
                factor = median(plist, "wall") / wall
                rows.append(f"| convert plain → file ≥ {PLISTUTIL_FACTOR}× plistutil (wall) | {note} | {factor:.1f}× ({median(plist, 'cpu') / median(convert, 'cpu'):.1f}× by CPU) | {verdict(factor >= PLISTUTIL_FACTOR)} |")
            else:
                rows.append(f"| convert plain → file ≥ {PLISTUTIL_FACTOR}× plistutil (wall) | {note} | not measured (--skip-peers or plistutil failed) | – |")
        else:
            rows.append(f"| convert plain → file ≥ {CONVERT_MBPS} MB/s (wall) | {note} | failed | **no** |")
        _, validate = cmd(name, "`archivegate validate`")
        if validate:
            rate = size / median(validate, "wall") / 1e6
            rows.append(f"| validate ≥ {VALIDATE_MBPS} MB/s (wall) | {note} | {rate:,.0f} MB/s ({size / median(validate, 'cpu') / 1e6:,.0f} by CPU) | {verdict(rate >= VALIDATE_MBPS)} |")
        for label, command in (("convert", convert), ("validate", validate)):
            if command:
                ratio = median(command, "rss_kib") * 1024 / size
                rows.append(f"| peak RSS ≤ {RSS_FACTOR:g}× input: {label} | {note} | {ratio:.2f}× ({median(command, 'rss_kib') / 1024:.0f} MiB) | {verdict(ratio <= RSS_FACTOR)} |")
    rows.append(f"| folder batch, JSON Lines, `--jobs 2`, ≥ 10,000 files/s | real corpus × ≥ 5,000 files | {throughput} | – |")
    rows.append(f"| HTTP 1 KB validate, 64 connections: ≥ 20,000 req/s, p99 ≤ 10 ms | 1 KB | {throughput} | – |")
    if "1kb" in by_name:
        for label, prefix in (("convert", "`archivegate convert` > file"), ("validate", "`archivegate validate`")):
            _, command = cmd("1kb", prefix)
            if command:
                cpu_ms = median(command, "cpu") * 1e3
                rows.append(f"| 1 KB archive: {label} ≤ {SMALL_CPU_MS:g} ms CPU per call (issue 18) | 1kb | {cpu_ms:.1f} ms (wall {median(command, 'wall') * 1e3:.1f} ms) | {verdict(cpu_ms <= SMALL_CPU_MS)} |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
