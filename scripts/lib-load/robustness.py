"""scripts/robustness: eleven scenarios against a release `archivegate serve`, each asserting its
outcome (see scripts/robustness and docs/RELIABILITY.md)."""

import argparse
import asyncio
import collections
import gzip
import json
import os
import random
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import config_attacks  # noqa: E402
import harness  # noqa: E402
import memory_attacks  # noqa: E402
import slot_attacks  # noqa: E402
import store_attacks  # noqa: E402
import write_attacks  # noqa: E402
from harness import Failure, check, say  # noqa: E402

HEADER_TIMEOUT = 2   # s: http.headerTimeoutSeconds of the test server
IDLE_TIMEOUT = 4     # s: http.idleTimeoutSeconds
BODY_TIMEOUT = 6     # s: http.bodyTimeoutSeconds
# Which timeout must cut each kind of slow client.
TIMEOUT_OF = {"header": HEADER_TIMEOUT, "silent": HEADER_TIMEOUT, "stalled": IDLE_TIMEOUT, "trickle": BODY_TIMEOUT}
CUT_SLACK = 3.0      # s: how late a cut may come (2 shared cores, 1,000 sockets, wrk alongside)
CUT_EARLY = 0.25     # fraction of its timeout before which a cut is too early
NOT_CUT_CAP = 15.0   # s past its timeout after which a slow connection counts as never cut


def read_fixture(case):
    with open(harness.FIXTURES[case], "rb") as file:
        return file.read()


# ---- (a) slow connections ------------------------------------------------------------------------

class SlowStats:
    def __init__(self):
        self.cuts = collections.defaultdict(list)          # kind -> [seconds from reference to cut]
        self.not_cut = collections.defaultdict(int)        # kind -> connections open past the limit
        self.responses = collections.defaultdict(collections.Counter)  # kind -> first status line seen
        self.connect_errors = collections.Counter()
        self.open_now = 0
        self.open_max = 0
        self.lag = 0.0                                     # worst event-loop lag seen (s)


