#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for tests: initdb in a temporary folder, run as the
unprivileged `postgres` user when started as root, on a free loopback port, its Unix socket in
the same folder. Used by scripts/postgres-test-server and scripts/lib-store/crash_test.py.

Authentication: the socket trusts local users (the tests connect as the superuser `postgres` to
make a database per test); TCP on 127.0.0.1 requires the password of the role `archivegate`
(scram-sha-256), which is what the server processes in the two-replica and crash tests use.
"""

import os
import pwd
import shutil
import socket
import subprocess
import tempfile

def _newest_bin() -> str:
    """The newest installed server's binaries (Debian: /usr/lib/postgresql/<major>/bin)."""
    versions = sorted((int(name) for name in os.listdir("/usr/lib/postgresql") if name.isdigit()), reverse=True) \
        if os.path.isdir("/usr/lib/postgresql") else []
    return f"/usr/lib/postgresql/{versions[0]}/bin" if versions else "/usr/lib/postgresql/15/bin"


BIN = _newest_bin()
ROLE = "archivegate"
PASSWORD = "archivegate-test-password"
DATABASE = "archivegate"


def ensure_installed() -> str | None:
    """None when PostgreSQL's server binaries are there, else why not. Installing is
    scripts/bootstrap's job (its one table lists `postgresql` in the test group), not this module's."""
    if os.path.exists(f"{BIN}/initdb") and os.path.exists(f"{BIN}/pg_ctl"):
        return None
    return f"{BIN}/initdb is missing: install Debian's postgresql with `scripts/bootstrap test`"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    def __init__(self, directory: str | None = None, port: int | None = None):
        self.directory = directory or tempfile.mkdtemp(prefix="archivegate-pg.")
        self.data = os.path.join(self.directory, "data")
        self.log = os.path.join(self.directory, "postgres.log")
        self.port = port or free_port()
        self.as_user = "postgres" if os.geteuid() == 0 else None

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [f"{BIN}/{args[0]}", *args[1:]]
        if self.as_user:
            command = ["runuser", "-u", self.as_user, "--", *command]
        return subprocess.run(command, check=check, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def init(self) -> None:
        if self.as_user:
            user = pwd.getpwnam(self.as_user)
            os.chown(self.directory, user.pw_uid, user.pw_gid)
        os.chmod(self.directory, 0o700)
        pwfile = os.path.join(self.directory, "pwfile")
        with open(pwfile, "w") as f:
            f.write("postgres-superuser-unused\n")
        if self.as_user:
            os.chown(pwfile, user.pw_uid, user.pw_gid)
        self._run("initdb", "-D", self.data, "-U", "postgres", "-E", "UTF8", "--locale=C",
                  "--auth-local=trust", "--auth-host=scram-sha-256", f"--pwfile={pwfile}")
        with open(os.path.join(self.data, "postgresql.conf"), "a") as f:
            f.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                    f"unix_socket_directories = '{self.directory}'\nmax_connections = 200\n"
                    "fsync = on\nsynchronous_commit = on\nfull_page_writes = on\n")
        self.start()
        self.psql(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
        self.psql(f"CREATE DATABASE {DATABASE} OWNER {ROLE}")

    def start(self) -> None:
        result = self._run("pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60", "start", check=False)
        if result.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {result.stdout}\n{self.tail_log()}")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop", check=False)

    def psql(self, sql: str, database: str = "postgres") -> str:
        result = self._run("psql", "-h", self.directory, "-p", str(self.port), "-U", "postgres", "-d", database,
                           "-v", "ON_ERROR_STOP=1", "-At", "-c", sql)
        return result.stdout.strip()

    def tail_log(self) -> str:
        try:
            with open(self.log) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.directory, ignore_errors=True)

    @property
    def superuser_url(self) -> str:
        """Over the Unix socket as `postgres` (trust): the Swift tests make one database per test."""
        return f"postgres://postgres@localhost/postgres?host={self.directory}&port={self.port}"

    @property
    def server_url(self) -> str:
        """Over TCP on 127.0.0.1 as `archivegate` with its password, as a deployed replica connects."""
        return f"postgres://{ROLE}:{PASSWORD}@127.0.0.1:{self.port}/{DATABASE}?sslmode=disable"


def _main(argv: list[str]) -> int:
    """A command line for tests in other languages (the Swift outage test):

        pgcluster.py init                  → prints {"directory", "port", "server_url"} as JSON
        pgcluster.py stop DIR PORT [MODE]  → pg_ctl stop (MODE: fast, immediate…)
        pgcluster.py start DIR PORT        → pg_ctl start, waiting until it accepts connections
        pgcluster.py remove DIR PORT       → stop immediately and delete the folder
    """
    import json
    import sys
    if argv[:1] == ["init"]:
        reason = ensure_installed()
        if reason:
            print(reason, file=sys.stderr)
            return 2
        cluster = Cluster()
        try:
            cluster.init()
        except Exception:
            cluster.remove()
            raise
        print(json.dumps({"directory": cluster.directory, "port": cluster.port, "server_url": cluster.server_url}))
        return 0
    if len(argv) >= 3 and argv[0] in ("stop", "start", "remove"):
        cluster = Cluster(directory=argv[1], port=int(argv[2]))
        if argv[0] == "stop":
            cluster.stop(argv[3] if len(argv) > 3 else "fast")
        elif argv[0] == "start":
            cluster.start()
        else:
            cluster.remove()
        return 0
    print(_main.__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    import sys
    sys.exit(_main(sys.argv[1:]))
