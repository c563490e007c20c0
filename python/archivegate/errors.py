"""Typed exceptions, and the one table that maps the CLI's exit codes to them.

Every exception carries ``code`` (ArchiveGate's error code, e.g. ``plist.invalid_trailer`` or
``policy.class_not_allowed``), ``location`` as ArchiveGate writes it (``at byte 82``, ``at line 3``,
``at /root/tags/1``) and, parsed from it, ``offset``, ``line`` or ``pointer`` (the others None).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional

_LOCATION = re.compile(r"^at (?:byte (?P<offset>\d+)|line (?P<line>\d+)|(?P<pointer>/.*))$", re.S)


class ArchiveGateError(Exception):
    """Base class of every error this package raises."""

    def __init__(self, code: str, message: str, location: str = "", source: Optional[str] = None):
        self.code = code
        self.message = message
        self.location = location
        self.source = source
        match = _LOCATION.match(location or "")
        self.offset: Optional[int] = int(match["offset"]) if match and match["offset"] else None
        self.line: Optional[int] = int(match["line"]) if match and match["line"] else None
        self.pointer: Optional[str] = match["pointer"] if match else None
        where = f" {location}" if location else ""
        prefix = f"{source}: " if source else ""
        super().__init__(f"{prefix}{code}{where}: {message}")


class MalformedArchive(ArchiveGateError):
    """Not a property list or not a sound keyed archive (the CLI's exit 2, verdict ``malformed``)."""


class InconclusiveArchive(MalformedArchive):
    """Not fully checked: a limit or the deadline stopped the decode (verdict ``inconclusive``,
    the CLI's exit 3). A subclass of ``MalformedArchive``, which it was before verdicts existed."""


class RejectedArchive(ArchiveGateError):
    """The policy refused the archive (the CLI's exit 1). ``report`` is the whole validation report;
    ``code``/``pointer`` are its first violation's (or first unacknowledged finding's)."""

    def __init__(self, report: Mapping[str, Any], source: Optional[str] = None):
        self.report = dict(report)
        violations = report.get("violations") or []
        findings = [f for f in report.get("findings") or [] if not f.get("acknowledged")]
        first = violations[0] if violations else (findings[0] if findings else {})
        code = first.get("code", "policy.rejected")
        path = first.get("path", "")
        message = first.get("message") or first.get("reason") or f"rejected by policy '{report.get('policy')}'"
        super().__init__(code, message, f"at {path or '/'}", source)
        self.violations = violations


class NothingScanned(ArchiveGateError):
    """A batch or a database scan found no archive or property list at all: it checked nothing
    (code ``batch.no_archive``, the CLI's exit 4). Raised rather than read as an empty, clean run, so
    a gate that scanned nothing fails closed."""


class UsageError(ArchiveGateError):
    """The call was wrong: a bad option, an unusable policy file, an input that cannot be opened
    (the CLI's exit 64)."""


class BinaryNotFound(ArchiveGateError, FileNotFoundError):
    """No ``archivegate`` binary: not installed from the wheel, and ``ARCHIVEGATE_BIN`` unset."""


class OutputFailed(ArchiveGateError):
    """The CLI could not write its output (exit 74)."""


class ServiceError(ArchiveGateError):
    """An HTTP error answer of the ArchiveGate service: ``status`` and the RFC 9457 ``problem``."""

    def __init__(self, status: int, problem: Mapping[str, Any]):
        self.status = status
        self.problem = dict(problem)
        detail = problem.get("detail") or problem.get("title") or f"HTTP {status}"
        pointer = problem.get("pointer") or ""
        super().__init__(problem.get("code", f"http.{status}"), str(detail), f"at {pointer}" if pointer else "")


#: The CLI's exit codes (docs/CLI.md): what each means and the exception a run that produced no
#: record of its own raises. 0, 1 and 2 are per-file outcomes in a batch; a code missing here is
#: raised as ``ArchiveGateError`` (``exit.N``) rather than read as success.
EXIT_CODES: dict[int, tuple[str, Optional[type]]] = {
    0: ("valid or converted", None),
    1: ("rejected by the policy", RejectedArchive),
    2: ("malformed input", MalformedArchive),
    3: ("inconclusive: a limit hit or a nested archive not decoded", None),
    4: ("nothing scanned: no archive found", NothingScanned),
    64: ("usage error", UsageError),
    69: ("archivegate-server missing beside archivegate", UsageError),
    74: ("output failed", OutputFailed),
}

#: Exit codes a batch (folders, scan-db) ends with when it ran: each file's outcome is its record.
BATCH_OUTCOMES = frozenset({0, 1, 2, 3})

_STDERR_MALFORMED = re.compile(r"malformed: (?P<code>[a-z_]+\.[a-z_.]+) (?P<location>at (?:byte \d+|line \d+|/\S*|/)): (?P<message>.*)$")


def error_for_exit(status: int, stderr: str, source: Optional[str] = None) -> ArchiveGateError:
    """The exception for a run that exited ``status`` without a record saying why; the message is
    the CLI's last stderr line (``archivegate: …``)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    last = lines[-1] if lines else f"exit status {status}"
    last = last.removeprefix("archivegate: ")
    meaning, kind = EXIT_CODES.get(status, (None, None))
    for line in reversed(lines):
        match = _STDERR_MALFORMED.search(line)
        if match:
            return MalformedArchive(match["code"], match["message"], match["location"], source)
    if kind is None or kind in (RejectedArchive, MalformedArchive):
        return ArchiveGateError(f"exit.{status}", last if meaning is None else f"{meaning}: {last}", "", source)
    if kind is NothingScanned:
        return NothingScanned("batch.no_archive", last, "", source)
    return kind(f"exit.{status}", last, "", source)
