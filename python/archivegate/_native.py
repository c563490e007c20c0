"""Native Python values from ArchiveGate's JSON.

Plain JSON (docs/JSON.md "JSON conventions") writes NSData as base64 and NSDate as an ISO 8601 string,
so a string alone cannot say which it was. ``rehydrate`` walks the plain JSON beside the typed JSON
of the same archive (the lossless graph, where data is ``{"$data"}`` and a date ``{"$date"}`` or an
NSDate's ``NS.time``) and replaces exactly those strings with ``bytes`` and ``datetime``, reals
written without a fraction with ``float``, and ``"NaN"``/``"Infinity"`` reals with floats. The
structure stays the renderer's: nothing here decides what a class means beyond those leaves.
Both walks use an explicit stack, never recursion, so an archive's depth cannot exhaust Python's.
"""

from __future__ import annotations

import base64
import copy
import math
from datetime import datetime, timedelta, timezone
from typing import Any

#: NSDate's reference date: typed JSON counts seconds from it.
APPLE_EPOCH = datetime(2001, 1, 1, tzinfo=timezone.utc)

_SPECIAL_REALS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_ARRAYS = {"NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"}
_DICTIONARIES = {"NSDictionary", "NSMutableDictionary"}
_STRINGS = {"NSString", "NSMutableString"}
#: Foundation classes whose plain JSON has a shape of its own (docs/JSON.md "JSON conventions"): their
#: archive fields are not the plain JSON's keys, so only the dates named here are converted.
_DATES_IN_SHAPE = {"CLLocation": ("timestamp",), "NSDateInterval": ("start", "end")}
_FOUNDATION_SHAPED = {
    "NSError", "NSValue", "NSConcreteValue", "NSDecimalNumber", "NSIndexSet", "NSMutableIndexSet",
    "NSLocale", "NSTimeZone", "NSDateInterval", "NSPersonNameComponents", "NSIndexPath",
    "NSMeasurement", "NSDateComponents", "NSCalendar", "NSAffineTransform", "UIColor", "NSColor",
    "UIFont", "NSFont", "NSParagraphStyle", "NSMutableParagraphStyle", "CLLocation", "NSHashTable",
    "NSPointerArray", "NSMapTable", "NSAttributedString", "NSMutableAttributedString", "NSURL",
    "NSUUID", "NSNull", "NSNumber", "NSDate", "NSData", "NSMutableData", "NSUnitConverterLinear",
    *_ARRAYS, *_DICTIONARIES, *_STRINGS,
}

_FINALIZE = object()


class UID(int):
    """A keyed archive's object reference (``{"$uid": n}`` in typed JSON)."""

    def __repr__(self) -> str:
        return f"UID({int(self)})"


def date_from_seconds(seconds: float) -> datetime:
    """An NSDate (seconds since 2001-01-01 UTC) as an aware UTC datetime."""
    return APPLE_EPOCH + timedelta(seconds=seconds)


def date_from_iso(text: str) -> datetime:
    """A plain-JSON date string (``2001-01-01T00:00:00.000Z``) as an aware UTC datetime."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


class _Graph:
    """A typed document's ``$objects``, for following ``{"$uid": n}`` references."""

    def __init__(self, typed: Any):
        objects = typed.get("$objects") if isinstance(typed, dict) else None
        self.objects = objects if isinstance(objects, list) else []

    def deref(self, ref: Any) -> Any:
        if isinstance(ref, dict) and len(ref) == 1 and "$uid" in ref:
            uid = ref["$uid"]
            return self.objects[uid] if isinstance(uid, int) and 0 <= uid < len(self.objects) else None
        return ref

    def class_name(self, obj: Any) -> Any:
        if isinstance(obj, dict) and "$class" in obj:
            record = self.deref(obj["$class"])
            return record.get("$classname") if isinstance(record, dict) else None
        return None

    def string(self, ref: Any) -> Any:
        obj = self.deref(ref)
        if isinstance(obj, str):
            return obj
        if self.class_name(obj) in _STRINGS and isinstance(obj.get("NS.string"), str):
            return obj["NS.string"]
        return None


def _real(tagged: Any, plain: Any) -> Any:
    value = tagged.get("$real")
    if isinstance(value, str):
        return _SPECIAL_REALS.get(value, plain)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return plain


