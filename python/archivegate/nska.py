"""A drop-in for ``nska_deserialize``'s two entry points, decoded by ArchiveGate.

    import archivegate.nska as nd          # was: import nska_deserialize as nd
    plist = nd.deserialize_plist(path_or_file, full_recurse_convert_nska=False, format=dict)

Same signatures, defaults and return shapes as nska_deserialize 1.5: the ``$top`` object (or, for
several ``$top`` names, a dict with ``format=dict`` or a list otherwise; a single top name other
than ``root`` is wrapped as ``{name: value}`` unless ``format=dict``), custom objects as dicts of
their fields without ``$class``, ``None`` as ``""``, dates as naive UTC ``datetime``, dictionary
keys as ``str``. Every class is decoded (inspection mode: nothing is ever instantiated) and
ArchiveGate's limits apply. Differences are listed in docs/PYTHON.md ("nska_deserialize drop-in"):
NSData is ``bytes`` (nska: ``{"NS.data": bytes}``), NSURL the absolute string, Foundation value
classes their docs/JSON.md shape, and failures raise ``archivegate`` exceptions, all of which are
``DeserializeError``.
"""

from __future__ import annotations

import os
import plistlib  # noqa: F401  (kept as an attribute: callers name nd.plistlib.InvalidFileException)
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import Any, BinaryIO, Union

from ._native import expand_shared
from .api import loads
from .errors import ArchiveGateError

#: Every error this module raises is an ``archivegate.ArchiveGateError``; callers that catch
#: nska_deserialize's ``DeserializeError`` catch them all.
DeserializeError = ArchiveGateError

# nska_deserialize's documented except-list names errors of the libraries it wraps
# (nd.biplist.NotBinaryPlistException, nd.ccl_bplist.BplistError …): the names exist here so that
# such a handler still compiles and runs; ArchiveGate never raises them.
biplist = SimpleNamespace(NotBinaryPlistException=type("NotBinaryPlistException", (Exception,), {}),
                          InvalidPlistException=type("InvalidPlistException", (Exception,), {}))
ccl_bplist = SimpleNamespace(BplistError=type("BplistError", (Exception,), {}))

_nska_version = "1.5.1"  # the nska_deserialize release whose behaviour this module follows


def get_version() -> str:
    """The nska_deserialize version whose call shapes this module follows."""
    return _nska_version


def deserialize_plist(path_or_file: Union[str, "os.PathLike[str]", BinaryIO], full_recurse_convert_nska: bool = False,
                      format: type = list) -> Any:
    """nska_deserialize.deserialize_plist: a path or a binary file object."""
    if isinstance(path_or_file, (str, os.PathLike)):
        with open(path_or_file, "rb") as handle:
            data = handle.read()
    else:
        data = path_or_file.read()
    return deserialize_plist_from_string(data, full_recurse_convert_nska, format)


def deserialize_plist_from_string(bytes_to_deserialize: bytes, full_recurse_convert_nska: bool = False,
                                  format: type = list) -> Any:
    """nska_deserialize.deserialize_plist_from_string: the archive's bytes.
    ``full_recurse_convert_nska`` also decodes keyed archives held in NSData (``--nested``)."""
    document = loads(bytes_to_deserialize, allow_any_class=True, class_names="drop", nested=full_recurse_convert_nska)
    # nska_deserialize repeats an object at every site that refers to it.
    return _nska_values(_top_level(expand_shared(document), format))


def _top_level(document: dict, format: type) -> Any:
    """nska's shape of the ``$top`` members (see the module's doc)."""
    names = list(document)
    shaped = {}
    for name in names:
        value = document[name]
        if value is None:
            value = ""
        if isinstance(value, (dict, list)):
            shaped[name] = value if (name.lower() == "root" or format == dict) else {name: value}
        else:
            shaped[name] = value if format == dict else {name: value}
    if len(names) == 1:
        return shaped[names[0]]
    return shaped if format == dict else [shaped[name] for name in names]


def _nska_values(value: Any) -> Any:
    """None → "", aware datetimes → naive UTC, non-string keys → str, nested archives (with
    ``full_recurse_convert_nska``) → their own top-level value; iteratively, in place."""
    holder = [value]
    stack: list = [(holder, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if item is None:
            container[key] = ""
        elif isinstance(item, datetime):
            container[key] = item.astimezone(timezone.utc).replace(tzinfo=None) if item.tzinfo else item
        elif isinstance(item, list):
            stack.extend((item, index) for index in range(len(item)))
        elif isinstance(item, dict):
            if len(item) == 1 and "$archive" in item and isinstance(item["$archive"], dict):
                container[key] = _top_level(item["$archive"], list)
                stack.append((container, key))
                continue
            if any(not isinstance(name, str) for name in item):
                item = {str(name): member for name, member in item.items()}
                container[key] = item
            stack.extend((item, name) for name in item)
    return holder[0]
