"""Files per second over the typedstream corpus: ArchiveGate beside pytypedstream, in one run
(scripts/bench-typedstream; docs/TYPEDSTREAM.md, "Speed beside pytypedstream").

Every command is one whole process over the whole corpus (ArchiveGate: a folder batch, JSON Lines
to /dev/null; pytypedstream: one Python process that reads every file), started here and timed
from fork to wait4, with its CPU time (user + sys) from wait4's rusage. Commands run interleaved,
round by round, after one unmeasured warm-up each, so load from other work on the machine spreads
over all of them alike. Figures are medians; nothing is asserted.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HEADERS = (b"\x04\x0bstreamtyped", b"\x04\x0btypedstream")

# What pytypedstream does per file: its low-level event reader read to the end (`stream`), or its
# high-level unarchiver (`unarchive`, which builds Python objects for the classes it knows).
PYTHON_RUNNER = r"""
import os, sys, typedstream, typedstream.stream as stream
mode, folder = sys.argv[1], sys.argv[2]
ok = failed = 0
for name in sorted(os.listdir(folder)):
    with open(os.path.join(folder, name), "rb") as handle:
        data = handle.read()
    try:
        if mode == "stream":
            with stream.TypedStreamReader.from_data(data) as reader:
                for _ in reader:
                    pass
        else:
            typedstream.unarchive_from_data(data)
        ok += 1
    except Exception:
        failed += 1
print(f"{ok} ok, {failed} failed", file=sys.stderr)
"""


def say(message):
    print(f"[bench-typedstream] {message}", file=sys.stderr, flush=True)


def corpus_files(root):
    """Every file under `root` that starts with a typedstream header."""
    found = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                if handle.read(13) in HEADERS:
                    found.append(path)
    return sorted(found)


def measure(argv):
    """Wall seconds and CPU seconds of one run of `argv` (stdout discarded), and its stderr."""
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    stderr = process.stderr.read().decode("utf-8", "replace")
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, process.returncode, stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--archivegate", required=True)
    parser.add_argument("--python", required=True, help="a Python with pytypedstream installed")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    files = corpus_files(args.corpus)
    total_bytes = sum(os.path.getsize(path) for path in files)
    scratch = tempfile.mkdtemp(prefix="bench-typedstream-")
    try:
        # The same files for everyone, in one flat folder (names are unique: sha256-prefixed).
        folder = os.path.join(scratch, "corpus")
        os.mkdir(folder)
        for path in files:
            shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))
        runner = os.path.join(scratch, "runner.py")
        with open(runner, "w") as handle:
            handle.write(PYTHON_RUNNER)
        ours = [args.archivegate, "convert", "--allow-any-class", "--recursive"]
        commands = [
            ("ArchiveGate `convert` batch, plain JSON, --jobs 1", ours + ["--jobs", "1", folder]),
            ("ArchiveGate `convert` batch, plain JSON, --jobs 2", ours + ["--jobs", "2", folder]),
            ("ArchiveGate `validate` batch, --jobs 1", [args.archivegate, "validate", "--allow-any-class", "--recursive", "--jobs", "1", folder]),
            ("pytypedstream 0.1.0 `unarchive_from_data`", [args.python, runner, "unarchive", folder]),
            ("pytypedstream 0.1.0 stream reader to the end", [args.python, runner, "stream", folder]),
        ]
        samples = {label: [] for label, _ in commands}
        outcomes = {}
        for label, argv in commands:
            _, _, status, stderr = measure(argv)  # warm-up: page cache, binary pages, .pyc files
            lines = stderr.strip().splitlines()
            # ArchiveGate's summary line (counts by verdict), else the runner's "N ok, M failed".
            summary = next((line for line in lines if "summary: " in line and " files, " in line), lines[-1] if lines else "")
            outcomes[label] = (status, re.sub(r" in [0-9.]+ s:", ":", summary))
        for round_number in range(args.runs):
            for label, argv in commands:
                wall, cpu, _, _ = measure(argv)
                samples[label].append((wall, cpu))
            say(f"round {round_number + 1}/{args.runs} done")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"typedstream corpus: {len(files)} files, {total_bytes / 1024:.0f} KiB; medians of {args.runs} runs, whole process")
    print()
    print("| command | wall s | CPU s | files/s (wall) | files/s (CPU) | outcome |")
    print("|---|---:|---:|---:|---:|---|")
    for label, _ in commands:
        wall = statistics.median(sample[0] for sample in samples[label])
        cpu = statistics.median(sample[1] for sample in samples[label])
        status, last = outcomes[label]
        last = last.replace("archivegate: ", "").replace("|", "\\|")
        print(f"| {label} | {wall:.3f} | {cpu:.3f} | {len(files) / wall:,.0f} | {len(files) / cpu:,.0f} | exit {status}: {last} |")


if __name__ == "__main__":
    main()
