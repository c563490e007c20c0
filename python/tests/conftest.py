"""Fixtures for the installed-wheel tests (scripts/test-python runs them in a fresh venv).

Paths come from the environment scripts/test-python sets: AG_REPO (the repository, for
examples/), AG_REAL_CORPUS (../shared/real-corpus; tests that need it skip, saying why, when it
is absent), AG_SERVER_BIN (the archivegate-server built with the wheel's binary).
"""

import os
import socket
import subprocess
import time
import urllib.request

import pytest


def _env_path(name, missing, reason):
    """The path in $name, or ``missing(reason)`` (pytest.fail or pytest.skip) when it is unset or absent."""
    value = os.environ.get(name)
    if not (value and os.path.exists(value)):
        missing(reason)
    return value


@pytest.fixture(scope="session")
def repo():
    return _env_path("AG_REPO", pytest.fail, "AG_REPO is not set: run these tests through scripts/test-python")


@pytest.fixture(scope="session")
def real_corpus():
    return _env_path("AG_REAL_CORPUS", pytest.skip,
                     "../shared/real-corpus is absent (AG_REAL_CORPUS unset or missing): the real-archive workflow cannot run")


@pytest.fixture(scope="session")
def typedstream_corpus(repo):
    """../shared/typedstream-corpus (AG_TYPEDSTREAM_CORPUS, else beside the repository); skipped, saying why, when absent."""
    path = os.environ.get("AG_TYPEDSTREAM_CORPUS") or os.path.join(repo, "..", "shared", "typedstream-corpus")
    if not os.path.exists(os.path.join(path, "SOURCES.md")):
        pytest.skip("../shared/typedstream-corpus is absent: the typedstream tests cannot run")
    return path


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """A real archivegate-server on a free loopback port with one throwaway tenant; yields
    (base URL, key). Stopped with SIGTERM at the end of the session."""
    binary = _env_path("AG_SERVER_BIN", pytest.fail,
                       "AG_SERVER_BIN is not set: scripts/test-python builds archivegate-server beside the wheel's binary")
    import archivegate

    work = tmp_path_factory.mktemp("server")
    key = "python-test-" + os.urandom(8).hex()
    digest = subprocess.run([archivegate.find_binary(), "hash-key", key], check=True, capture_output=True,
                            text=True).stdout.strip()
    (work / "tenants").mkdir()
    (work / "tenants" / "python-test.json").write_text(
        '{"id": "python-test", "keys": ["%s"], "policy": {"allow": ["foundation"]}, "fetchAllowedHosts": [],'
        ' "rateLimit": {"requestsPerSecond": 100000, "burst": 100000}}' % digest)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = open(work / "server.log", "wb")
    env = dict(os.environ, ARCHIVEGATE_STORE_PATH=str(work / "results.sqlite"))
    process = subprocess.Popen([binary, "--config", str(work), "--host", "127.0.0.1", "--port", str(port),
                                "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            pytest.fail(f"archivegate-server exited {process.returncode}: {(work / 'server.log').read_text()}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as answer:
                if answer.status == 200:
                    break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.fail("archivegate-server did not answer /healthz within 30 s")
            time.sleep(0.05)  # polling for readiness, not ordering events
    yield base, key
    process.terminate()
    process.wait(timeout=30)
    log.close()
