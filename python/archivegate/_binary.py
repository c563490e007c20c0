"""Finds the ``archivegate`` binary and runs it.

The wheel installs the static binary as a script (``archivegate-<version>.data/scripts/``), so pip
puts it on the environment's PATH beside ``python``, as ruff and uv ship theirs. Looked up in order:
``$ARCHIVEGATE_BIN``; the scripts folder of the environment this package is imported from (and of
the user scheme, for ``pip install --user``); the ``bin`` folder beside a ``pip install --target``
tree; then ``PATH``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from typing import Optional, Sequence

from .errors import BinaryNotFound

_NAME = "archivegate" + (".exe" if sys.platform == "win32" else "")


def _candidates() -> list[str]:
    folders = [sysconfig.get_path("scripts")]
    try:
        user_scheme = sysconfig.get_preferred_scheme("user")  # Python 3.10+
    except AttributeError:
        user_scheme = "posix_user" if os.name == "posix" else "nt_user"
    try:
        folders.append(sysconfig.get_path("scripts", scheme=user_scheme))
    except KeyError:
        pass
    # pip install --target DIR: the package is DIR/archivegate, the scripts DIR/bin.
    folders.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin"))
    return [os.path.join(folder, _NAME) for folder in folders if folder]


def find_binary() -> str:
    """The path of the ``archivegate`` binary this package runs; ``BinaryNotFound`` when there is none."""
    override = os.environ.get("ARCHIVEGATE_BIN")
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise BinaryNotFound("binary.not_found", f"ARCHIVEGATE_BIN={override} is not an executable file")
    for candidate in _candidates():
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    on_path = shutil.which(_NAME)
    if on_path:
        return on_path
    raise BinaryNotFound("binary.not_found",
                         "no archivegate binary: install the archivegate wheel, or set ARCHIVEGATE_BIN")


def run(arguments: Sequence[str], binary: Optional[str] = None) -> subprocess.CompletedProcess:
    """Runs the binary to completion with stdout and stderr captured (bytes)."""
    return run_together([arguments], binary)[0]


def run_together(runs: Sequence[Sequence[str]], binary: Optional[str] = None) -> list:
    """Runs the binary once per argument list, all at once (their start-ups overlap), and returns
    each run's CompletedProcess (stdout and stderr captured, bytes) in order."""
    path = binary or find_binary()
    processes = [subprocess.Popen([path, *arguments], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE) for arguments in runs]
    results = []
    try:
        for arguments, process in zip(runs, processes):
            stdout, stderr = process.communicate()
            results.append(subprocess.CompletedProcess([path, *arguments], process.returncode, stdout, stderr))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    return results


def start(arguments: Sequence[str], stderr, binary: Optional[str] = None) -> subprocess.Popen:
    """Starts the binary with stdout piped (for JSON Lines) and stderr to ``stderr`` (a file: a
    batch writes a line per failing file and progress, which must not fill a pipe nobody reads)."""
    return subprocess.Popen([binary or find_binary(), *arguments], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=stderr)
