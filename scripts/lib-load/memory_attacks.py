"""scripts/robustness (g) and (h): the server-wide memory budget under one hostile tenant while a
calm tenant runs wrk (issue 15). Both run against their own server, started with a stated budget, so
its peak RSS (VmHWM) belongs to these attacks alone:

  (g) amplification: 8 clients send the 1.3 KB gzip whose JSON would be 200 MiB (refused at
      16 × the archive: 422 output.amplification_exceeded), and 8 clients ask for a 15 MiB answer
      that is allowed and then read only its first bytes (cut by the send timeout, memory returned,
      or refused up front with 429 tenant.busy / 503 server.busy);
  (h) held gzip trailers: 16 connections each send ~60 KB of gzip inflating to 60 MiB and hold back
      the gzip trailer: refused mid-body with 429/503 once the tenant's share is reserved, the rest
      cut by the body timeout.

Each asserts its outcome, calm 0 errors, and peak RSS ≤ budget + MARGIN_MIB."""

import gzip
import plistlib
import socket
import threading
import time

import harness
from harness import check, say

BUDGET_MIB = 128       # memory.budgetBytes of the server these scenarios run against
MARGIN_MIB = 96        # what the process may hold beyond the budget: code, heap slack, allocator caches
SEND_TIMEOUT = 2       # s: http.sendTimeoutSeconds
BODY_TIMEOUT = 6       # s: http.bodyTimeoutSeconds
SETTINGS = {
    "memory": {"budgetBytes": f"{BUDGET_MIB}MiB", "tenantShare": 0.5},
    "http": {"sendTimeoutSeconds": SEND_TIMEOUT},
}


def amplifying_archive(references, mebibytes=1):
    """An NSKeyedArchiver NSArray holding one `mebibytes` string `references` times."""
    objects = ["$null",
               {"NS.objects": [plistlib.UID(2)] * references, "$class": plistlib.UID(3)},
               "a" * (mebibytes << 20),
               {"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]}]
    return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)},
                           "$objects": objects}, fmt=plistlib.FMT_BINARY)


def start_server(binary, calm, hostile):
    """`hostile` must have the default archive limit (64 MiB): these archives are 1 MiB and more."""
    server = harness.Server(binary, [calm, hostile], header_timeout=2, idle_timeout=4, body_timeout=BODY_TIMEOUT,
                            label="memory-budget server", settings=SETTINGS).start()
    harness.check_fixture_accepted(server, calm, "1k")
    return server


def _status(sock, give_up):
    """The status line's code, reading only the first bytes of the answer."""
    sock.settimeout(give_up)
    try:
        first = sock.recv(64)
    except OSError:
        return None
    return first[9:12].decode(errors="replace") if first.startswith(b"HTTP/1.1 ") else None


