#!/usr/bin/env python3
"""Writes per second through POST /v1/archives: one replica on SQLite, then one and two replicas
on one throwaway PostgreSQL cluster (docs/OPERATIONS.md's figure).

Each run starts the replicas, lets `--clients` threads POST unique ~1 KB archives (a new result
each: no idempotent 200s) round robin over the replicas for `--seconds`, and counts the 201s. Any
other answer fails the run. The clients share this machine with the servers and PostgreSQL, so the
figure is for the whole set-up on one host, not for a replica alone.
"""

import argparse
import hashlib
import json
import os
import sys
import tempfile
import threading
import time

import crash_test
import pgcluster


class _KilobyteFiller:
    """Makes crash_test.make_archive's filler 1 KiB every time: one archive size for every case."""

    @staticmethod
    def choice(sizes):
        return 1024


KILOBYTE_FILLER = _KilobyteFiller()


def measure(ports, clients: int, seconds: float, first_serial: int) -> tuple[int, float]:
    """201s counted while `clients` threads write for `seconds`; returns (count, elapsed)."""
    lock = threading.Lock()
    counts = {"created": 0, "other": []}
    serial = [first_serial]
    stop = threading.Event()

    def run():
        while not stop.is_set():
            with lock:
                serial[0] += 1
                number = serial[0]
            archive = crash_test.make_archive(number, KILOBYTE_FILLER)
            status, _, body = crash_test.request("POST", "/v1/archives", ports[number % len(ports)], archive)
            with lock:
                if status == 201:
                    counts["created"] += 1
                else:
                    counts["other"].append((status, body[:200]))

    threads = [threading.Thread(target=run, daemon=True) for _ in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(seconds)  # the measuring window itself, not an ordering of events
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    elapsed = time.monotonic() - started
    if counts["other"]:
        raise SystemExit(f"write-rate: unexpected answers: {counts['other'][:3]}")
    return counts["created"], elapsed


def write_config(directory: str, store: dict):
    os.makedirs(os.path.join(directory, "tenants"), exist_ok=True)
    with open(os.path.join(directory, "server.json"), "w") as file:
        json.dump({"store": store, "limits": {"requestsPerSecond": 1000000, "burst": 1000000},
                   "log": {"level": "warning"}}, file)
    with open(os.path.join(directory, "tenants", "load.json"), "w") as file:
        json.dump({"id": "load", "keys": [hashlib.sha256(crash_test.KEY.encode()).hexdigest()],
                   "policy": {"allow": ["foundation"]}}, file)


def run_case(label, binary, config, environment, replica_count, options, work, serial):
    replicas = [crash_test.Server(binary, config, crash_test.free_port(), os.path.join(work, f"{label}-{index}.log"), environment)
                for index in range(replica_count)]
    try:
        for replica in replicas:
            replica.start()
        # A short warm-up (connections, first statements) outside the window.
        measure([r.port for r in replicas], options.clients, 2, serial)
        created, elapsed = measure([r.port for r in replicas], options.clients, options.seconds, serial + 10_000_000)
    finally:
        for replica in replicas:
            replica.kill()
    rate = created / elapsed
    print(f"  {label:28} {replica_count} replica(s): {created:6} results in {elapsed:5.1f} s = {rate:7.1f} writes/s", flush=True)
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    options = parser.parse_args()
    reason = pgcluster.ensure_installed()
    if reason:
        raise SystemExit(f"write-rate: PostgreSQL is not available: {reason}")
    work = tempfile.mkdtemp(prefix="archivegate-write-rate-")
    print(f"write-rate: {options.clients} clients, {options.seconds:.0f} s per case, binary {options.binary}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start", flush=True)
    sqlite_config = os.path.join(work, "sqlite")
    write_config(sqlite_config, {"kind": "sqlite", "path": os.path.join(work, "results.sqlite")})
    run_case("sqlite", options.binary, sqlite_config, {}, 1, options, work, 1)
    cluster = pgcluster.Cluster()
    cluster.init()
    try:
        postgres_config = os.path.join(work, "postgres")
        write_config(postgres_config, {"kind": "postgres"})
        environment = {"ARCHIVEGATE_STORE_POSTGRES_URL": cluster.server_url}
        one = run_case("postgres", options.binary, postgres_config, environment, 1, options, work, 100_000_000)
        two = run_case("postgres", options.binary, postgres_config, environment, 2, options, work, 200_000_000)
    finally:
        cluster.remove()
    print(f"write-rate: two replicas / one = {two / one:.2f}; load average {os.getloadavg()[0]:.1f} at the end", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
