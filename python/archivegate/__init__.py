"""ArchiveGate for Python: decode untrusted NSKeyedArchiver archives under a class policy, without
instantiating anything, by running the static ``archivegate`` binary this package ships with.

    import archivegate
    archivegate.load("notes.archive")["root"]          # native values: str, int, float, bool,
                                                        # None, bytes, datetime, list, dict
    archivegate.validate(data)["valid"]
    for record in archivegate.batch("extraction/"): ...
    for record in archivegate.scan_db("sms.db", allow_any_class=True): ...
    archivegate.message_text(attributed_body)          # an iMessage body's text (a typedstream)

docs/PYTHON.md in the ArchiveGate repository is the reference.
"""

from ._native import APPLE_EPOCH, UID
try:
    from ._version import __version__  # written into the wheel by scripts/build-wheel
except ImportError:  # imported from the repository's python/ folder, not from a wheel
    __version__ = "0+source"
from ._binary import find_binary
from .api import batch, load, loads, scan_db, validate, version
from .client import Client
from .imessage import message_text
from .errors import (EXIT_CODES, ArchiveGateError, BinaryNotFound, InconclusiveArchive, MalformedArchive, NothingScanned, OutputFailed,
                     RejectedArchive, ServiceError, UsageError)

__all__ = [
    "APPLE_EPOCH", "UID", "__version__", "find_binary", "batch", "load", "loads", "message_text", "scan_db", "validate", "version",
    "Client", "EXIT_CODES", "ArchiveGateError", "BinaryNotFound", "InconclusiveArchive", "MalformedArchive", "NothingScanned",
    "OutputFailed", "RejectedArchive", "ServiceError", "UsageError",
]