def _closed_within(sock, seconds):
    """True when the peer ends the connection within `seconds` (reading and dropping what arrives)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not sock.recv(1 << 16):
                return True
        except socket.timeout:
            return False
        except OSError:
            return True
    return False


def _non_reader(kind, port, tenant, body, headers, results, lock):
    """Sends a convert, reads only its first bytes, stops reading; records (status, cut)."""
    sock = socket.create_connection(("127.0.0.1", port))
    # A small receive buffer, so the kernel cannot absorb the answer for the client.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 10)
    try:
        head = (f"POST /v1/convert HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {tenant.key}\r\n"
                f"Content-Type: application/octet-stream\r\n{headers}Content-Length: {len(body)}\r\n\r\n")
        sock.sendall(head.encode() + body)
        status = _status(sock, 60)
        cut = None
        if status == "200":
            time.sleep(SEND_TIMEOUT * 3)  # the client's own behaviour: not reading
            # The server must have given up on it by now: draining shows whether the stream ended early.
            received, ended = 0, False
            sock.settimeout(5)
            try:
                while True:
                    chunk = sock.recv(1 << 20)
                    if not chunk:
                        ended = True
                        break
                    received += len(chunk)
            except OSError:
                ended = True
            cut = ended and received < (15 << 20)
        with lock:
            results.append((kind, status, cut))
    finally:
        sock.close()


def _calm_load(server, calm, duration):
    return harness.Wrk(server, calm, "1k", 8, duration)


def _finish(label, server, calming, failures):
    calmed = calming.result()
    rss, hwm = server.memory_mib()
    if calmed["status"] or calmed["socket_errors"]:
        failures.append(f"calm tenant saw non-2xx {calmed['status']}, socket errors {calmed['socket_errors']}")
    if hwm > BUDGET_MIB + MARGIN_MIB:
        failures.append(f"server peak RSS {hwm:.0f} MiB > budget {BUDGET_MIB} MiB + margin {MARGIN_MIB} MiB")
    say(f"{label} calm: {harness.describe(calmed)}; server RSS {rss:.0f} MiB, peak {hwm:.0f} MiB "
        f"(budget {BUDGET_MIB} + margin {MARGIN_MIB})")
    return calmed, hwm


def scenario_amplification(server, calm, hostile, short):
    bomb = gzip.compress(amplifying_archive(200), compresslevel=9)
    allowed = amplifying_archive(15)
    say(f"(g) amplification: 8 × the {len(bomb):,}-byte gzip of a 200 MiB answer, 8 × a 15 MiB answer "
        f"never read, tenant 'hostile', while 'calm' runs 8 connections")
    calming = _calm_load(server, calm, 12 if short else 30)
    results, lock = [], threading.Lock()
    bombers = [threading.Thread(target=_non_reader, daemon=True,
                                args=("bomb", server.port, hostile, bomb, "Content-Encoding: gzip\r\n", results, lock))
               for _ in range(8)]
    readers = [threading.Thread(target=_non_reader, daemon=True,
                                args=("large", server.port, hostile, allowed, "", results, lock)) for _ in range(8)]
    started = time.monotonic()
    # Bombs first (each is refused in well under a second), then the non-readers: both at once
    # would mostly show the tenant's share at work (429), which (h) shows already.
    for wave in (bombers, readers):
        for thread in wave:
            thread.start()
        for thread in wave:
            thread.join(timeout=120)
    elapsed = time.monotonic() - started
    failures = []
    bombs = sorted(status or "none" for kind, status, _ in results if kind == "bomb")
    large = sorted(status or "none" for kind, status, _ in results if kind == "large")
    statuses = {"bomb": bombs, "large": large}
    cut = sum(1 for kind, status, was_cut in results if status == "200" and was_cut)
    served = large.count("200")
    # A bomb is refused by the amplification cap (422) or, while the tenant's share is reserved by
    # others, before decoding (429/503); never rendered.
    if "422" not in bombs or any(s not in ("422", "429", "503") for s in bombs):
        failures.append(f"amplifying uploads answered {bombs}, expected 422 (or 429/503 while busy)")
    if served == 0 or any(s not in ("200", "429", "503") for s in large):
        failures.append(f"never-read 15 MiB requests answered {large}, expected some 200 and otherwise 429/503")
    if cut != served:
        failures.append(f"{served - cut} of {served} never-read 15 MiB answers were not cut by the send timeout")
    calmed, hwm = _finish("(g)", server, calming, failures)
    check(not failures, "(g) amplification: " + "; ".join(failures))
    say(f"(g) passed in {elapsed:.0f} s: answers {statuses}; {cut} never-read answers cut by the "
        f"{SEND_TIMEOUT} s send timeout; peak {hwm:.0f} MiB; calm 0 errors")
    return {"answers": statuses, "hwm": hwm, "calm": calmed}


def _trailer_holder(port, tenant, body, results, lock):
    """Sends a gzip body without its last 8 bytes (CRC32 and size), then holds."""
    sock = socket.create_connection(("127.0.0.1", port))
    try:
        head = (f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {tenant.key}\r\n"
                f"Content-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n")
        started = time.monotonic()
        sock.sendall(head.encode() + body[:-8])
        status = _status(sock, BODY_TIMEOUT * 3)
        ended = _closed_within(sock, BODY_TIMEOUT * 3)
        with lock:
            results.append((status or "cut", ended, time.monotonic() - started))
    finally:
        sock.close()


def scenario_held_trailers(server, calm, hostile, short):
    body = gzip.compress(b"\0" * (60 << 20), compresslevel=9)
    say(f"(h) held gzip trailers: 16 connections each send {len(body) - 8:,} of {len(body):,} gzip bytes "
        f"(60 MiB inflated) and hold the trailer, tenant 'hostile', while 'calm' runs 8 connections")
    calming = _calm_load(server, calm, BODY_TIMEOUT * 2 + 2)
    results, lock = [], threading.Lock()
    threads = [threading.Thread(target=_trailer_holder, daemon=True, args=(server.port, hostile, body, results, lock))
               for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    failures = []
    outcomes = sorted(status for status, _, _ in results)
    refused = sum(1 for status in outcomes if status in ("429", "503"))
    if refused == 0:
        failures.append(f"no holder was refused by the budget: {outcomes}")
    unexpected = [s for s in outcomes if s not in ("429", "503", "cut", "400")]
    if unexpected:
        failures.append(f"unexpected answers {unexpected}")
    lingering = [round(seconds, 1) for _, ended, seconds in results if not ended]
    if lingering:
        failures.append(f"{len(lingering)} connections still open {BODY_TIMEOUT * 3} s after their answer")
    longest = max(seconds for _, _, seconds in results)
    calmed, hwm = _finish("(h)", server, calming, failures)
    check(not failures, "(h) held trailers: " + "; ".join(failures))
    say(f"(h) passed: outcomes {outcomes}; every connection ended within {longest:.1f} s; peak {hwm:.0f} MiB; "
        f"calm 0 errors")
    return {"outcomes": outcomes, "hwm": hwm, "calm": calmed}
