"""scripts/robustness (i): one very large stored result, then the calls that must never read its JSON
(issue 15 found `GET /v1/archives?limit=1` at 0.41 s and +256 MB, `GET /v1/archives/{id}` at 0.74 s and
555 MB for a 723-byte answer, a 304 revalidation at 0.70 s, with a 262 MB row stored).

The result is stored through the API (the 1 MiB string referenced 250 times, gzip-uploaded to
`POST /v1/archives`: 262 MB of JSON; 32 times with --short). Then the server is restarted on the same
store, so its peak RSS (VmHWM) belongs to the reads alone, and the list, the metadata and the 304 are
each timed (best and worst of REPEATS) and the peak measured. The store answers them from columns
(size, hasJSON, report) without touching the JSON blob: each must stay under FAST_SECONDS and the
reads together may add at most GROWTH_MIB to the fresh server's RSS."""

import gzip
import json
import time
import urllib.error
import urllib.request

import harness
from harness import check, say
from memory_attacks import amplifying_archive

REFERENCES = 250        # × a 1 MiB string: 262 MB of JSON, issue 15's stored row
REFERENCES_SHORT = 32   # --short: 34 MB
REPEATS = 5
FAST_SECONDS = 0.25     # per list / metadata / 304 answer
GROWTH_MIB = 48         # what the reads may add to the fresh server's RSS (the JSON alone is 250 MiB)
# Storing the row needs its JSON in memory once: a budget and an amplification factor that allow it.
SETTINGS = {"memory": {"budgetBytes": "1536MiB", "tenantShare": 1.0, "amplificationFactor": 1000}}


def _get(server, tenant, path, headers=None):
    """(status, body, seconds) of one GET."""
    request = urllib.request.Request(f"{server.url}{path}", method="GET")
    request.add_header("Authorization", f"Bearer {tenant.key}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:  # urllib reports a 304 this way too
        status, body = error.code, error.read()
    return status, body, time.monotonic() - started


def scenario_large_stored_result(binary, short):
    references = REFERENCES_SHORT if short else REFERENCES
    archivist = harness.Tenant("archivist", policy={"allow": ["foundation"]})
    upload = gzip.compress(amplifying_archive(references), compresslevel=9)
    say(f"(i) a {references} MiB stored result: the {len(upload):,}-byte gzip of a 1 MiB string referenced "
        f"{references} times, stored with POST /v1/archives, then list / metadata / 304 on a restarted server")
    server = harness.Server(binary, [archivist], label="store server", settings=SETTINGS).start()
    try:
        started = time.monotonic()
        status, _, reply = harness.post(server, archivist, upload, path="/v1/archives?mode=plain",
                                        headers={"Content-Encoding": "gzip"}, timeout=600)
        store_seconds = time.monotonic() - started
        check(status == 201, f"(i) storing answered {status}: {reply[:300]!r}")
        result_id = json.loads(reply)["id"]
        _, store_hwm = server.memory_mib()

        # The same store, a fresh process: its peak RSS is the reads' alone.
        code, _ = server.terminate(timeout=30)
        check(code == 0, f"(i) the store server exited {code} on SIGTERM: {server.log_tail()}")
        server.start()
        baseline, _ = server.memory_mib()

        calls = {
            "list": ("/v1/archives?limit=1", None, 200),
            "metadata": (f"/v1/archives/{result_id}", None, 200),
            "304": (f"/v1/archives/{result_id}/json", {"If-None-Match": f'"{result_id}"'}, 304),
        }
        timings, sizes, failures = {}, {}, []
        for name, (path, headers, expected) in calls.items():
            seconds = []
            for _ in range(REPEATS):
                status, body, elapsed = _get(server, archivist, path, headers)
                if status != expected:
                    failures.append(f"{name} answered {status}, expected {expected}: {body[:200]!r}")
                    break
                seconds.append(elapsed)
                sizes[name] = len(body)
            if seconds:
                timings[name] = (min(seconds), max(seconds))
                if max(seconds) > FAST_SECONDS:
                    failures.append(f"{name} took up to {max(seconds):.3f} s (> {FAST_SECONDS} s)")
        listed = json.loads(_get(server, archivist, "/v1/archives?limit=1")[1])
        if [item.get("id") for item in listed.get("items", [])] != [result_id]:
            failures.append(f"the list does not show the stored result: {str(listed)[:200]}")
        metadata = json.loads(_get(server, archivist, f"/v1/archives/{result_id}")[1])
        if metadata.get("hasJSON") is not True:
            failures.append(f"the metadata says hasJSON {metadata.get('hasJSON')!r}")
        rss, hwm = server.memory_mib()
        growth = hwm - baseline
        if growth > GROWTH_MIB:
            failures.append(f"the reads took the server's peak RSS {growth:.0f} MiB past its {baseline:.0f} MiB "
                            f"after start (> {GROWTH_MIB} MiB): a JSON blob was read")
        check(not failures, "(i) large stored result: " + "; ".join(failures))
        described = ", ".join(f"{name} {low * 1000:.1f}–{high * 1000:.1f} ms ({sizes[name]:,} bytes)"
                              for name, (low, high) in timings.items())
        say(f"(i) passed: stored in {store_seconds:.1f} s (peak {store_hwm:.0f} MiB while storing); after a "
            f"restart {described}; RSS {baseline:.0f} MiB after start, peak {hwm:.0f} MiB after {REPEATS} × each "
            f"(+{growth:.0f} MiB, limit {GROWTH_MIB})")
        return {"timings": timings, "growth": growth, "store_seconds": store_seconds, "store_hwm": store_hwm}
    finally:
        server.stop()