def _leaf(plain: Any, obj: Any, graph: _Graph) -> Any:
    """The native value for a plain leaf whose archive object is ``obj``; ``plain`` itself if none."""
    if isinstance(obj, dict):
        if "$real" in obj and len(obj) == 1 and isinstance(plain, (int, float, str)) and not isinstance(plain, bool):
            return _real(obj, plain)
        if not isinstance(plain, str):
            return plain
        if "$data" in obj and len(obj) == 1:
            return base64.b64decode(obj["$data"])
        if "$date" in obj and len(obj) == 1 and isinstance(obj["$date"], (int, float)):
            return _safe_date(obj["$date"], plain)
        name = graph.class_name(obj)
        if name == "NSDate":
            time = graph.deref(obj.get("NS.time"))
            seconds = time.get("$real") if isinstance(time, dict) else time
            if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
                return _safe_date(seconds, plain)
        elif name in ("NSData", "NSMutableData"):
            data = graph.deref(obj.get("NS.data"))
            if isinstance(data, dict) and isinstance(data.get("$data"), str):
                return base64.b64decode(data["$data"])
    return plain


def _safe_date(seconds: float, plain: Any) -> Any:
    try:
        return date_from_seconds(seconds)
    except (OverflowError, ValueError):
        return plain


def _pairs_to_dict(pairs: list) -> Any:
    """``[{"key","value"}]`` (a dictionary with keys that are not all strings) as a dict when every
    key is hashable and distinct (``1`` and ``True`` collide in Python: the list stays then)."""
    result: dict = {}
    for pair in pairs:
        if not isinstance(pair, dict) or set(pair) != {"key", "value"}:
            return pairs
        try:
            if pair["key"] in result:
                return pairs
            result[pair["key"]] = pair["value"]
        except TypeError:
            return pairs
    return result


def rehydrate(plain: Any, typed: Any) -> Any:
    """The plain document with data, dates and reals as Python values (see the module's doc)."""
    holder = [plain]
    stack: list = []

    def push_document(container: Any, key: Any, typed_doc: Any) -> None:
        graph = _Graph(typed_doc)
        top = typed_doc.get("$top") if isinstance(typed_doc, dict) else None
        document = container[key]
        if isinstance(document, dict) and isinstance(top, dict):
            for name, ref in top.items():
                if name in document:
                    stack.append((document, name, ref, graph))

    push_document(holder, 0, typed)
    while stack:
        entry = stack.pop()
        if entry[0] is _FINALIZE:
            _, container, key = entry
            container[key] = _pairs_to_dict(container[key])
            continue
        container, key, ref, graph = entry
        value = container[key]
        obj = graph.deref(ref)
        if value is None or obj is None:
            continue
        if not isinstance(value, (dict, list)):
            container[key] = _leaf(value, obj, graph)
            continue
        if isinstance(value, dict) and len(value) == 1 and "$archive" in value:
            nested = obj
            if graph.class_name(obj) in ("NSData", "NSMutableData"):
                nested = graph.deref(obj.get("NS.data"))
            if isinstance(nested, dict) and isinstance(nested.get("$archive"), dict):
                container[key] = value["$archive"]
                push_document(container, key, nested["$archive"])
            continue
        name = graph.class_name(obj)
        if isinstance(value, list):
            if name in _ARRAYS:
                refs = graph.deref(obj.get("NS.objects"))
            elif name in _DICTIONARIES:
                keys, objects = graph.deref(obj.get("NS.keys")), graph.deref(obj.get("NS.objects"))
                if isinstance(keys, list) and isinstance(objects, list) and len(keys) == len(objects) == len(value):
                    stack.append((_FINALIZE, container, key))
                    for pair, key_ref, object_ref in zip(value, keys, objects):
                        if isinstance(pair, dict) and "key" in pair and "value" in pair:
                            stack.append((pair, "key", key_ref, graph))
                            stack.append((pair, "value", object_ref, graph))
                continue
            elif name is None and isinstance(obj, list):
                refs = obj  # an inline plist array in a custom object's field
            else:
                continue
            if isinstance(refs, list) and len(refs) == len(value):
                stack.extend((value, index, element, graph) for index, element in enumerate(refs))
            continue
        # value is a dict
        if len(value) == 1 and "$ref" in value:
            continue  # a cycle through custom objects: the ancestor is converted where it is
        if name in _DICTIONARIES:
            keys, objects = graph.deref(obj.get("NS.keys")), graph.deref(obj.get("NS.objects"))
            if isinstance(keys, list) and isinstance(objects, list) and len(keys) == len(objects):
                for key_ref, object_ref in zip(keys, objects):
                    text = graph.string(key_ref)
                    if text is not None and text in value:
                        stack.append((value, text, object_ref, graph))
        elif name in _DATES_IN_SHAPE:
            for field in _DATES_IN_SHAPE[name]:
                if isinstance(value.get(field), str):
                    try:
                        value[field] = date_from_iso(value[field])
                    except ValueError:
                        pass
        elif name is not None and name not in _FOUNDATION_SHAPED:
            # A custom class: `{"$class": name, field: value…}`, fields verbatim from the archive.
            for field, field_ref in obj.items():
                if field != "$class" and field in value:
                    stack.append((value, field, field_ref, graph))
        elif name is None and isinstance(obj, dict) and "$class" not in obj:
            # An inline plist dictionary in a custom object's field.
            for field, field_ref in obj.items():
                if field in value:
                    stack.append((value, field, field_ref, graph))
    return holder[0]


