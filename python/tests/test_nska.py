"""archivegate.nska against nska_deserialize itself (from PyPI, when the test venv could install it).

The comparison runs on every real iLEAPP and plist-backup archive whose classes are ones both
libraries render alike: dictionaries, arrays, strings, numbers, dates and custom classes (docs/PYTHON.md
lists where they differ: NSData, NSURL, NSUUID, colours, dictionaries with collection keys …).
"""

import os

import pytest

import archivegate
import archivegate.nska as ours

try:
    import nska_deserialize as real
except ImportError:  # scripts/test-python installs it when PyPI answers
    real = None

ALIKE = {"NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray", "NSString", "NSMutableString",
         "NSNumber", "NSDate"}
FOUNDATION_PREFIXES = ("NS", "UI", "CL", "MS")


def _comparable(report):
    names = {entry["name"] for entry in report.get("classes", [])}
    return all(name in ALIKE or not name.startswith(FOUNDATION_PREFIXES) for name in names)


def _has_collection_key(value):
    """nska drops a dictionary entry whose key is a collection; ArchiveGate keeps it (a pair list)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            if any(isinstance(x, dict) and set(x) == {"key", "value"} for x in item):
                return True
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return False


@pytest.mark.skipif(real is None, reason="nska-deserialize is not installed in the test venv (PyPI unreachable)")
def test_drop_in_returns_what_nska_deserialize_returns(real_corpus):
    compared = []
    for folder in ("ileapp", "plist-backup"):
        for record in archivegate.batch(os.path.join(real_corpus, folder), validate=True, allow_any_class=True):
            if record["status"] != "valid" or not _comparable(record["report"]):
                continue
            path = os.path.join(real_corpus, folder, record["file"])
            mine = ours.deserialize_plist(path, False, format=dict)
            if _has_collection_key(mine):
                continue
            with open(path, "rb") as handle:
                theirs = real.deserialize_plist(handle, False, format=dict)
            assert mine == theirs, path
            compared.append(path)
    assert len(compared) >= 50, f"only {len(compared)} real archives were comparable"


@pytest.mark.skipif(real is None, reason="nska-deserialize is not installed in the test venv (PyPI unreachable)")
def test_drop_in_top_level_shapes_match(real_corpus):
    path = os.path.join(real_corpus, "ileapp", "51e1fba2795709a4.bplist")
    data = open(path, "rb").read()
    for fmt in (dict, list):
        assert ours.deserialize_plist_from_string(data, format=fmt) == real.deserialize_plist_from_string(data, format=fmt)
        assert ours.deserialize_plist_from_string(data, True, fmt) == real.deserialize_plist_from_string(data, True, fmt)


def test_drop_in_shape_and_errors(real_corpus):
    cookies = ours.deserialize_plist(os.path.join(real_corpus, "ileapp", "51e1fba2795709a4.bplist"))
    assert isinstance(cookies, list) and cookies[0]["Name"] == "xp_ci"
    assert cookies[0]["Expires"].tzinfo is None  # naive UTC, as nska_deserialize gives
    with pytest.raises(ours.DeserializeError) as failure:
        ours.deserialize_plist(os.path.join(real_corpus, "dd-plist", "87d6270d424c8773_github-issue42.plist"))
    assert failure.value.code == "plist.invalid_trailer"
    # The except-list nska_deserialize documents still runs.
    try:
        ours.deserialize_plist_from_string(b"not a plist")
    except (ours.DeserializeError, ours.biplist.NotBinaryPlistException, ours.biplist.InvalidPlistException,
            ours.plistlib.InvalidFileException, ours.ccl_bplist.BplistError, ValueError, TypeError, OSError,
            OverflowError) as error:
        assert isinstance(error, archivegate.MalformedArchive)
    else:
        pytest.fail("garbage decoded")
