"""Profile summary for docs/BENCHMARKS.md: `perf record` one whole-process command, then print its top
symbols (self time) and the share of time in page faults, copying, hashing, allocation and
reference counting, by symbol name.

    python3 scripts/lib-bench/profile.py --out /tmp/p -- .build-release/release/archivegate validate --allow-any-class FILE
    python3 scripts/lib-bench/profile.py --passes --out /tmp/p -- …   # also the share of each pass (call graphs)

perf here samples the cpu-clock software event (no hardware counters on these VMs); shares are of all
samples of the process, kernel included. The buckets are heuristics on symbol names, listed below.
"""

import argparse
import re
import subprocess
import sys

BUCKETS = [
    ("page faults (kernel: fault handling, zeroing and mapping new pages)",
     re.compile(r"clear_page|page_fault|handle_mm_fault|do_anonymous_page|__handle_mm_fault|alloc_pages|"
                r"get_page_from_freelist|rmqueue|do_user_addr_fault|exc_page_fault|lru_|folio|memcg|"
                r"set_pte|zap_|unmap_page|release_pages|free_unref|free_pcppages|__mod_lruvec|mm_", re.I)),
    ("copying (memmove/memcpy, kernel copy to/from user)",
     re.compile(r"memmove|memcpy|copy_user|copy_to_user|copy_from_user|_copy_|copyContents|_copyContents", re.I)),
    ("hashing (Hasher, SipHash, Set/Dictionary lookups)",
     re.compile(r"Hasher|siphash|SipHash|hashValue|_hash\(|find.*Hash|NativeSet|NativeDictionary|_HashTable", re.I)),
    ("allocation (malloc/free, Swift object allocation)",
     re.compile(r"malloc|free|swift_allocObject|swift_deallocObject|swift_slowAlloc|swift_slowDealloc|_int_|"
                r"cfree|calloc|realloc|tcache", re.I)),
    ("reference counting (retain/release)",
     re.compile(r"swift_retain|swift_release|swift_bridgeObjectRetain|swift_bridgeObjectRelease|"
                r"swift_unknownObject|swift_isUniquelyReferenced", re.I)),
    ("kernel, other (syscalls, read/write, exit)", re.compile(r"^\[k\]")),
]

# With --passes: each sample is charged to the first of these frames found on its stack (innermost
# pass first, so the plist reader's own passes before the reader as a whole); the rest is start-up,
# exit and the kernel. Names are demangled Swift (`swift demangle --simplified`).
PASSES = [
    ("offset table (validateOffsetTable)", "BinaryPropertyListReader.validateOffsetTable"),
    ("decode objects (+ coverage)", "PropertyListObjectTable.filled"),
    ("duplicate keys (DictionaryKeyRules)", "DictionaryKeyRules.check"),
    ("plist reader, other", "BinaryPropertyListReader.read"),
    ("XML reader", "XMLPropertyListReader"),
    ("classify (KeyedArchive.init)", "KeyedArchive.init(plist:maxObjects:classTag:)"),
    ("policy walk (PolicyEvaluator)", "PolicyEvaluator.evaluate"),
    ("output write (JSONStreamPipeline → sink)", "JSONStreamPipeline"),
    ("render plain (PlainRenderer)", "PlainRenderer.render"),
    ("render typed (TypedRenderer)", "TypedRenderer.render"),
    ("CLI, other (arguments, input mapping)", "Command.run"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="perf.data path")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--frequency", type=int, default=4999)
    parser.add_argument("--passes", action="store_true", help="record call graphs and print the share of each pass")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command and args.command[0] == "--" else args.command
    subprocess.run(["perf", "record", "-F", str(args.frequency)] + (["-g"] if args.passes else []) + ["-o", args.out, "--"] + command,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = subprocess.run(["perf", "report", "-i", args.out, "--stdio", "--no-children", "--sort", "sym",
                             "--percent-limit", "0"], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+(\[[k.]\])\s+(.*)$", line)
        if match:
            rows.append((float(match.group(1)), match.group(2), match.group(3).strip()))
    names = demangle_all([symbol for _, _, symbol in rows])
    rows = [(share, kind, name) for (share, kind, _), name in zip(rows, names)]
    total = sum(share for share, _, _ in rows)
    print(f"samples: {total:.1f} % attributed to {len(rows)} symbols")
    print(f"\ntop {args.top} symbols (self):")
    for share, kind, symbol in rows[: args.top]:
        print(f"  {share:5.1f} %  {kind} {symbol[:150]}")
    print("\nby kind (first matching bucket wins):")
    shares = {name: 0.0 for name, _ in BUCKETS}
    for share, kind, symbol in rows:
        name = symbol
        for bucket, pattern in BUCKETS:
            text = f"{kind} {name}" if bucket.startswith("kernel, other") else name
            if (kind == "[k]" or not bucket.startswith("page faults")) and pattern.search(text):
                shares[bucket] += share
                break
    for bucket, share in shares.items():
        print(f"  {share:5.1f} %  {bucket}")
    if args.passes:
        print_passes(args.out)


def print_passes(data):
    """The share of samples whose stack holds each pass's frame (the first in PASSES wins)."""
    script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], check=True, capture_output=True, text=True).stdout
    stacks, current = [], []
    for line in script.splitlines():
        parts = line.split(None, 1)
        if not parts:
            if current:
                stacks.append(current)
            current = []
        elif len(parts) == 2:
            current.append(re.sub(r"\+0x[0-9a-f]+$", "", parts[1]))
    if current:
        stacks.append(current)
    symbols = sorted({symbol for stack in stacks for symbol in stack})
    names = dict(zip(symbols, demangle_all(symbols)))
    counts = {label: 0 for label, _ in PASSES}
    other = 0
    for stack in stacks:
        frames = [names.get(symbol, symbol) for symbol in stack]
        label = next((label for label, name in PASSES if any(name in frame for frame in frames)), None)
        if label:
            counts[label] += 1
        else:
            other += 1
    total = max(1, len(stacks))
    print(f"\nby pass ({len(stacks)} samples with call graphs; a sample counts for the first pass on its stack):")
    for label, count in counts.items():
        if count:
            print(f"  {100 * count / total:5.1f} %  {label}")
    print(f"  {100 * other / total:5.1f} %  start-up, exit, kernel, other")


def demangle_all(symbols):
    """Swift symbols demangled in one `swift demangle` call (perf prints them mangled)."""
    try:
        text = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols),
                              capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return list(symbols)
    return text if len(text) == len(symbols) else list(symbols)


if __name__ == "__main__":
    sys.exit(main())
