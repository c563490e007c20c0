#!/usr/bin/env python3
"""Crash safety of the result store: kill -9 the server while clients write, restart, verify.

Every round starts `archivegate serve` on the same SQLite file, lets writer threads POST unique
archives to /v1/archives, and SIGKILLs the server at a random moment. After each restart, every
result that was acknowledged with a 201 (in any earlier round) must still be there:

  * GET /v1/archives/{id} answers the very bytes the 201 carried (metadata + report);
  * GET /v1/archives/{id}/json answers exactly what /v1/convert answers for the same archive now;
  * PRAGMA integrity_check on the file says "ok".

Requests that were in flight when the server died may or may not have been stored; only their
absence from the acknowledged set is allowed. Exits 1 with the first discrepancy.

With --store postgres (crash_test_postgres.py): two replicas share a throwaway PostgreSQL cluster;
each round kill -9s one replica at random (and restarts it) or stops PostgreSQL itself with
`pg_ctl stop -m immediate` and starts it again, while writers POST to both replicas. The replicas
must come back to ready without a restart, and pg_amcheck must find the heap and indexes sound.
"""

import argparse
import hashlib
import http.client
import json
import os
import plistlib
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

KEY = "crash-test-key"


def make_archive(serial: int, rng: random.Random) -> bytes:
    """A unique keyed archive (binary plist with UIDs, as NSKeyedArchiver writes it): an NSDictionary
    holding the serial and a filler string of random size, so transactions vary from ~300 B to ~64 KB."""
    filler = "x" * rng.choice([0, 64, 1024, 16384, 65536])
    objects = [
        "$null",
        {"NS.keys": [plistlib.UID(2), plistlib.UID(3)], "NS.objects": [plistlib.UID(4), plistlib.UID(5)], "$class": plistlib.UID(6)},
        "serial",
        "filler",
        f"crash-test archive {serial}",
        filler,
        {"$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]},
    ]
    archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)}, "$objects": objects}
    return plistlib.dumps(archive, fmt=plistlib.FMT_BINARY)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, binary: str, config: str, port: int, log_path: str, environment: dict | None = None):
        self.binary, self.config, self.port, self.log_path = binary, config, port, log_path
        self.environment = dict(os.environ, **(environment or {}))
        self.process = None

    def start(self, timeout: float = 60.0):
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen([self.binary, "serve", "--config", self.config, "--port", str(self.port)],
                                        stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=self.environment)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"store-crash-test: the server exited with {self.process.returncode} at start; see {self.log_path}")
            try:
                status, _, _ = request("GET", "/readyz", self.port, timeout=2)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise SystemExit(f"store-crash-test: the server was not ready within {timeout} s; see {self.log_path}")

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


def request(method, path, port, body=None, timeout=30.0):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Authorization": f"Bearer {KEY}"}
        if body is not None:
            headers["Content-Type"] = "application/octet-stream"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class Writers:
    """Threads that POST unique archives until told to stop; 201s are recorded with their bodies."""

    def __init__(self, port, count: int, first_serial: int, seed: int, tolerated=frozenset()):
        """`port`: one port or a list (each request picks one); `tolerated`: problem codes that are
        expected answers in this run (e.g. store.unavailable while PostgreSQL is down)."""
        self.ports = port if isinstance(port, list) else [port]
        self.count, self.tolerated = count, tolerated
        self.tolerated_count = 0
        self.serial = first_serial
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.acknowledged = []  # (id, archive bytes, 201 body)
        self.failures = []      # non-connection-error responses other than 201
        self.rng = random.Random(seed)

    def next_archive(self):
        with self.lock:
            self.serial += 1
            return make_archive(self.serial, self.rng)

    def run(self):
        while not self.stop.is_set():
            archive = self.next_archive()
            with self.lock:
                port = self.rng.choice(self.ports)
            try:
                status, headers, body = request("POST", "/v1/archives", port, archive, timeout=30)
            except (OSError, http.client.HTTPException):
                continue  # the server died mid-request: not acknowledged, may or may not be stored
            if status == 201:
                document = json.loads(body)
                with self.lock:
                    self.acknowledged.append((document["id"], archive, body))
            elif problem_code(body) in self.tolerated:
                with self.lock:
                    self.tolerated_count += 1
                time.sleep(0.05)  # a client honouring Retry-After would wait longer still
            else:
                with self.lock:
                    self.failures.append((status, body[:300]))

    def start(self):
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(self.count)]
        for thread in self.threads:
            thread.start()

    def join(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)