def typed_to_native(typed: Any) -> Any:
    """Typed JSON with its tags as Python values: ``{"$uid"}`` → ``UID``, ``{"$data"}`` → bytes,
    ``{"$date"}`` → datetime, ``{"$real"}`` → float. ``{"$set"}`` and ``{"$archive"}`` stay
    (their contents converted)."""
    holder = [typed]
    stack: list = [(holder, 0)]
    while stack:
        container, key = stack.pop()
        value = container[key]
        if isinstance(value, list):
            stack.extend((value, index) for index in range(len(value)))
        elif isinstance(value, dict):
            if len(value) == 1:
                (tag, inner), = value.items()
                if tag == "$uid" and isinstance(inner, int):
                    container[key] = UID(inner)
                    continue
                if tag == "$data" and isinstance(inner, str):
                    container[key] = base64.b64decode(inner)
                    continue
                if tag == "$date" and isinstance(inner, (int, float)):
                    container[key] = _safe_date(inner, value)
                    continue
                if tag == "$real":
                    container[key] = _real(value, value)
                    continue
            stack.extend((value, name) for name in value)
    return holder[0]


def expand_shared(document: Any, max_nodes: int = 10_000_000) -> Any:
    """``document`` with every shared-object ``{"$ref": pointer}`` replaced by a copy of what it
    points to, for callers that expect a tree (nska_deserialize's shape). Plain JSON writes an
    object reachable from several places once, at its first site, and ``{"$ref"}`` at the later
    ones (docs/JSON.md "JSON conventions"); a ``$ref`` to an ancestor of its own site is a cycle and stays.
    Iterative (no recursion); raises ``ValueError`` past ``max_nodes`` (a graph whose tree is too
    large to write out)."""
    holder = [document]
    stack: list = [(holder, 0, ())]
    budget = max_nodes
    while stack:
        container, key, location = stack.pop()
        budget -= 1
        if budget < 0:
            raise ValueError(f"expanding shared objects passes {max_nodes} values")
        value = container[key]
        if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("$ref"), str):
            target = _pointer_tokens(value["$ref"])
            if location[:len(target)] == target:
                continue  # a cycle: the ancestor it names is being written
            found = _value_at(holder[0], target)
            if found is _MISSING:
                continue
            container[key] = copy.deepcopy(found)
            stack.append((container, key, target))  # its own $refs are relative to the original
            continue
        if isinstance(value, dict):
            for name in value:
                stack.append((value, name, location + (name,)))
        elif isinstance(value, list):
            for index in range(len(value)):
                stack.append((value, index, location + (str(index),)))
    return holder[0]


_MISSING = object()


def _pointer_tokens(pointer: str) -> tuple:
    """RFC 6901: ``/a~1b/0`` → ``("a/b", "0")``."""
    if not pointer:
        return ()
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/"))


def _value_at(document: Any, tokens: tuple) -> Any:
    current = document
    for token in tokens:
        if isinstance(current, dict) and token in current:
            current = current[token]
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
        else:
            return _MISSING
    return current
