"""scripts/robustness (j): the archives ArchiveGate writes (sanitize, encode) under the memory budget
(issue 30), against the (g)/(h) server (128 MiB budget) while a calm tenant runs wrk:

  - 6 clients send the ~8 KB gzip of an archive whose 1,000 objects share one 1 MiB string, to
    /v1/sanitize (binary: the string is written once → 200) and ?format=xml (XML must repeat it:
    refused while writing at 16 × the archive → 422 output.amplification_exceeded);
  - 6 clients send 2.2 MB of typed JSON to /v1/encode: reserved before it is read into a tree, so some
    are served (200) and the rest refused by the tenant's share (429) or the budget (503).

Before the pipeline, one such sanitize peaked the server at 1.07 GB and encode reserved nothing.
Asserts the answers, calm 0 errors and peak RSS ≤ budget + margin (memory_attacks)."""

import gzip
import json
import plistlib
import threading
import time

import harness
import memory_attacks
from harness import check, say


def shared_string_archive(references=1000, mebibytes=1):
    """An NSArray of `references` objects that are one string in the binary plist (plistlib shares equal values)."""
    text = "a" * (mebibytes << 20)
    objects = ["$null", {"NS.objects": [plistlib.UID(i + 2) for i in range(references)], "$class": plistlib.UID(references + 2)}]
    objects += [text] * references
    objects.append({"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]})
    return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)},
                           "$objects": objects}, fmt=plistlib.FMT_BINARY)


def typed_json(elements):
    """Typed JSON of an NSArray of `elements` references to one string ({"$uid":3}, 11 bytes each): an
    archive the tenant's policy accepts (encode checks what it wrote; an NSArray cannot hold $null)."""
    members = ",".join('{"$uid":3}' for _ in range(elements))
    return ('{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"$objects":["$null",'
            '{"$class":{"$uid":2},"NS.objects":[' + members + ']},{"$classname":"NSArray","$classes":["NSArray","NSObject"]},"x"]}').encode()


def _resend_xml_alone_if_all_busy(server, tenant, request, results, lock, attempts=5):
    """When every XML sanitize of the parallel wave was refused as busy (429/503: the tenant's share
    was held by the other two, or still by the previous scenario's connections), the amplification
    cap was never reached. Sends the same request alone, each attempt after the previous answer, until
    one is not busy. Returns the number of requests sent."""
    with lock:
        xml = [status for kind, status, _, _ in results if kind == "xml"]
    if not xml or any(status not in (429, 503) for status in xml):
        return 0
    kind, body, path, headers = request
    for attempt in range(1, attempts + 1):
        _send(kind, server, tenant, body, path, headers, results, lock)
        with lock:
            if results[-1][1] not in (429, 503):
                say(f"(l) every parallel XML sanitize was busy; alone, attempt {attempt} answered {results[-1][1]}")
                return attempt
    return attempts


def _send(kind, server, tenant, body, path, headers, results, lock):
    status, _, reply = harness.post(server, tenant, body, path=path, headers=headers, timeout=120)
    code = None
    if status >= 400:
        try:
            code = json.loads(reply).get("code")
        except ValueError:
            code = None
    with lock:
        results.append((kind, status, code, len(reply)))


def scenario_write_amplification(server, calm, hostile, short):
    archive = shared_string_archive()
    bomb = gzip.compress(archive, compresslevel=9)
    json_body = typed_json(200_000)
    say(f"(j) write amplification: 3 × sanitize and 3 × sanitize?format=xml of the {len(bomb):,}-byte gzip of "
        f"1,000 objects sharing a 1 MiB string, 6 × encode of {len(json_body) / 1e6:.1f} MB typed JSON, tenant "
        f"'{hostile.id}', while 'calm' runs 8 connections")
    calming = memory_attacks._calm_load(server, calm, 12 if short else 30)
    results, lock = [], threading.Lock()
    gz = {"Content-Encoding": "gzip"}
    waves = [[("xml", bomb, "/v1/sanitize?format=xml", gz)] * 3, [("binary", bomb, "/v1/sanitize", gz)] * 3,
             [("encode", json_body, "/v1/encode", {"Content-Type": "application/json"})] * 6]
    started = time.monotonic()
    # One kind at a time, each wave in parallel: all at once would mostly show the tenant's share
    # at work (429), which (h) shows already.
    sent = 0
    for wave in waves:
        threads = [threading.Thread(target=_send, daemon=True, args=(kind, server, hostile, body, path, headers, results, lock))
                   for kind, body, path, headers in wave]
        sent += len(threads)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
        if wave[0][0] == "xml":
            sent += _resend_xml_alone_if_all_busy(server, hostile, wave[0], results, lock)
    elapsed = time.monotonic() - started
    failures = []
    answers = {kind: sorted(f"{status}{'/' + code if code else ''}" for k, status, code, _ in results if k == kind)
               for kind in ("binary", "xml", "encode")}
    busy = (429, 503)
    for kind, status, code, size in results:
        if kind == "binary" and not (status == 200 and size < len(archive) + (64 << 10) or status in busy):
            failures.append(f"sanitize answered {status} {code} ({size} bytes), expected 200 with the string once, or 429/503")
        if kind == "xml" and not (status == 422 and code == "output.amplification_exceeded" or status in busy):
            failures.append(f"sanitize?format=xml answered {status} {code}, expected 422 output.amplification_exceeded or 429/503")
        if kind == "encode" and status not in (200, 429, 503):
            failures.append(f"encode answered {status} {code}, expected 200 or 429/503")
    if len(results) != sent:
        failures.append(f"{sent - len(results)} requests got no answer")
    if "422/output.amplification_exceeded" not in answers["xml"]:
        failures.append(f"no XML sanitize was stopped by the amplification cap: {answers['xml']}")
    if "200" not in answers["binary"] or "200" not in answers["encode"]:
        failures.append(f"no sanitize or no encode was served: {answers}")
    calmed, hwm = memory_attacks._finish("(j)", server, calming, failures)
    check(not failures, "(j) write amplification: " + "; ".join(failures))
    say(f"(j) passed in {elapsed:.0f} s: answers {answers}; peak {hwm:.0f} MiB; calm 0 errors")
    return {"answers": answers, "hwm": hwm, "calm": calmed}
