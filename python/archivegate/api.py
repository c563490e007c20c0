"""The local API: each call runs the bundled ``archivegate`` binary and reads its JSON (Lines).

Single archives go through the CLI's batch form (one file, ``--jobs 1``), whose JSON Lines record
says in structured form what the one-file form says on stderr: ``converted`` with the JSON,
``valid``/``rejected`` with the report, ``malformed`` with ``{"code","location","message"}``.
Records are read by key, so members a newer CLI adds (a ``verdict``…) pass through untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from typing import Any, BinaryIO, Iterable, Iterator, Mapping, Optional, Sequence, Union

from . import _binary
from ._native import rehydrate, typed_to_native
from .errors import BATCH_OUTCOMES, ArchiveGateError, InconclusiveArchive, MalformedArchive, RejectedArchive, UsageError, error_for_exit

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[bytes, bytearray, memoryview, PathLike, BinaryIO]

_MODES = ("plain", "typed")


def _policy_arguments(policy: Optional[PathLike], allow_any_class: bool, limits: Optional[Mapping[str, int]],
                      nested: bool) -> list[str]:
    arguments: list[str] = []
    if policy is not None:
        arguments += ["--policy", os.fspath(policy)]
    if allow_any_class:
        arguments.append("--allow-any-class")
    if nested:
        arguments.append("--nested")
    for name, value in (limits or {}).items():
        arguments += ["--limit", f"{name}={int(value)}"]
    return arguments


def _switch_arguments(class_names: str, nulls: str) -> list[str]:
    return ["--class-names", class_names, "--nulls", nulls]


def _check_mode(mode: str) -> None:
    if mode not in _MODES:
        raise UsageError("usage.invalid_mode", f"mode must be 'plain' or 'typed', not {mode!r}")


class _Input:
    """A file path for the CLI: the caller's own file, or the bytes written to a private temporary file."""

    def __init__(self, source: Source):
        self._folder: Optional[str] = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._write(bytes(source))
        elif isinstance(source, (str, os.PathLike)):
            self.path = os.fspath(source)
            if os.path.isdir(self.path):
                raise UsageError("usage.folder", f"'{self.path}' is a folder: use archivegate.batch() for folders")
        elif hasattr(source, "read"):
            data = source.read()
            if not isinstance(data, (bytes, bytearray)):
                raise UsageError("usage.text_file", "open the archive in binary mode ('rb')")
            self._write(bytes(data))
        else:
            raise UsageError("usage.invalid_source", f"expected bytes, a path or a binary file, not {type(source).__name__}")

    def _write(self, data: bytes) -> None:
        self._folder = tempfile.mkdtemp(prefix="archivegate-")
        self.path = os.path.join(self._folder, "input")
        with open(self.path, "wb") as handle:
            handle.write(data)

    def __enter__(self) -> "_Input":
        return self

    def __exit__(self, *_: Any) -> None:
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)


def _one_record(arguments: list[str], source: Optional[str], completed=None) -> dict:
    """The record of a one-file batch (``COMMAND --jobs 1 …``), run here unless ``completed`` is its
    finished run; raises when the run produced none. A batch skips a file that is not a property
    list at all, where the one-file form calls it malformed: that case is run again in the one-file
    form for its error line."""
    completed = completed or _binary.run(arguments)
    lines = [line for line in completed.stdout.splitlines() if line.strip()]
    if len(lines) == 1:
        return json.loads(lines[0])
    # A batch that skipped its one file (not a property list) found no archive: exit 4, nothing scanned.
    if completed.returncode in (0, 4) and arguments[1:3] == ["--jobs", "1"]:
        completed = _binary.run([arguments[0], *arguments[3:]])
    raise error_for_exit(completed.returncode, completed.stderr.decode("utf-8", "replace"), source)


def _outcome(record: Mapping[str, Any], source: Optional[str]) -> dict:
    """The record of a converted or validated file; the typed exception for any other status."""
    status = record.get("status")
    if status == "malformed":
        error = record.get("error") or {}
        raise MalformedArchive(error.get("code", "archive.malformed"), error.get("message", ""),
                               error.get("location", ""), source)
    if status == "inconclusive" and record.get("error"):
        error = record["error"]
        raise InconclusiveArchive(error.get("code", "archive.inconclusive"), error.get("message", ""),
                                  error.get("location", ""), source)
    if status == "rejected":
        raise RejectedArchive(record.get("report") or {}, source)
    # plist: a plain property list, converted; the other verdicts of a validate record carry the
    # report (docs/CLI.md, the verdict table).
    if status in ("converted", "valid", "plist", "redacted", "acceptedWithFindings", "inconclusive"):
        return dict(record)
    raise ArchiveGateError(f"status.{status}", f"unexpected record status {status!r}", "", source)


