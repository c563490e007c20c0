"""scripts/robustness (j) and (k): tenants holding upload slots with bodies that never finish, while a
calm tenant uploads (issue 31). Against a server with the default upload caps
(`memory.maxConcurrentUploads` 128, `memory.maxConcurrentUploadsPerTenant` 32) and long timeouts, so
only the fair share of slots (`UploadSlotShare`, docs/OPERATIONS.md, `memory.maxConcurrentUploadsPerTenant`) can let the calm tenant in:

  (j) slot exhaustion: 4 tenants × 32 uploads send a complete head and 1 KB of a 200 KB body, then
      nothing (inside the 30 s idle timeout);
  (k) trickle: 4 tenants × 32 uploads send one body byte every 5 s (inside the idle timeout, far from
      the 120 s body timeout), the attack of issue 31 that held all 128 slots.

Each asserts: the attackers together hold at most 128 − 25 slots (each of the 5 tenants is guaranteed
128 / 5 = 25), the uploads over that are answered 429 `tenant.busy` (never 503), the calm tenant's uploads are all answered 200 while
the held uploads are still open, and the server counted the refusals
(`archivegate_budget_refusals_total{code="tenant.busy"}`)."""

import asyncio
import collections
import time
import urllib.request

import harness
from harness import check, say

ATTACKERS = 4
PER_ATTACKER = 32      # memory.maxConcurrentUploadsPerTenant's default: what each attacker tries to hold
SLOTS = 128            # memory.maxConcurrentUploads's default
TRICKLE_INTERVAL = 5   # s between trickled bytes (issue 31's attack)
CALM_UPLOADS = 20


def tenant_busy_refusals(server):
    """archivegate_budget_refusals_total{code="tenant.busy"}, summed over tenants."""
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as response:
        text = response.read().decode()
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
               if line.startswith('archivegate_budget_refusals_total{') and 'code="tenant.busy"' in line)


def start_server(binary, calm):
    """A server with the default upload caps, the calm tenant and four attacking tenants."""
    attackers = [harness.Tenant(f"holder{n}") for n in range(1, ATTACKERS + 1)]
    server = harness.Server(binary, [calm] + attackers, header_timeout=10, idle_timeout=30, body_timeout=120,
                            label="upload-slot server").start()
    harness.check_fixture_accepted(server, calm, "1k")
    return server, attackers


