"""scripts/load: wrk against POST /v1/validate and /v1/convert of a release `archivegate serve` (see scripts/load)."""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Failure, check, ms, say  # noqa: E402

# Issue targets (#6 item 5, #7 item 4, #18: validate 1 KB ≥ 20,000 req/s with p99 ≤ 10 ms, 200 KB
# ≥ 3,000 req/s, 5 MB with bounded server memory — its peak is in the table). Recorded, not
# enforced (shared 2-core machines) unless --enforce-targets. Convert has no target: measured only.
TARGETS = {
    ("validate", "1k"): {"rps": 20_000, "p99_ms": 10.0},
    ("validate", "200k"): {"rps": 3_000, "p99_ms": None},
}
ENDPOINTS = {"validate": "/v1/validate", "convert": "/v1/convert?mode=plain"}
# Fewer connections for 5 MB bodies: 2 cores decode one at a time each; the rest would only queue
# 5 MB uploads (the server's memory under them is what this case reports).
CONNECTIONS_5M = 16


def main():
    parser = argparse.ArgumentParser(prog="scripts/load")
    parser.add_argument("--binary", required=True)
    parser.add_argument("--short", action="store_true", help="CI smoke: short runs")
    parser.add_argument("--duration", type=float, help="seconds of each measured run (default 30; --short 8)")
    parser.add_argument("--warmup", type=float, help="seconds of warm-up before each (default 5; --short 2)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threads", type=int, help="wrk threads (default nproc)")
    parser.add_argument("--cases", default="1k,200k,5m,mixed",
                        help="comma-separated: 1k, 200k, 5m, mixed (1k latency while 200k uploads run; validate only)")
    parser.add_argument("--endpoints", default="validate,convert", help="comma-separated: validate, convert")
    parser.add_argument("--log-level", default="info", help="server log level (default info: one access line per request, as deployed)")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--enforce-targets", action="store_true", help="fail when an issue target is missed")
    args = parser.parse_args()
    duration = args.duration or (8 if args.short else 30)
    warmup = args.warmup if args.warmup is not None else (2 if args.short else 5)
    cases = [case.strip() for case in args.cases.split(",") if case.strip()]
    for case in cases:
        check(case in ("1k", "200k", "5m", "mixed"), f"unknown case {case}")
    endpoints = [endpoint.strip() for endpoint in args.endpoints.split(",") if endpoint.strip()]
    for endpoint in endpoints:
        check(endpoint in ENDPOINTS, f"unknown endpoint {endpoint}")
    sized = [case for case in cases if case != "mixed"] + (["1k", "200k"] if "mixed" in cases else [])

    harness.install_signal_cleanup()
    before = harness.machine()
    tenant = harness.Tenant("load")
    server = harness.Server(args.binary, [tenant], log_level=args.log_level, label="load server",
                            settings=harness.UNCAPPED_UPLOADS).start()
    sizes = {}
    for case in dict.fromkeys(sized):
        for endpoint in endpoints:
            sizes[case] = harness.check_fixture_accepted(server, tenant, case, ENDPOINTS[endpoint])
    say(f"fixtures accepted by {', '.join(endpoints)}: " + ", ".join(f"{case} = {size} B" for case, size in sizes.items())
        + f"; {duration:g} s runs after {warmup:g} s warm-up, {args.connections} connections ({CONNECTIONS_5M} for 5m)")

    rows = []
    failures = []
    try:
        # The 5 MB runs last, so the server's peak RSS (cumulative) in earlier rows is the small ones'.
        runs = [(endpoint, case) for endpoint in endpoints for case in cases
                if case != "5m" and (case != "mixed" or endpoint == "validate")]
        runs += [(endpoint, "5m") for endpoint in endpoints if "5m" in cases]
        for endpoint, case in runs:
            path = ENDPOINTS[endpoint]
            if case == "mixed":
                # 1 KB latency while 200 KB uploads keep the workers busy: what a large decode costs
                # the small requests sharing the process.
                big = max(2, args.connections // 8)
                small = max(2, args.connections - big)
                if warmup:
                    w1 = harness.Wrk(server, tenant, "1k", small, warmup, args.threads)
                    w2 = harness.Wrk(server, tenant, "200k", big, warmup, args.threads)
                    w1.result(); w2.result()
                metrics_before, cpu_before = server.metrics(), server.cpu_seconds()
                w1 = harness.Wrk(server, tenant, "1k", small, duration, args.threads)
                w2 = harness.Wrk(server, tenant, "200k", big, duration, args.threads)
                results = [w1.result(), w2.result()]
                results[0]["label"] = f"1k with 200k alongside ({small} + {big} conns)"
                results[1]["label"] = f"200k alongside 1k ({big} + {small} conns)"
            else:
                connections = min(args.connections, CONNECTIONS_5M) if case == "5m" else args.connections
                if warmup:
                    harness.Wrk(server, tenant, case, connections, warmup, args.threads, path=path).result()
                metrics_before, cpu_before = server.metrics(), server.cpu_seconds()
                results = [harness.Wrk(server, tenant, case, connections, duration, args.threads, path=path).result()]
                results[0]["label"] = f"{case} ({sizes[case]:,} B)"
            delta = harness.metrics_delta(metrics_before, server.metrics())
            cpu = server.cpu_seconds() - cpu_before
            served = sum(delta.values())
            rss_now, hwm_now = server.memory_mib()
            for result in results:
                result["endpoint"] = endpoint
                result["rss_mib"], result["hwm_mib"] = rss_now, hwm_now
                # Server CPU per request: comparable across runs even when other work shares the cores.
                result["cpu_ms"] = 1000 * cpu / served if served else 0.0
                result["cpu_share"] = cpu / (result["duration_us"] / 1e6)
                say(f"{endpoint} {result['label']}: {harness.describe(result)}")
                rows.append(result)
                if result["status"] or result["socket_errors"]:
                    failures.append(f"{endpoint} {result['label']}: non-2xx {result['status']}, socket errors {result['socket_errors']}")
            say(f"server-side statuses during the run: {format_statuses(delta)}; server CPU {cpu:.1f} s "
                f"({results[0]['cpu_share']:.2f} cores, {results[0]['cpu_ms']:.3f} ms per request)")
            statuses = {status for (_, status) in delta}
            cut = sum(count for (_, status), count in delta.items() if status == "400")
            if case == "5m" and statuses - {"200"} == {"400"} and cut <= connections and not results[0]["status"]:
                # wrk stops mid-upload at the end of its run: with 5 MB bodies, the requests in flight
                # then end as an incomplete body, a 400 that wrk never sees (it counted no non-2xx).
                say(f"{endpoint} {case}: {cut} upload(s) cut off by wrk's stop answered 400 (incomplete body); not an error")
                statuses = statuses - {"400"}
            if statuses - {"200"}:
                failures.append(f"{endpoint} {case}: server answered statuses other than 200: {format_statuses(delta)}")
            check(server.alive(), f"the server died during {endpoint} {case}: {server.log_tail()}")
        rss, hwm = server.memory_mib()
    finally:
        server.stop()
    after = harness.machine()

    table = render(rows, before, after, args, duration, rss, hwm)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(table + "\n")
    missed = [row["target_text"] for row in rows if row.get("met") is False]
    if failures:
        raise Failure("errors under load:\n  " + "\n  ".join(failures))
    if missed and args.enforce_targets:
        raise Failure("targets missed: " + "; ".join(missed))
    say("passed: 0 non-2xx, 0 socket errors" + (f" (targets missed, not enforced: {'; '.join(missed)})" if missed else ""))


def format_statuses(delta):
    by_status = {}
    for (_, status), count in delta.items():
        by_status[status] = by_status.get(status, 0) + count
    return ", ".join(f"{status}: {count}" for status, count in sorted(by_status.items())) or "none"


def render(rows, before, after, args, duration, rss, hwm):
    lines = [
        f"#### HTTP load: POST {', '.join(ENDPOINTS[e] for e in dict.fromkeys(r['endpoint'] for r in rows))}, {before['date']}, nproc {before['nproc']}, {before['cpu']}",
        f"wrk {args.threads or os.cpu_count()} threads, {duration:g} s per run, server log level {args.log_level}; "
        f"load average before {before['load']}, after {after['load']}; server RSS after {rss:.0f} MiB, peak {hwm:.0f} MiB",
        "",
        "| endpoint | case | conns | requests | req/s | p50 ms | p99 ms | max ms | non-2xx | socket errors | server CPU ms/req | server cores | server RSS / peak MiB | target | met |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|:-:|",
    ]
    for row in rows:
        target = (TARGETS.get((row["endpoint"], row["case"]))
                  if not row["label"].startswith(("1k with", "200k alongside")) else None)
        text, met = "–", None
        if target:
            parts = [f"≥ {target['rps']:,} req/s"]
            met = row["rps"] >= target["rps"]
            if target["p99_ms"] is not None:
                parts.append(f"p99 ≤ {target['p99_ms']:g} ms")
                met = met and row["p99_us"] / 1000 <= target["p99_ms"]
            text = ", ".join(parts)
            row["met"] = met
            row["target_text"] = f"{row['endpoint']} {row['case']}: {text} (measured {row['rps']:,.0f} req/s, p99 {ms(row['p99_us'])} ms)"
        lines.append(
            f"| {row['endpoint']} | {row['label']} | {row['connections']} | {row['requests']:,} | {row['rps']:,.0f} | {ms(row['p50_us'])} | "
            f"{ms(row['p99_us'])} | {ms(row['max_us'])} | {row['status']} | {row['socket_errors']} | "
            f"{row['cpu_ms']:.3f} | {row['cpu_share']:.2f} | {row['rss_mib']:.0f} / {row['hwm_mib']:.0f} | {text} | "
            f"{'–' if met is None else ('yes' if met else '**no**')} |")
    return "\n".join(lines)


if __name__ == "__main__":
    started = time.monotonic()
    try:
        main()
    except Failure as failure:
        say(f"FAIL: {failure}")
        sys.exit(1)
    finally:
        say(f"took {time.monotonic() - started:.0f} s")
