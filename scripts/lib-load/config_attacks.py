"""scripts/robustness (e) and (f): configuration mistakes stop the start naming the key; a server
with no tenants starts and answers 401; the published demo key never listens off loopback; an early
401/413/415 ends the connection instead of draining the body (issue 15)."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import harness
from harness import Failure, check, say

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO_TENANTS = os.path.join(REPOSITORY, "examples", "demo-tenant")
PLAIN_POLICY = {"allow": ["foundation"]}

# (label, server.json or None, extra environment, tenant file fields or None, extra flags, text the error must name)
MISTAKES = [
    ("misspelt key", {"limits": {"maxBodyByte": 1000}}, {}, None, [], "limits.maxBodyByte"),
    ("unparsable size", {"limits": {"maxBodyBytes": "1x"}}, {}, None, [], "limits.maxBodyBytes"),
    ("string where a number belongs", {"http": {"port": "8080"}}, {}, None, [], "http.port"),
    ("string allowedRanges", {"fetch": {"allowedRanges": "10.0.0.0/8"}}, {}, None, [], "fetch.allowedRanges"),
    ("0.0.0.0/0 unacknowledged", {"fetch": {"allowedRanges": ["0.0.0.0/0"]}}, {}, None, [],
     "fetch.acknowledgeWideAllowedRanges"),
    ("::/0 unacknowledged", {"fetch": {"allowedRanges": ["::/0"]}}, {}, None, [], "fetch.acknowledgeWideAllowedRanges"),
    ("requestsPerSecond 1e-300", {"limits": {"requestsPerSecond": 1e-300}}, {}, None, [], "limits.requestsPerSecond"),
    ("::/8 unacknowledged", {"fetch": {"allowedRanges": ["::/8"]}}, {}, None, [], "fetch.acknowledgeWideAllowedRanges"),
    ("unknown variable", None, {"ARCHIVEGATE_LIMITS_MAX_BODY_BYTE": "1000"}, None, [], "ARCHIVEGATE_LIMITS_MAX_BODY_BYTE"),
    ("unparsable variable", None, {"ARCHIVEGATE_LIMITS_MAX_BODY_BYTES": "lots"}, None, [], "limits.maxBodyBytes"),
    ("boolean variable as 1", None, {"ARCHIVEGATE_STORE_ENABLED": "1"}, None, [], "store.enabled"),
    ("tenant maxBodyBytes: true", None, {}, {"maxBodyBytes": True}, [], "maxBodyBytes"),
    ("tenant fetchAllowedHosts *", None, {}, {"fetchAllowedHosts": ["*"]}, [], "acknowledgeAnyFetchHost"),
    ("tenant fetchAllowedHosts *.com", None, {}, {"fetchAllowedHosts": ["*.com"]}, [], "acknowledgeAnyFetchHost"),
    ("demo key off loopback", None, {}, None, ["--host", "0.0.0.0", "--extra-tenants", DEMO_TENANTS], "demo key"),
]


def _config(binary, server_json, tenant_fields):
    directory = tempfile.mkdtemp(prefix="archivegate-config-")
    os.makedirs(os.path.join(directory, "tenants"))
    if server_json is not None:
        with open(os.path.join(directory, "server.json"), "w") as out:
            json.dump(server_json, out)
    if tenant_fields is not None:
        digest = subprocess.run([binary, "hash-key", "config-attack-key"], check=True, capture_output=True,
                                text=True).stdout.strip()
        tenant = {"id": "typo", "keys": [digest], "policy": PLAIN_POLICY, **tenant_fields}
        with open(os.path.join(directory, "tenants", "typo.json"), "w") as out:
            json.dump(tenant, out)
    return directory


def _serve(binary, directory, environment, flags):
    port = harness.free_port()
    arguments = [binary, "serve", "--config", directory, "--port", str(port)]
    if "--host" not in flags:
        arguments += ["--host", "127.0.0.1"]
    env = {key: value for key, value in os.environ.items() if not key.startswith("ARCHIVEGATE_")}
    env.update(environment)
    process = subprocess.Popen(arguments + flags, cwd=directory, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return process, port


def scenario_config(binary, short):
    """(e) every mistake stops the start within 10 s, naming the key; the controls start."""
    for label, server_json, environment, tenant_fields, flags, named in MISTAKES:
        directory = _config(binary, server_json, tenant_fields)
        try:
            process, _ = _serve(binary, directory, environment, flags)
            try:
                output, _ = process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise Failure(f"(e) {label}: the server was still running after 10 s")
            check(process.returncode != 0, f"(e) {label}: exit {process.returncode}, expected a refusal")
            check(named in output, f"(e) {label}: the message does not name {named!r}: {output.strip()[-300:]}")
            say(f"(e) {label}: refused, exit {process.returncode}: {output.strip().splitlines()[-1][:160]}")
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    # Controls: a size with a suffix starts; no tenants at all starts, says so and answers 401.
    directory = _config(binary, {"limits": {"maxBodyBytes": "1k"}}, None)
    try:
        process, port = _serve(binary, directory, {"ARCHIVEGATE_LIMITS_MAX_ARCHIVE_BYTES": "16MiB"}, [])
        try:
            deadline = time.monotonic() + 30
            status = None
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as response:
                        status = response.status
                        break
                except (urllib.error.URLError, ConnectionError, OSError):
                    time.sleep(0.1)
            check(status == 200, f"(e) control: the server with 1k/16MiB sizes and no tenant did not start")
            request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/validate", data=b"x",
                                             headers={"Content-Type": "application/octet-stream"})
            try:
                urllib.request.urlopen(request, timeout=5)
                raise Failure("(e) control: /v1/validate without tenants answered 2xx")
            except urllib.error.HTTPError as error:
                check(error.code == 401, f"(e) control: /v1/validate without tenants answered {error.code}, expected 401")
        finally:
            process.terminate()
            output, _ = process.communicate(timeout=20)
        check("no tenants configured" in output, f"(e) control: no 'no tenants configured' line: {output[-300:]}")
        say("(e) controls: sizes 1k/16MiB accepted; no tenants: starts, logs it, /v1 answers 401")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _seconds_until_closed(port, head, body_bytes, give_up):
    """Sends `head` and `body_bytes` of a larger body, then waits; seconds until the server ended the
    connection (None: still open after give_up), and the status line it answered."""
    with socket.create_connection(("127.0.0.1", port), timeout=give_up) as connection:
        started = time.monotonic()
        connection.sendall(head.encode())
        try:
            connection.sendall(b"A" * body_bytes)
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        connection.settimeout(0.5)
        while time.monotonic() - started < give_up:
            try:
                chunk = connection.recv(65536)
            except socket.timeout:
                continue
            except ConnectionResetError:
                return time.monotonic() - started, received.split(b"\r\n", 1)[0].decode(errors="replace")
            if not chunk:
                return time.monotonic() - started, received.split(b"\r\n", 1)[0].decode(errors="replace")
            received += chunk
        return None, received.split(b"\r\n", 1)[0].decode(errors="replace")


def scenario_early_close(server, calm, body_timeout, short):
    """(f) 401, 413 and 415 to a 100 MB upload end the connection long before the body timeout."""
    cases = [
        ("401", "Authorization: Bearer wrong-key\r\nContent-Type: application/octet-stream\r\n"),
        ("413", f"Authorization: Bearer {calm.key}\r\nContent-Type: application/octet-stream\r\n"),
        ("415", f"Authorization: Bearer {calm.key}\r\nContent-Type: text/plain\r\n"),
    ]
    for status, headers in cases:
        head = (f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}"
                f"Content-Length: 100000000\r\n\r\n")
        seconds, line = _seconds_until_closed(server.port, head, 1 << 20, give_up=body_timeout * 3)
        check(status in line, f"(f) expected {status}, got {line!r}")
        check(seconds is not None and seconds < body_timeout / 2,
              f"(f) {status}: connection ended after {seconds} s, body timeout {body_timeout} s")
        say(f"(f) {status} to a 100 MB upload: {line!r}, connection ended after {seconds:.2f} s "
            f"(body timeout {body_timeout} s)")