def problem_code(body: bytes):
    try:
        return json.loads(body).get("code")
    except (ValueError, AttributeError):
        return None


def verify_results(port, acknowledged):
    """Every acknowledged result byte-identical to its 201 and its JSON to a fresh conversion."""
    for result_id, archive, created_body in acknowledged:
        status, _, body = request("GET", f"/v1/archives/{result_id}", port)
        if status != 200:
            raise SystemExit(f"store-crash-test: acknowledged result {result_id} is missing (GET answered {status})")
        if body != created_body:
            raise SystemExit(f"store-crash-test: result {result_id} differs from its 201 body:\n{created_body[:200]}\n{body[:200]}")
        document = json.loads(body)
        if document["sha256"] != hashlib.sha256(archive).hexdigest() or document["size"] != len(archive):
            raise SystemExit(f"store-crash-test: result {result_id} has the wrong digest or size")
        status, _, stored_json = request("GET", f"/v1/archives/{result_id}/json", port)
        converted_status, _, converted = request("POST", "/v1/convert", port, archive)
        if status != 200 or converted_status != 200 or stored_json != converted:
            raise SystemExit(f"store-crash-test: result {result_id}'s JSON ({status}) differs from a fresh conversion ({converted_status})")


def verify(port, acknowledged, database):
    verify_results(port, acknowledged)
    check = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        findings = [row[0] for row in check.execute("PRAGMA integrity_check")]
    finally:
        check.close()
    if findings != ["ok"]:
        raise SystemExit(f"store-crash-test: PRAGMA integrity_check: {findings[:5]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--min-run", type=float, default=0.3, help="shortest time writers run before the kill (s)")
    parser.add_argument("--max-run", type=float, default=1.5, help="longest time writers run before the kill (s)")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--work-dir", default=None)
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--pg-every", type=int, default=4, help="postgres: every Nth round stops PostgreSQL instead of a replica")
    options = parser.parse_args()
    if options.store == "postgres":
        import crash_test_postgres
        return crash_test_postgres.run(options)
    rng = random.Random(options.seed)

    work = options.work_dir or tempfile.mkdtemp(prefix="archivegate-crash-")
    config = os.path.join(work, "config")
    os.makedirs(os.path.join(config, "tenants"), exist_ok=True)
    database = os.path.join(work, "data", "results.sqlite")
    with open(os.path.join(config, "server.json"), "w") as file:
        json.dump({"store": {"path": database, "purgeIntervalSeconds": 3600},
                   "limits": {"requestsPerSecond": 1000000, "burst": 1000000}, "log": {"level": "warning"}}, file)
    with open(os.path.join(config, "tenants", "crash.json"), "w") as file:
        json.dump({"id": "crash", "keys": [hashlib.sha256(KEY.encode()).hexdigest()], "policy": {"allow": ["foundation"]}}, file)
    server = Server(options.binary, config, free_port(), os.path.join(work, "server.log"))
    print(f"store-crash-test: {options.kills} kills, {options.writers} writers, seed {options.seed}, work dir {work}", flush=True)

    acknowledged = []
    last_round_count = 0
    started = time.monotonic()
    try:
        for round_number in range(1, options.kills + 1):
            server.start()
            # After each restart: the previous round's results in full, plus a sample of older ones;
            # after the last restart, every result.
            older = acknowledged[:len(acknowledged) - last_round_count]
            verify(server.port, acknowledged[len(older):] + rng.sample(older, min(len(older), 50)), database)
            writers = Writers(server.port, options.writers, first_serial=round_number * 10_000_000, seed=rng.random())
            writers.start()
            time.sleep(rng.uniform(options.min_run, options.max_run))
            server.kill()
            writers.join()
            if writers.failures:
                raise SystemExit(f"store-crash-test: round {round_number}: non-201 answers before the kill: {writers.failures[:3]}")
            acknowledged += writers.acknowledged
            last_round_count = len(writers.acknowledged)
            print(f"  round {round_number:3}: {len(writers.acknowledged):4} acknowledged, {len(acknowledged):6} in total; killed",
                  flush=True)
        server.start()
        verify(server.port, acknowledged, database)
    finally:
        server.kill()
    if len(acknowledged) < options.kills:
        raise SystemExit(f"store-crash-test: only {len(acknowledged)} results were acknowledged in {options.kills} rounds: too few to mean anything")
    print(f"store-crash-test: passed — {options.kills} kill -9s, {len(acknowledged)} acknowledged results all present and "
          f"byte-identical, integrity_check ok ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