async def _hold(port, tenant, mode, hold_for, outcome):
    """One upload that never completes: records the answer if the server gives one (a refusal),
    or "held" when the connection was still open and unanswered after `hold_for` seconds."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
    except (OSError, asyncio.TimeoutError) as error:
        outcome.append((tenant.id, f"({type(error).__name__})", ""))
        return
    head = (f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {tenant.key}\r\n"
            f"Content-Type: application/octet-stream\r\nContent-Length: 200000\r\n\r\n").encode()
    writer.write(head + (b"\0" * 1000 if mode == "stalled" else b"\0"))
    reading = asyncio.ensure_future(reader.read(4096))
    deadline = time.monotonic() + hold_for
    try:
        while not reading.done() and time.monotonic() < deadline:
            await asyncio.wait({reading}, timeout=min(TRICKLE_INTERVAL, max(0.01, deadline - time.monotonic())))
            if mode == "trickle" and not reading.done() and time.monotonic() < deadline:
                writer.write(b"\0")
        if reading.done():
            answer = b"" if reading.exception() else reading.result()
            line = answer.split(b"\r\n", 1)[0].decode(errors="replace")
            code = answer.split(b'"code":"', 1)[1].split(b'"', 1)[0].decode() if b'"code":"' in answer else ""
            outcome.append((tenant.id, line[9:12] if line.startswith("HTTP/1.1 ") else f"({line or 'closed'})", code))
        else:
            reading.cancel()
            outcome.append((tenant.id, "held", ""))
    finally:
        writer.close()


async def _attack_and_upload(server, calm, attackers, mode, hold_for, calm_body):
    outcome = []
    holders = [asyncio.create_task(_hold(server.port, tenant, mode, hold_for, outcome))
               for tenant in attackers for _ in range(PER_ATTACKER)]
    # The refusals come at once (admission happens before the body is read); give every
    # connection time to be admitted or refused, and a trickle time to drip at least once.
    await asyncio.sleep(2 if mode == "stalled" else TRICKLE_INTERVAL + 1)
    loop = asyncio.get_running_loop()
    calm_answers = []
    for _ in range(CALM_UPLOADS):
        status, _, answer = await loop.run_in_executor(None, lambda: harness.post(server, calm, calm_body, timeout=30))
        calm_answers.append((status, answer))
    calm_done = time.monotonic()
    await asyncio.gather(*holders)
    return outcome, calm_answers, calm_done


def scenario_slots(server, calm, attackers, mode, short):
    letter = "j" if mode == "stalled" else "k"
    # Long enough that every held upload is still open when the calm tenant has finished.
    hold_for = (8 if mode == "stalled" else 2 * TRICKLE_INTERVAL + 4) + (0 if short else 10)
    share = SLOTS // (ATTACKERS + 1)
    what = "1 KB of the body, then nothing" if mode == "stalled" else f"one body byte every {TRICKLE_INTERVAL} s"
    say(f"({letter}) {ATTACKERS} tenants × {PER_ATTACKER} uploads sending {what} (default caps: {SLOTS} slots, "
        f"{PER_ATTACKER} per tenant), then the calm tenant uploads {CALM_UPLOADS} × 1 KB")
    with open(harness.fixture_path("1k"), "rb") as file:
        body = file.read()
    refused_before = tenant_busy_refusals(server)
    started = time.monotonic()
    outcome, calm_answers, calm_done = asyncio.run(_attack_and_upload(server, calm, attackers, mode, hold_for, body))
    ended = time.monotonic()
    per_tenant = collections.defaultdict(collections.Counter)
    for tenant, status, code in outcome:
        per_tenant[tenant][f"{status} {code}".strip()] += 1
    calm_statuses = collections.Counter(status for status, _ in calm_answers)
    say(f"({letter}) attackers: " + "; ".join(f"{t}: {dict(c)}" for t, c in sorted(per_tenant.items())))
    refused = tenant_busy_refusals(server) - refused_before
    say(f"({letter}) server-counted tenant.busy refusals: {refused}; calm answers {dict(calm_statuses)}, "
        f"done {calm_done - started:.1f} s into the attack, which held its uploads until {ended - started:.1f} s")

    failures = []
    held_total = sum(per_tenant[tenant.id]["held"] for tenant in attackers)
    if held_total > SLOTS - share:
        failures.append(f"the attackers held {held_total} upload slots, leaving the calm tenant fewer than its {share}")
    for tenant in attackers:
        counts = per_tenant[tenant.id]
        held = counts["held"]
        if held > PER_ATTACKER:
            failures.append(f"{tenant.id} held {held} upload slots, more than the per-tenant cap")
        if held == 0:
            failures.append(f"{tenant.id} held no upload: the attack did not happen")
        others = {answer: n for answer, n in counts.items() if answer not in ("held", "429 tenant.busy")}
        if others:
            failures.append(f"{tenant.id}'s uploads over its share were answered {others}, not 429 tenant.busy")
    client_refused = sum(counts["429 tenant.busy"] for counts in per_tenant.values())
    if refused != client_refused:
        failures.append(f"the server counted {refused} tenant.busy refusals, the clients saw {client_refused}")
    if calm_statuses != collections.Counter({200: CALM_UPLOADS}):
        bad = [answer[:200] for status, answer in calm_answers if status != 200][:2]
        failures.append(f"calm tenant answered {dict(calm_statuses)} ({bad})")
    if calm_done > ended:
        failures.append("the calm uploads finished after the held uploads were released")
    check(not failures, f"({letter}) upload slots: " + "; ".join(failures))
    say(f"({letter}) passed: the attackers held {held_total} slots (at most {SLOTS - share}, the rest 429 tenant.busy); "
        f"the calm tenant's {CALM_UPLOADS} uploads all 200 while they held them")
    return {"per_tenant": {t: dict(c) for t, c in per_tenant.items()}, "calm": dict(calm_statuses), "refused": refused}