def _convert_arguments(mode: str, policy, allow_any_class, limits, nested, class_names, nulls) -> list[str]:
    return ["convert", "--jobs", "1", "--mode", mode, *_policy_arguments(policy, allow_any_class, limits, nested),
            *(_switch_arguments(class_names, nulls) if mode == "plain" else [])]


def _convert_file(path: str, source: Optional[str], mode: str, native: bool, policy, allow_any_class, limits,
                  nested, class_names, nulls) -> Any:
    _check_mode(mode)
    arguments = _convert_arguments(mode, policy, allow_any_class, limits, nested, class_names, nulls) + ["--", path]
    if not native or mode == "typed":
        document = _outcome(_one_record(arguments, source), source).get("json")
        return typed_to_native(document) if native else document
    # Native plain values need the typed graph too: both runs at once.
    typed_arguments = _convert_arguments("typed", policy, allow_any_class, limits, nested, "keep", "keep") + ["--", path]
    plain_run, typed_run = _binary.run_together([arguments, typed_arguments])
    plain = _outcome(_one_record(arguments, source, plain_run), source).get("json")
    typed = _outcome(_one_record(typed_arguments, source, typed_run), source).get("json")
    return rehydrate(plain, typed)


def loads(data: Union[bytes, bytearray, memoryview], *, mode: str = "plain", native: bool = True,
          policy: Optional[PathLike] = None, allow_any_class: bool = False, limits: Optional[Mapping[str, int]] = None,
          nested: bool = False, class_names: str = "keep", nulls: str = "keep") -> Any:
    """The archive in ``data`` as Python values: ``{"root": …}`` (one member per ``$top`` name).

    ``mode="plain"`` follows docs/JSON.md "JSON conventions" with, when ``native`` (the default), NSData
    as ``bytes``, NSDate as an aware UTC ``datetime`` and reals as ``float``; ``native=False`` gives
    the JSON exactly as the CLI prints it. ``mode="typed"`` is the lossless archive graph (tags as
    ``UID``, bytes, datetime, float when ``native``). ``policy`` is a policy file, ``allow_any_class``
    the inspection mode (every class rendered, none instantiated), ``limits`` overrides
    (``{"maxDepth": 64}``), ``nested`` decodes archives inside NSData, ``class_names``/``nulls``
    ("keep"/"drop") are ``convert``'s output switches. Raises ``MalformedArchive``,
    ``RejectedArchive`` (with ``report``) or ``UsageError``.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UsageError("usage.invalid_source", f"loads() takes bytes, not {type(data).__name__}: use load() for paths and files")
    with _Input(data) as source:
        return _convert_file(source.path, None, mode, native, policy, allow_any_class, limits, nested, class_names, nulls)


def load(path_or_file: Union[PathLike, BinaryIO], *, mode: str = "plain", native: bool = True,
         policy: Optional[PathLike] = None, allow_any_class: bool = False, limits: Optional[Mapping[str, int]] = None,
         nested: bool = False, class_names: str = "keep", nulls: str = "keep") -> Any:
    """Like ``loads``, for a path (read in place, never copied) or a binary file object."""
    if isinstance(path_or_file, (bytes, bytearray, memoryview)):
        raise UsageError("usage.invalid_source", "load() takes a path or a file: use loads() for bytes")
    name = os.fspath(path_or_file) if isinstance(path_or_file, (str, os.PathLike)) else getattr(path_or_file, "name", None)
    with _Input(path_or_file) as source:
        return _convert_file(source.path, name if isinstance(name, str) else None, mode, native, policy,
                             allow_any_class, limits, nested, class_names, nulls)


def validate(source: Source, *, policy: Optional[PathLike] = None, allow_any_class: bool = False,
             limits: Optional[Mapping[str, int]] = None, nested: bool = False) -> dict:
    """The validation report (docs/JSON.md "The report") of bytes, a path or a binary file, whether or not
    the policy accepts the archive (``report["valid"]`` says which). Malformed input raises
    ``MalformedArchive``."""
    name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
    with _Input(source) as given:
        record = _one_record(["validate", "--jobs", "1", *_policy_arguments(policy, allow_any_class, limits, nested),
                              "--", given.path], name)
    if record.get("status") == "rejected":
        return dict(record.get("report") or {})
    return dict(_outcome(record, name).get("report") or {})


def _records(arguments: list[str]) -> Iterator[dict]:
    """The JSON Lines records of one CLI run, as they come; raises when the run failed as a whole
    (usage, output, an exit code EXIT_CODES does not know) after the last record."""
    with tempfile.TemporaryFile() as stderr:
        process = _binary.start(arguments, stderr)
        try:
            assert process.stdout is not None
            for line in process.stdout:
                if line.strip():
                    yield json.loads(line)
        finally:
            # A caller that stops early (or an exception) ends the run; nothing more is read.
            if process.poll() is None:
                process.kill()
            process.stdout.close()
            status = process.wait()
        if status not in BATCH_OUTCOMES:
            stderr.seek(0)
            raise error_for_exit(status, stderr.read().decode("utf-8", "replace"))


def _native_records(plain_arguments: list[str], typed_arguments: list[str], key) -> Iterator[dict]:
    """Records of a plain run with each ``json`` rehydrated from the typed run's record for the same
    key. Both runs go on at once; records that arrive in a different order wait in a table."""
    typed_pending: dict = {}
    typed_records = _records(typed_arguments)
    try:
        for record in _records(plain_arguments):
            record_key = key(record)
            while record_key not in typed_pending:
                other = next(typed_records, None)
                if other is None:
                    break
                typed_pending.setdefault(key(other), []).append(other)
            typed = typed_pending.get(record_key)
            if typed and record.get("json") is not None:
                match = typed.pop(0)
                if not typed:
                    del typed_pending[record_key]
                if match.get("json") is not None:
                    record["json"] = rehydrate(record["json"], match["json"])
            yield record
        for _ in typed_records:  # drain, so its exit status is checked
            pass
    finally:
        typed_records.close()


def batch(paths: Union[PathLike, Sequence[PathLike]], *, recursive: bool = True, validate: bool = False,
          include: Iterable[str] = (), exclude: Iterable[str] = (), jobs: Optional[int] = None, mode: str = "plain",
          native: bool = True, policy: Optional[PathLike] = None, allow_any_class: bool = False,
          limits: Optional[Mapping[str, int]] = None, nested: bool = False, class_names: str = "keep",
          nulls: str = "keep") -> Iterator[dict]:
    """One record per file under the folders (and files) given, as ``archivegate convert --recursive``
    (``validate=True``: ``archivegate validate``) writes them in JSON Lines: ``{"file", "status":
    "converted", "json"}``, ``{"file", "status": "valid"|"rejected", "report"}`` or ``{"file",
    "status": "malformed", "error": {"code","location","message"}}``. Files that are not property
    lists are skipped by the CLI (no record). ``json`` is native as in ``loads`` unless
    ``native=False``. Per-file failures are records, not exceptions; the generator raises only when
    the run fails as a whole (``UsageError`` for an unreadable input…; ``NothingScanned`` when no file
    was an archive or property list)."""
    _check_mode(mode)
    inputs = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    common = ["--jobs", str(jobs or os.cpu_count() or 1), *(["--recursive"] if recursive else []),
              *[argument for glob in include for argument in ("--include", glob)],
              *[argument for glob in exclude for argument in ("--exclude", glob)],
              *_policy_arguments(policy, allow_any_class, limits, nested)]
    if validate:
        return _records(["validate", *common, "--", *inputs])
    switches = _switch_arguments(class_names, nulls) if mode == "plain" else []
    plain = ["convert", "--mode", mode, *common, *switches, "--", *inputs]
    if not native:
        return _records(plain)
    if mode == "typed":
        return _typed_native(_records(plain))
    typed = ["convert", "--mode", "typed", *common, "--", *inputs]
    return _native_records(plain, typed, key=lambda record: record.get("file"))


def _typed_native(records: Iterator[dict]) -> Iterator[dict]:
    for record in records:
        if record.get("json") is not None:
            record["json"] = typed_to_native(record["json"])
        yield record


def scan_db(path: PathLike, *, tables: Iterable[str] = (), columns: Iterable[str] = (), jobs: Optional[int] = None,
            mode: str = "plain", native: bool = True, policy: Optional[PathLike] = None, allow_any_class: bool = False,
            limits: Optional[Mapping[str, int]] = None, nested: bool = False, class_names: str = "keep",
            nulls: str = "keep") -> Iterator[dict]:
    """One record per archive BLOB in a SQLite database, as ``archivegate scan-db`` writes them:
    ``{"table","column","rowid","status","report","json"}`` (``"error"`` instead of ``"json"`` when
    malformed), in database order. The database is opened read-only and never written."""
    _check_mode(mode)
    common = ["--jobs", str(jobs or os.cpu_count() or 1),
              *[argument for table in tables for argument in ("--table", table)],
              *[argument for column in columns for argument in ("--column", column)],
              *_policy_arguments(policy, allow_any_class, limits, nested)]
    database = os.fspath(path)
    switches = _switch_arguments(class_names, nulls) if mode == "plain" else []
    plain = ["scan-db", "--mode", mode, *common, *switches, "--", database]
    if not native:
        return _records(plain)
    if mode == "typed":
        return _typed_native(_records(plain))
    typed = ["scan-db", "--mode", "typed", *common, "--", database]
    return _native_records(plain, typed, key=lambda record: (record.get("table"), record.get("column"), record.get("rowid")))


def version() -> str:
    """The bundled binary's version (``archivegate --version``)."""
    completed = _binary.run(["--version"])
    if completed.returncode != 0:
        raise error_for_exit(completed.returncode, completed.stderr.decode("utf-8", "replace"))
    return completed.stdout.decode().strip()