async def slow_connection(kind, port, tenant, start_delay, deadline, stats):
    """One slow client, reopened each time the server cuts it, until the deadline.
    header: sends a request line and then one header byte every 0.5 s (never completing the head);
    silent: connects and sends nothing; stalled: sends a complete head and 1 KB of a 200 KB body,
    then nothing; trickle: a complete head, then one body byte every 0.5 s (inside the idle timeout).
    header/silent must be cut by the header timeout, stalled by the idle timeout, trickle by the
    body timeout.
    One pending read per connection (until EOF) and a completion callback that notes the time keep
    the client cheap: with 1,000 sockets on 2 busy cores the event loop itself lags (measured by
    loop_lag and allowed for in the bound)."""
    limit = TIMEOUT_OF[kind]
    await asyncio.sleep(start_delay)
    while time.monotonic() + limit + CUT_SLACK < deadline:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
        except (OSError, asyncio.TimeoutError) as error:
            stats.connect_errors[f"{kind}: {type(error).__name__}"] += 1
            await asyncio.sleep(0.5)
            continue
        stats.open_now += 1
        stats.open_max = max(stats.open_max, stats.open_now)
        reference = time.monotonic()
        ended = []
        reading = asyncio.ensure_future(reader.read(-1))
        reading.add_done_callback(lambda _: ended.append(time.monotonic()))
        try:
            if kind == "header":
                writer.write(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            elif kind in ("stalled", "trickle"):
                writer.write((f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              f"Authorization: Bearer {tenant.key}\r\nContent-Type: application/octet-stream\r\n"
                              f"Content-Length: 200000\r\n\r\n").encode() + (b"\0" * 1000 if kind == "stalled" else b""))
                reference = time.monotonic()
            dripping = kind in ("header", "trickle")
            cap = reference + limit + NOT_CUT_CAP
            while not reading.done() and time.monotonic() < cap:
                await asyncio.wait({reading}, timeout=0.5 if dripping else cap - time.monotonic())
                if dripping and not reading.done():
                    writer.write(b"a" if kind == "header" else b"\0")
            if not reading.done():
                stats.not_cut[kind] += 1
                reading.cancel()
            else:
                error = reading.exception()
                answer = b"" if error else reading.result()
                first = answer.split(b"\r\n", 1)[0].decode(errors="replace")
                stats.cuts[kind].append((ended[0] if ended else time.monotonic()) - reference)
                stats.responses[kind][f"({type(error).__name__})" if error else first or "(closed without a response)"] += 1
        except (ConnectionResetError, BrokenPipeError):
            stats.cuts[kind].append(time.monotonic() - reference)
            stats.responses[kind]["(reset on write)"] += 1
        finally:
            stats.open_now -= 1
            writer.close()


async def loop_lag(deadline, stats):
    """How late the event loop runs a 50 ms sleep: the measurement error of every cut time."""
    while time.monotonic() < deadline:
        before = time.monotonic()
        await asyncio.sleep(0.05)
        stats.lag = max(stats.lag, time.monotonic() - before - 0.05)


async def slow_clients(port, tenant, count, duration, stats):
    deadline = time.monotonic() + duration
    kinds = ["header"] * (count // 2) + ["silent"] * (count // 4) + ["trickle"] * (count // 20)
    kinds += ["stalled"] * (count - len(kinds))
    tasks = [asyncio.create_task(slow_connection(kind, port, tenant, index / count, deadline, stats))
             for index, kind in enumerate(kinds)]
    tasks.append(asyncio.create_task(loop_lag(deadline, stats)))
    await asyncio.gather(*tasks)


def scenario_slow(server, calm, short):
    count = 1000
    duration = 14 if short else 60
    say(f"(a) {count} slow connections for {duration} s (header timeout {HEADER_TIMEOUT} s, body {BODY_TIMEOUT} s, "
        f"idle {IDLE_TIMEOUT} s) "
        f"while wrk runs 1 KB validates for the calm tenant")
    baseline_files = server.open_files()
    baseline = harness.Wrk(server, calm, "1k", 16, 4 if short else 10).result()
    say(f"(a) baseline without slow clients: {harness.describe(baseline)}")
    wrk = harness.Wrk(server, calm, "1k", 16, duration - 2)
    stats = SlowStats()
    asyncio.run(slow_clients(server.port, calm, count, duration, stats))
    normal = wrk.result()
    say(f"(a) normal load alongside: {harness.describe(normal)}")
    for kind in TIMEOUT_OF:
        cuts = sorted(stats.cuts[kind])
        if cuts:
            say(f"(a) {kind}: {len(cuts)} cut, after {cuts[0]:.2f} … {cuts[len(cuts) // 2]:.2f} (median) … "
                f"{cuts[-1]:.2f} s; not cut in time {stats.not_cut[kind]}; answers {dict(stats.responses[kind])}")
    say(f"(a) slow connections open at once: up to {stats.open_max}; connect errors {dict(stats.connect_errors)}; "
        f"client event-loop lag up to {stats.lag:.2f} s")

    failures = []
    if normal["status"] or normal["socket_errors"]:
        failures.append(f"normal clients saw non-2xx {normal['status']}, socket errors {normal['socket_errors']}")
    if stats.connect_errors:
        failures.append(f"slow clients could not connect: {dict(stats.connect_errors)}")
    if stats.open_max < count * 0.9:
        failures.append(f"only {stats.open_max} slow connections were open at once (wanted {count})")
    for kind, limit in TIMEOUT_OF.items():
        cuts = stats.cuts[kind]
        # The client sees a cut late by up to its own loop lag; and early by as much as it noted the
        # connection late (1,000 connects at once on a busy loop: over a second here), so the lower
        # bound only catches a timer far too short.
        late = limit + CUT_SLACK + stats.lag
        early = limit * CUT_EARLY
        if stats.not_cut[kind]:
            failures.append(f"{kind}: {stats.not_cut[kind]} connections not cut within {limit + NOT_CUT_CAP:g} s")
        if not cuts:
            failures.append(f"{kind}: no connection was cut")
        elif max(cuts) > late:
            failures.append(f"{kind}: cut after up to {max(cuts):.2f} s, later than {late:.2f} s")
        elif min(cuts) < early:
            failures.append(f"{kind}: cut after {min(cuts):.2f} s, earlier than {early:.2f} s")
    if sum(len(cuts) for cuts in stats.cuts.values()) < count:
        failures.append(f"fewer than {count} slow connections were cut")
    # Every socket the slow clients held must be released: the server's open files back to baseline.
    deadline = time.monotonic() + 15
    while server.open_files() > baseline_files + 4 and time.monotonic() < deadline:
        time.sleep(0.5)
    files = server.open_files()
    say(f"(a) server open files: {baseline_files} before, {files} after")
    if files > baseline_files + 4:
        failures.append(f"server open files {files} after the slow clients left, {baseline_files} before")
    check(not failures, "(a) slow connections: " + "; ".join(failures))
    say(f"(a) passed: {sum(len(c) for c in stats.cuts.values())} slow connections cut by the timeouts; "
        f"normal clients {normal['requests']} requests, 0 errors "
        f"({normal['rps']:,.0f} req/s vs {baseline['rps']:,.0f} alone; p99 {harness.ms(normal['p99_us'])} ms "
        f"vs {harness.ms(baseline['p99_us'])} ms)")
    return {"baseline": baseline, "normal": normal, "stats": stats}


# ---- (b) SIGTERM under load ----------------------------------------------------------------------

ACCEPT_MARGIN = 0.25  # s: a request whose head was written this long before SIGTERM was accepted


def drain_client(port, tenant, body, stop, records, lock, number):
    """New connection per request (Connection: close); the body goes out in 20 pieces 40 ms apart,
    so every request is in flight for ~0.8 s and many are mid-upload when the signal comes."""
    pieces = [body[i:i + len(body) // 20 + 1] for i in range(0, len(body), len(body) // 20 + 1)]
    sequence = 0
    while not stop.is_set():
        sequence += 1
        record = {"client": number, "id": f"drain-{number}-{sequence}", "start": time.monotonic()}
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=20)
        except ConnectionRefusedError:
            record["outcome"] = "refused"
            with lock:
                records.append(record)
            if stop.is_set() or records_signal(records):
                return
            time.sleep(0.05)
            continue
        except OSError as error:
            record["outcome"] = f"connect error {type(error).__name__}"
            with lock:
                records.append(record)
            time.sleep(0.05)
            continue
        record["connected"] = time.monotonic()
        try:
            connection.sendall((f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                f"Authorization: Bearer {tenant.key}\r\nContent-Type: application/octet-stream\r\n"
                                f"Content-Length: {len(body)}\r\nConnection: close\r\nX-Request-Id: {record['id']}\r\n\r\n").encode())
            record["head"] = time.monotonic()
            for piece in pieces:
                connection.sendall(piece)
                time.sleep(0.04)
            record["sent"] = time.monotonic()
            answer = b""
            while True:
                data = connection.recv(65536)
                if not data:
                    break
                answer += data
            record["done"] = time.monotonic()
            head, _, content = answer.partition(b"\r\n\r\n")
            status_line = head.split(b"\r\n", 1)[0].decode(errors="replace")
            if not answer:
                record["outcome"] = "closed without a response"
            elif status_line.startswith("HTTP/1.1 200") and b'"valid":true' in content:
                record["outcome"] = "ok"
            else:
                record["outcome"] = f"answer: {status_line or answer[:60]!r}"
        except (ConnectionResetError, BrokenPipeError) as error:
            record["outcome"] = f"{type(error).__name__} while {'sending' if 'sent' not in record else 'reading'}"
        except socket.timeout:
            record["outcome"] = "timeout"
        finally:
            connection.close()
        with lock:
            records.append(record)


def records_signal(records):
    return getattr(records, "signalled", False)


class Records(list):
    signalled = False


def scenario_sigterm(binary, short):
    tenant = harness.Tenant("drain")
    server = harness.Server(binary, [tenant], label="drain server").start()
    body = read_fixture("200k")
    clients = 24
    warm = 3 if short else 10
    say(f"(b) SIGTERM under load: {clients} clients uploading the 200 KB archive (0.8 s each, new "
        f"connection per request) for {warm} s, then SIGTERM")
    records = Records()
    lock = threading.Lock()
    stop = threading.Event()
    threads = [threading.Thread(target=drain_client, args=(server.port, tenant, body, stop, records, lock, n), daemon=True)
               for n in range(clients)]
    try:
        for thread in threads:
            thread.start()
            time.sleep(0.8 / clients)
        time.sleep(warm)
        signalled = time.monotonic()
        records.signalled = True
        code, took = server.terminate(timeout=10)
        say(f"(b) exit code {code} after {took:.2f} s")
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        stop.set()
        server.stop()

    accepted = [r for r in records if "head" in r and r["head"] <= signalled - ACCEPT_MARGIN]
    in_flight = [r for r in accepted if r.get("done", float("inf")) > signalled]
    window = [r for r in records if "head" in r and r["head"] > signalled - ACCEPT_MARGIN]
    never = [r for r in records if "head" not in r]
    outcomes = lambda rs: dict(collections.Counter(r["outcome"] for r in rs if "outcome" in r))  # noqa: E731
    say(f"(b) accepted before the signal (head written ≥ {ACCEPT_MARGIN} s before it): {len(accepted)}, of which "
        f"{len(in_flight)} still in flight at the signal: {outcomes(accepted)}")
    say(f"(b) head written within {ACCEPT_MARGIN} s of the signal or after: {len(window)}: {outcomes(window)}; "
        f"no head written (connection refused after the listener closed): {len(never)}: {outcomes(never)}")

    failures = []
    if code != 0:
        failures.append(f"exit code {code} (None: still running after 10 s)")
    bad = [r for r in accepted if r.get("outcome") != "ok"]
    if bad:
        failures.append(f"{len(bad)} accepted requests failed: {outcomes(bad)}")
    if len(in_flight) < clients // 3:
        failures.append(f"only {len(in_flight)} requests were in flight at the signal: the drain was not exercised")
    # After the signal a request may only fail to get in (refused, reset, closed unanswered): never
    # a partial or non-200 answer.
    odd = [r for r in window + never
           if r.get("outcome") not in ("ok", "refused", "closed without a response")
           and not r.get("outcome", "").startswith(("ConnectionResetError", "BrokenPipeError"))]
    if odd:
        failures.append(f"requests after the signal ended oddly: {outcomes(odd)}")
    check(not failures, "(b) SIGTERM: " + "; ".join(failures))
    drained = max((r["done"] for r in in_flight if "done" in r), default=signalled) - signalled
    say(f"(b) passed: exit 0 after {took:.2f} s; {len(accepted)} accepted requests all answered 200 "
        f"({len(in_flight)} of them in flight at the signal, the last answered {drained:.2f} s after it)")
    return {"exit_seconds": took, "accepted": len(accepted), "in_flight": len(in_flight),
            "window": outcomes(window), "never": outcomes(never)}


# ---- (c) one tenant floods -----------------------------------------------------------------------

FLOOD_RATE = 20
FLOOD_BURST = 20


def scenario_flood(server, calm, flood, short):
    duration = 8 if short else 30
    say(f"(c) tenant 'flood' (rate limit {FLOOD_RATE}/s, burst {FLOOD_BURST}) floods with 32 connections for "
        f"{duration} s while tenant 'calm' runs 16")
    before = server.metrics()
    flooding = harness.Wrk(server, flood, "1k", 32, duration)
    calming = harness.Wrk(server, calm, "1k", 16, duration)
    # Mid-flood probes: what each tenant is answered while the flood goes on (after it, the flood's
    # bucket refills within 1/rate s, so a probe then proves nothing).
    time.sleep(duration / 2)
    probes = []
    for _ in range(5):
        probes.append(("flood",) + harness.post(server, flood, read_fixture("1k")))
        probes.append(("calm",) + harness.post(server, calm, read_fixture("1k")))
        time.sleep(0.1)
    flooded, calmed = flooding.result(), calming.result()
    delta = harness.metrics_delta(before, server.metrics())
    limited = [(headers, answer) for who, status, headers, answer in probes if who == "flood" and status == 429]
    calm_statuses = [status for who, status, _, _ in probes if who == "calm"]
    say(f"(c) flood: {harness.describe(flooded)}")
    say(f"(c) calm: {harness.describe(calmed)}")
    statuses = collections.Counter()
    for (_, code), count in delta.items():
        statuses[code] += count
    say(f"(c) server statuses: {dict(statuses)}; mid-flood probes: flood "
        f"{[status for who, status, _, _ in probes if who == 'flood']}, calm {calm_statuses}")

    failures = []
    if calmed["status"] or calmed["socket_errors"]:
        failures.append(f"calm tenant saw non-2xx {calmed['status']}, socket errors {calmed['socket_errors']}")
    if flooded["socket_errors"]:
        failures.append(f"flood saw socket errors {flooded['socket_errors']}")
    if flooded["status"] == 0:
        failures.append("the flood was never rate limited")
    if set(statuses) - {"200", "429"}:
        failures.append(f"statuses other than 200 and 429: {dict(statuses)}")
    if statuses["429"] < flooded["status"]:
        failures.append(f"server counted {statuses['429']} 429s, wrk saw {flooded['status']} non-2xx")
    flood_ok = flooded["requests"] - flooded["status"]
    ceiling = FLOOD_BURST + FLOOD_RATE * (duration + 2)
    floor = FLOOD_RATE * duration // 2
    if not floor <= flood_ok <= ceiling:
        failures.append(f"flood got {flood_ok} 200s, expected {floor}…{ceiling} (burst + rate × seconds)")
    if not limited:
        failures.append("no mid-flood probe of the flood tenant was answered 429")
    for headers, answer in limited:
        problem = json.loads(answer or b"{}")
        if problem.get("code") != "tenant.rate_limited" or not headers.get("Retry-After", "").isdigit():
            failures.append(f"429 without its problem or Retry-After: {answer[:200]!r}, {headers}")
    if any(status != 200 for status in calm_statuses):
        failures.append(f"calm tenant's mid-flood probes answered {calm_statuses}")
    check(not failures, "(c) flood: " + "; ".join(failures))
    say(f"(c) passed: flood {flood_ok} × 200 (≤ {ceiling}) and {flooded['status']} × 429; calm "
        f"{calmed['requests']} requests, 0 errors, p99 {harness.ms(calmed['p99_us'])} ms")
    return {"flood": flooded, "calm": calmed, "flood_ok": flood_ok}


# ---- (d) hostile bodies under load ---------------------------------------------------------------

def hostile_client(port, tenant, stop, results, lock, bodies):
    """Cycles through hostile uploads on fresh connections; records (kind, status line)."""
    while not stop.is_set():
        for kind, head_extra, payload, declared in bodies:
            if stop.is_set():
                return
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=20)
                connection.sendall((f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                    f"Authorization: Bearer {tenant.key}\r\nContent-Type: application/octet-stream\r\n"
                                    f"Content-Length: {declared}\r\nConnection: close\r\n{head_extra}\r\n").encode())
                try:
                    connection.sendall(payload)
                except (ConnectionResetError, BrokenPipeError):
                    pass  # the server may answer (413) and close before the body is in
                answer = b""
                while True:
                    try:
                        data = connection.recv(65536)
                    except ConnectionResetError:
                        break
                    if not data:
                        break
                    answer += data
                connection.close()
                line = answer.split(b"\r\n", 1)[0].decode(errors="replace")
                status = line.split(" ")[1] if line.startswith("HTTP/1.1 ") else f"({line or 'no answer'})"
                code = ""
                if b'"code":"' in answer:
                    code = answer.split(b'"code":"', 1)[1].split(b'"', 1)[0].decode()
            except OSError as error:
                status, code = f"({type(error).__name__})", ""
            with lock:
                results[(kind, status, code)] += 1


def scenario_hostile(server, calm, hostile, short):
    duration = 8 if short else 30
    bomb = gzip.compress(b"\0" * (64 << 20), compresslevel=9)
    truncated = read_fixture("200k")[:100_000]
    garbage = random.Random(7).randbytes(100_000)
    bodies = [
        ("gzip bomb (64 MiB of zeros)", "Content-Encoding: gzip\r\n", bomb, len(bomb)),
        ("declared 100 MB", "", b"\0" * 65536, 100_000_000),
        ("garbage 100 KB", "", garbage, len(garbage)),
        ("truncated archive", "", truncated, len(truncated)),
    ]
    expected = {
        "gzip bomb (64 MiB of zeros)": ("413", "request.inflated_too_large"),
        "declared 100 MB": ("413", "request.body_too_large"),
        "garbage 100 KB": ("422", None),
        "truncated archive": ("422", None),
    }
    _, hwm_before = server.memory_mib()
    say(f"(d) hostile uploads (gzip bomb {len(bomb):,} B → 64 MiB, 100 MB declared, garbage, truncated) from 4 "
        f"clients for {duration} s to tenant 'hostile' (maxArchiveBytes 1 MiB) while 'calm' runs 16 connections")
    before = server.metrics()
    calming = harness.Wrk(server, calm, "1k", 16, duration)
    stop = threading.Event()
    results = collections.Counter()
    lock = threading.Lock()
    threads = [threading.Thread(target=hostile_client, args=(server.port, hostile, stop, results, lock, bodies), daemon=True)
               for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(duration)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    calmed = calming.result()
    delta = harness.metrics_delta(before, server.metrics())
    rss, hwm = server.memory_mib()
    say(f"(d) hostile answers: " + "; ".join(f"{kind}: {status} {code} × {n}" for (kind, status, code), n in sorted(results.items())))
    say(f"(d) calm: {harness.describe(calmed)}; server RSS {rss:.0f} MiB, peak {hwm:.0f} MiB (before {hwm_before:.0f})")

    failures = []
    if calmed["status"] or calmed["socket_errors"]:
        failures.append(f"calm tenant saw non-2xx {calmed['status']}, socket errors {calmed['socket_errors']}")
    for (kind, status, code), count in results.items():
        want_status, want_code = expected[kind]
        if status != want_status or (want_code and code != want_code):
            failures.append(f"{kind}: {count} × {status} {code}, expected {want_status} {want_code or ''}")
    for kind in expected:
        if not any(k == kind for (k, _, _) in results):
            failures.append(f"{kind}: never sent")
    fives = {key: n for key, n in delta.items() if key[1].startswith("5")}
    if fives:
        failures.append(f"5xx answers: {fives}")
    if hwm > 256:
        failures.append(f"server peak memory {hwm:.0f} MiB > 256 MiB")
    check(not failures, "(d) hostile: " + "; ".join(failures))
    say(f"(d) passed: {sum(results.values())} hostile uploads each refused with its 4xx, no 5xx, peak {hwm:.0f} MiB; "
        f"calm 0 errors")
    return {"calm": calmed, "hostile": sum(results.values()), "hwm": hwm}


def main():
    parser = argparse.ArgumentParser(prog="scripts/robustness")
    parser.add_argument("--binary", required=True)
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--only", default="a,b,c,d,e,f,g,h,i,j,k,l",
                        help="comma-separated scenarios (a slow, b sigterm, c flood, d hostile, e config mistakes, "
                             "f early close, g amplification with non-reading clients, h held gzip trailers, "
                             "i a 262 MB stored result then list/metadata/304, j upload slots held by stalled "
                             "bodies, k upload slots held by trickled bodies, l sanitize/encode amplification)")
    args = parser.parse_args()
    only = set(args.only.split(","))
    harness.install_signal_cleanup()
    info = harness.machine()
    say(f"{info['date']}, nproc {info['nproc']}, {info['cpu']}, load average {info['load']}")
    calm = harness.Tenant("calm")
    flood = harness.Tenant("flood", rate=FLOOD_RATE, burst=FLOOD_BURST)
    hostile = harness.Tenant("hostile", max_archive_bytes=1 << 20)
    greedy = harness.Tenant("greedy", policy={"allow": ["foundation"]})  # default limits: (g) and (h) need archives of 1 MiB and more
    failures = []
    server = None
    budget_server = None
    slot_server, holders = None, []
    try:
        if only & {"a", "c", "d", "f"}:
            server = harness.Server(args.binary, [calm, flood, hostile], header_timeout=HEADER_TIMEOUT,
                                    idle_timeout=IDLE_TIMEOUT, body_timeout=BODY_TIMEOUT,
                                    label="robustness server", settings=harness.UNCAPPED_UPLOADS).start()
            harness.check_fixture_accepted(server, calm, "1k")
        if only & {"g", "h", "l"}:
            budget_server = memory_attacks.start_server(args.binary, calm, greedy)
        if only & {"j", "k"}:
            slot_server, holders = slot_attacks.start_server(args.binary, calm)
        for letter, run in (("a", lambda: scenario_slow(server, calm, args.short)),
                            ("b", lambda: scenario_sigterm(args.binary, args.short)),
                            ("c", lambda: scenario_flood(server, calm, flood, args.short)),
                            ("d", lambda: scenario_hostile(server, calm, hostile, args.short)),
                            ("e", lambda: config_attacks.scenario_config(args.binary, args.short)),
                            ("f", lambda: config_attacks.scenario_early_close(server, calm, BODY_TIMEOUT, args.short)),
                            ("g", lambda: memory_attacks.scenario_amplification(budget_server, calm, greedy, args.short)),
                            ("h", lambda: memory_attacks.scenario_held_trailers(budget_server, calm, greedy, args.short)),
                            ("i", lambda: store_attacks.scenario_large_stored_result(args.binary, args.short)),
                            ("j", lambda: slot_attacks.scenario_slots(slot_server, calm, holders, "stalled", args.short)),
                            ("k", lambda: slot_attacks.scenario_slots(slot_server, calm, holders, "trickle", args.short)),
                            ("l", lambda: write_attacks.scenario_write_amplification(budget_server, calm, greedy, args.short))):
            if letter not in only:
                continue
            started = time.monotonic()
            try:
                run()
            except Failure as failure:
                say(f"FAIL: {failure}")
                failures.append(letter)
            say(f"({letter}) took {time.monotonic() - started:.0f} s")
            if letter in ("g", "h", "l"):
                check(budget_server.alive(), f"the memory-budget server died during ({letter}): {budget_server.log_tail()}")
            elif letter in ("j", "k"):
                check(slot_server.alive(), f"the upload-slot server died during ({letter}): {slot_server.log_tail()}")
            elif server is not None and letter not in ("b", "e", "i"):
                check(server.alive(), f"the robustness server died during ({letter}): {server.log_tail()}")
    finally:
        if server is not None:
            server.stop()
        if budget_server is not None:
            budget_server.stop()
        if slot_server is not None:
            slot_server.stop()
    check(not failures, f"scenarios failed: {', '.join(failures)}")
    say("passed: " + ", ".join(sorted(only)))


if __name__ == "__main__":
    started = time.monotonic()
    try:
        main()
    except Failure as failure:
        say(f"FAIL: {failure}")
        sys.exit(1)
    finally:
        say(f"took {time.monotonic() - started:.0f} s")
