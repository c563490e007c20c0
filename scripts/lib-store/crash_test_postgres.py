"""store-crash-test --store postgres: two replicas on one throwaway PostgreSQL cluster.

Each round, while writers POST unique archives to both replicas, one of two things happens at a
random moment: a replica is killed with SIGKILL (and started again), or PostgreSQL itself is
stopped with `pg_ctl stop -m immediate` (no checkpoint: crash recovery from the WAL at the next
start) and started again while both replicas keep running. Every `--pg-every`-th round is a
PostgreSQL stop. After each round both replicas must be ready again — the ones that were not
restarted reconnect by themselves — and every result acknowledged so far with a 201 is checked
(the last round in full, a sample of older ones; everything at the end) through either replica.
While PostgreSQL is down, `503 store.unavailable` is the expected answer and is counted; any other
non-201 answer fails the run. At the end pg_amcheck verifies the table's heap and its indexes.
"""

import hashlib
import json
import os
import random
import subprocess
import tempfile
import time

import crash_test
import pgcluster


def wait_ready(port: int, timeout: float) -> float:
    """Seconds until /readyz answers 200; exits the run when it does not within `timeout`."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            status, _, _ = crash_test.request("GET", "/readyz", port, timeout=5)
            if status == 200:
                return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"store-crash-test: replica on {port} not ready {timeout:.0f} s after PostgreSQL came back")


def run(options):
    reason = pgcluster.ensure_installed()
    if reason:
        raise SystemExit(f"store-crash-test: PostgreSQL is not available: {reason}")
    rng = random.Random(options.seed)
    work = options.work_dir or tempfile.mkdtemp(prefix="archivegate-crash-pg-")
    cluster = pgcluster.Cluster()
    cluster.init()
    config = os.path.join(work, "config")
    os.makedirs(os.path.join(config, "tenants"), exist_ok=True)
    with open(os.path.join(config, "server.json"), "w") as file:
        json.dump({"store": {"kind": "postgres", "purgeIntervalSeconds": 3600,
                             "postgres": {"operationTimeoutMilliseconds": 3000}},
                   "limits": {"requestsPerSecond": 1000000, "burst": 1000000}, "log": {"level": "warning"}}, file)
    with open(os.path.join(config, "tenants", "crash.json"), "w") as file:
        json.dump({"id": "crash", "keys": [hashlib.sha256(crash_test.KEY.encode()).hexdigest()],
                   "policy": {"allow": ["foundation"]}}, file)
    environment = {"ARCHIVEGATE_STORE_POSTGRES_URL": cluster.server_url}
    replicas = [crash_test.Server(options.binary, config, crash_test.free_port(), os.path.join(work, f"replica-{name}.log"),
                                  environment) for name in "ab"]
    ports = [replica.port for replica in replicas]
    print(f"store-crash-test (postgres): {options.kills} rounds (every {options.pg_every}th stops PostgreSQL), "
          f"2 replicas, {options.writers} writers, seed {options.seed}, work dir {work}, cluster {cluster.directory}", flush=True)

    acknowledged, last_round_count = [], 0
    replica_kills = postgres_stops = tolerated = 0
    started = time.monotonic()
    try:
        for replica in replicas:
            replica.start()
        for round_number in range(1, options.kills + 1):
            older = acknowledged[:len(acknowledged) - last_round_count]
            crash_test.verify_results(rng.choice(ports), acknowledged[len(older):] + rng.sample(older, min(len(older), 50)))
            writers = crash_test.Writers(ports, options.writers, first_serial=round_number * 10_000_000, seed=rng.random(),
                                         tolerated=frozenset({"store.unavailable"}))
            writers.start()
            time.sleep(rng.uniform(options.min_run, options.max_run))
            if round_number % options.pg_every == 0:
                cluster.stop("immediate")
                postgres_stops += 1
                for port in ports:
                    check_outage(port)
                time.sleep(rng.uniform(0.2, 1.0))  # writers meet the outage: 503s, not hangs
                cluster.start()
                writers.join()
                recovery = max(wait_ready(port, 60) for port in ports)
                event = f"PostgreSQL stopped (immediate) and restarted; replicas ready {recovery:.1f} s later, no restart"
            else:
                victim = rng.choice(replicas)
                victim.kill()
                replica_kills += 1
                writers.join()
                victim.start()
                event = f"replica on {victim.port} killed and restarted"
            if writers.failures:
                raise SystemExit(f"store-crash-test: round {round_number}: unexpected answers: {writers.failures[:3]}")
            acknowledged += writers.acknowledged
            last_round_count = len(writers.acknowledged)
            tolerated += writers.tolerated_count
            print(f"  round {round_number:3}: {len(writers.acknowledged):4} acknowledged, {len(acknowledged):6} in total; {event}",
                  flush=True)
        for replica in replicas:
            replica.kill()
        cluster.stop("immediate")
        cluster.start()
        for replica in replicas:
            replica.start()
        crash_test.verify_results(ports[0], acknowledged)
        crash_test.verify_results(ports[1], rng.sample(acknowledged, min(len(acknowledged), 200)))
        amcheck(cluster)
    finally:
        for replica in replicas:
            replica.kill()
        cluster.remove()
    if len(acknowledged) < options.kills:
        raise SystemExit(f"store-crash-test: only {len(acknowledged)} results were acknowledged in {options.kills} rounds: too few")
    print(f"store-crash-test (postgres): passed — {replica_kills} replica kill -9s, {postgres_stops} PostgreSQL immediate stops, "
          f"{len(acknowledged)} acknowledged results all present and byte-identical through both replicas, "
          f"{tolerated} 503 store.unavailable during outages, pg_amcheck clean ({time.monotonic() - started:.0f} s)")


def check_outage(port: int):
    """With PostgreSQL down: validate still answers 200, a store request 503 store.unavailable with
    Retry-After, /readyz 503 naming the store as the reason — each within the store's operation timeout."""
    archive = crash_test.make_archive(0, random.Random(0))
    status, _, body = crash_test.request("POST", "/v1/validate", port, archive, timeout=30)
    if status != 200:
        raise SystemExit(f"store-crash-test: /v1/validate answered {status} while PostgreSQL was down: {body[:200]}")
    started = time.monotonic()
    status, headers, body = crash_test.request("GET", "/v1/archives?limit=1", port, timeout=30)
    if status != 503 or crash_test.problem_code(body) != "store.unavailable" or "Retry-After" not in headers:
        raise SystemExit(f"store-crash-test: a store request answered {status} {body[:200]} while PostgreSQL was down")
    if time.monotonic() - started > 10:
        raise SystemExit("store-crash-test: the store request took over 10 s to fail while PostgreSQL was down")
    status, _, body = crash_test.request("GET", "/readyz", port, timeout=30)
    if status != 503 or json.loads(body).get("reason") != "store unavailable":
        raise SystemExit(f"store-crash-test: /readyz answered {status} {body[:200]} while PostgreSQL was down")


def amcheck(cluster):
    """pg_amcheck: heap pages and every B-tree index of the database (incl. the unique key) are sound."""
    cluster.psql("CREATE EXTENSION IF NOT EXISTS amcheck", database=pgcluster.DATABASE)
    result = cluster._run("pg_amcheck", "-h", cluster.directory, "-p", str(cluster.port), "-U", "postgres",
                          "--heapallindexed", "-d", pgcluster.DATABASE, check=False)
    if result.returncode != 0 or result.stdout.strip():
        raise SystemExit(f"store-crash-test: pg_amcheck found problems:\n{result.stdout[:2000]}")
    rows = cluster.psql("SELECT count(*) FROM results", database=pgcluster.DATABASE)
    print(f"  pg_amcheck: clean ({rows} rows)", flush=True)
