"""iMessage helpers: the text of ``message.attributedBody``, the NSArchiver typedstream that holds a
message since macOS 13 (``message.text`` is then usually NULL).

    import sqlite3, archivegate
    for rowid, body in sqlite3.connect("chat.db").execute("SELECT ROWID, attributedBody FROM message"):
        print(rowid, archivegate.message_text(body))

The body is decoded by the ``archivegate`` binary like any archive (nothing instantiated, limits
apply); its plain JSON is the attributed string's runs (docs/TYPEDSTREAM.md), whose texts joined are
the message text, with U+FFFC where an attachment or inline sticker sits.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from .api import PathLike, loads
from .errors import ArchiveGateError


def runs_text(value: Any) -> Optional[str]:
    """The text of an attributed string's plain JSON (``[{"text", "attributes"}, …]``) or of a plain
    string; None for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(run, dict) and isinstance(run.get("text"), str) for run in value):
        return "".join(run["text"] for run in value)
    return None


def message_text(attributed_body: Union[bytes, bytearray, memoryview, None], *, policy: Optional[PathLike] = None,
                 allow_any_class: bool = True, limits: Optional[Mapping[str, int]] = None, nested: bool = False) -> Optional[str]:
    """The message text of an ``attributedBody`` BLOB; None for a NULL column.

    Every class is rendered by default (``allow_any_class=True``: inspection, nothing is
    instantiated), so bodies with data detectors or attachments give their text too; pass
    ``policy=`` (and ``allow_any_class=False``) to gate them instead. Raises ``MalformedArchive``
    (code ``typedstream.*``, ``offset`` the byte where reading stopped) for a body that cannot be read,
    and ``ArchiveGateError`` with code ``imessage.not_attributed_string`` when the body's root is no
    attributed string or string.
    """
    if attributed_body is None:
        return None
    document = loads(attributed_body, native=False, policy=policy, allow_any_class=allow_any_class, limits=limits, nested=nested)
    root = document.get("root") if isinstance(document, dict) else None
    text = runs_text(root)
    if text is None:
        raise ArchiveGateError("imessage.not_attributed_string", "the body's root is not an attributed string", "at /root")
    return text
