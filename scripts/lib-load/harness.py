"""Shared pieces of scripts/load and scripts/robustness: a throw-away config folder with test
tenants, a release `archivegate serve` on a free loopback port (always stopped at exit), wrk runs
parsed from post.lua's LOADJSON line, /metrics and /proc readings."""

import atexit
import datetime
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARCHIVES = os.path.join(ROOT, "config", "load", "archives")
POLICY = os.path.join(ROOT, "config", "load", "policy.json")
LUA = os.path.join(HERE, "post.lua")
FIXTURES = {
    "1k": os.path.join(ARCHIVES, "notebook-1k.archive"),
    "200k": os.path.join(ARCHIVES, "notebook-200k.archive"),
    # Not committed (5 MB): made on first use by fixture_path() with make-fixtures, then cached.
    "5m": os.path.join(ROOT, ".build-load-fixtures", "notebook-5m.archive"),
}
NAME = os.environ.get("LG_NAME", "load")


def say(message):
    print(f"{NAME}: {message}", file=sys.stderr, flush=True)


class Failure(Exception):
    """An assertion of a scenario did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def machine():
    """Date, CPU, nproc and load average, for the record."""
    model = "?"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": model,
        "nproc": os.cpu_count(),
        "load": f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}",
        "kernel": platform.release(),
    }


class Tenant:
    def __init__(self, ident, rate=1e9, burst=1_000_000_000, max_archive_bytes=None, policy=None):
        self.id = ident
        self.policy = policy  # None: config/load/policy.json
        self.key = f"{ident}-load-key-{os.urandom(6).hex()}"
        self.rate = rate
        self.burst = burst
        self.max_archive_bytes = max_archive_bytes


# server.json settings that lift the concurrent-upload caps (`memory.maxConcurrentUploads*`, at most
# 100,000). For runs that measure something else with many connections of one tenant: throughput
# (scripts/load, 64 connections) and the connection timeouts of robustness (a), whose slow clients
# hold hundreds of bodies open. With the default caps (128 in total, 32 per tenant) that tenant's
# other requests would rightly get 429 tenant.busy; the caps themselves are checked by (g) and (h).
UNCAPPED_UPLOADS = {"memory": {"maxConcurrentUploads": 100000, "maxConcurrentUploadsPerTenant": 100000}}


class Server:
    """`archivegate serve` with its own config folder, on a free 127.0.0.1 port."""

    def __init__(self, binary, tenants, header_timeout=10, idle_timeout=30, body_timeout=120, log_level="info",
                 label="server", settings=None):
        self.binary = binary
        self.tenants = {tenant.id: tenant for tenant in tenants}
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.idle_timeout = idle_timeout
        self.log_level = log_level
        self.label = label
        # More server.json sections/keys, merged over the ones written here ({"memory": {...}}).
        self.settings = settings or {}
        self.directory = tempfile.mkdtemp(prefix="archivegate-load-")
        self.process = None
        self.port = None
        self.log_path = os.path.join(self.directory, "serve.log")
        self.exit_code = None
        atexit.register(self.kill)

    def _write_config(self):
        tenants = os.path.join(self.directory, "tenants")
        os.makedirs(tenants, exist_ok=True)
        config = {
            "http": {"host": "127.0.0.1", "headerTimeoutSeconds": self.header_timeout,
                     "idleTimeoutSeconds": self.idle_timeout, "bodyTimeoutSeconds": self.body_timeout},
            "tenants": {"directory": "tenants"},
            "log": {"level": self.log_level},
        }
        for section, values in self.settings.items():
            config.setdefault(section, {}).update(values)
        with open(os.path.join(self.directory, "server.json"), "w") as out:
            json.dump(config, out, indent=2)
        with open(POLICY) as file:
            policy = json.load(file)
        for tenant in self.tenants.values():
            digest = subprocess.run([self.binary, "hash-key", tenant.key], check=True, capture_output=True,
                                    text=True).stdout.strip()
            check(re.fullmatch(r"[0-9a-f]{64}", digest), f"hash-key printed {digest!r}")
            body = {
                "id": tenant.id,
                "description": "scripts/load test tenant",
                "keys": [digest],
                "policy": tenant.policy or policy,
                "rateLimit": {"requestsPerSecond": tenant.rate, "burst": tenant.burst},
            }
            if tenant.max_archive_bytes:
                body["maxArchiveBytes"] = tenant.max_archive_bytes
            with open(os.path.join(tenants, f"{tenant.id}.json"), "w") as out:
                json.dump(body, out, indent=2)

    def start(self):
        self._write_config()
        for attempt in range(3):
            self.port = free_port()
            log = open(self.log_path, "ab")
            self.process = subprocess.Popen(
                [self.binary, "serve", "--config", self.directory, "--host", "127.0.0.1",
                 "--port", str(self.port)],
                # The config folder is the working directory too: the result store's default
                # ./data/archivegate.sqlite lands there, not in the repository.
                cwd=self.directory, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            log.close()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                try:
                    with urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as response:
                        if response.status == 200:
                            say(f"{self.label}: pid {self.process.pid} on {self.url} "
                                f"(header timeout {self.header_timeout} s, body {self.body_timeout} s, idle {self.idle_timeout} s, "
                                f"log {self.log_level})")
                            return self
                except (urllib.error.URLError, ConnectionError, OSError):
                    pass
                time.sleep(0.1)
            self.kill()
            say(f"{self.label}: did not become ready on port {self.port} (attempt {attempt + 1}): {self.log_tail()}")
        raise Failure(f"{self.label}: archivegate serve did not start")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines=15):
        try:
            with open(self.log_path, errors="replace") as log:
                return "".join(log.readlines()[-lines:])
        except OSError:
            return ""

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def terminate(self, timeout=10):
        """SIGTERM; returns (exit code or None if still running after timeout, seconds to exit)."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = None
        self.exit_code = code
        return code, time.monotonic() - started

    def kill(self):
        if self.alive():
            self.process.kill()
            self.process.wait()

    def stop(self):
        if self.alive():
            self.terminate(timeout=15)
        self.kill()
        subprocess.run(["rm", "-rf", self.directory], check=False)

    # --- readings -----------------------------------------------------------------------------
    def metrics(self):
        """archivegate_http_requests_total as {(route, status): count}."""
        with urllib.request.urlopen(f"{self.url}/metrics", timeout=10) as response:
            text = response.read().decode()
        counts = {}
        for line in text.splitlines():
            if not line.startswith("archivegate_http_requests_total{"):
                continue
            labels, value = line.rsplit(" ", 1)
            fields = dict(re.findall(r'(\w+)="([^"]*)"', labels))
            key = (fields.get("route"), fields.get("status"))
            counts[key] = counts.get(key, 0) + int(float(value))
        return counts

    def cpu_seconds(self):
        """User + system CPU time the server has used so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def open_files(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def memory_mib(self):
        """(VmRSS, VmHWM) in MiB."""
        values = {}
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    name, amount = line.split(":", 1)
                    values[name] = int(amount.split()[0]) / 1024
        return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def metrics_delta(before, after):
    """{(route, status): n} of what happened between two readings (zero entries dropped)."""
    delta = {}
    for key, value in after.items():
        difference = value - before.get(key, 0)
        if difference:
            delta[key] = difference
    return delta


def post(server, tenant, body, path="/v1/validate", headers=None, timeout=30):
    """One request with urllib: (status, headers, body bytes)."""
    request = urllib.request.Request(f"{server.url}{path}", data=body, method="POST")
    request.add_header("Content-Type", "application/octet-stream")
    if tenant is not None:
        request.add_header("Authorization", f"Bearer {tenant.key}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def fixture_path(case):
    """The archive file of a case; the uncommitted 5 MB one is generated (Foundation's NSKeyedArchiver,
    make-fixtures) on first use and cached in .build-load-fixtures/."""
    path = FIXTURES[case]
    if not os.path.exists(path):
        name = os.path.splitext(os.path.basename(path))[0]
        say(f"generating {os.path.relpath(path, ROOT)} with make-fixtures (once)")
        subprocess.run([os.path.join(HERE, "make-fixtures"), os.path.dirname(path), name], check=True,
                       stdout=subprocess.DEVNULL)
        check(os.path.exists(path), f"make-fixtures did not write {path}")
    return path


def check_fixture_accepted(server, tenant, case, path="/v1/validate"):
    """The archive must be a 200 (with valid: true for validate), or the load would measure the wrong thing."""
    with open(fixture_path(case), "rb") as file:
        body = file.read()
    status, _, answer = post(server, tenant, body, path=path)
    check(status == 200, f"{case}: POST {path} answered {status}: {answer[:300]!r}")
    if path.startswith("/v1/validate"):
        report = json.loads(answer)
        check(report.get("valid") is True, f"{case}: the policy does not accept the fixture: {answer[:500]!r}")
    else:
        json.loads(answer)  # the converted document must be JSON
    return len(body)


class Wrk:
    """One wrk process (started at once; `result()` waits and parses its LOADJSON line)."""

    def __init__(self, server, tenant, case, connections, duration, threads=None, path="/v1/validate",
                 timeout_s=30, body_file=None):
        self.case = case
        self.connections = connections
        self.duration = duration
        threads = threads or min(os.cpu_count() or 2, connections)
        env = dict(os.environ, LG_BODY=body_file or fixture_path(case), LG_KEY=tenant.key, LG_PATH=path)
        command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{max(1, round(duration))}s",
                   "--timeout", f"{timeout_s}s", "-s", LUA, server.url + path]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        atexit.register(self._kill)

    def _kill(self):
        if self.process.poll() is None:
            self.process.kill()

    def result(self):
        try:
            out, err = self.process.communicate(timeout=self.duration + 60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure(f"wrk ({self.case}) did not finish")
        line = next((l for l in out.splitlines() if l.startswith("LOADJSON ")), None)
        check(self.process.returncode == 0 and line,
              f"wrk ({self.case}) exited {self.process.returncode} without a result: {out[-800:]} {err[-800:]}")
        result = json.loads(line[len("LOADJSON "):])
        result["socket_errors"] = sum(result[k] for k in ("connect", "read", "write", "timeout"))
        result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
        result["case"] = self.case
        result["connections"] = self.connections
        result["raw"] = out
        return result


def ms(microseconds):
    return f"{microseconds / 1000:.2f}"


def describe(result):
    return (f"{result['requests']} requests, {result['rps']:,.0f} req/s, p50 {ms(result['p50_us'])} ms, "
            f"p99 {ms(result['p99_us'])} ms, max {ms(result['max_us'])} ms, non-2xx {result['status']}, "
            f"socket errors {result['socket_errors']} (connect {result['connect']}, read {result['read']}, "
            f"write {result['write']}, timeout {result['timeout']})")


def install_signal_cleanup():
    """SIGTERM/SIGINT/SIGHUP to the script → normal exit, so atexit stops the servers and wrk."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, handler)
