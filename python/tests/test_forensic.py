"""The forensic workflow on real archives (../shared/real-corpus) and the repository's examples."""

import base64
import os
import sqlite3
from datetime import datetime, timezone

import pytest

import archivegate

COOKIES = "ileapp/51e1fba2795709a4.bplist"  # iLEAPP: an NSArray of cookie NSDictionaries
SYNC_ENGINE = ("plist-backup/2e7642a7df2a89c0_com.apple.sociallayerd.CloudKit.ckwriter.plist"
               "__nested_syncEngineMetadata.bin")  # a CKSyncEngineState (custom classes, a date and data)
TRUNCATED = "dd-plist/87d6270d424c8773_github-issue42.plist"  # broken as shipped (SOURCES.md)


def test_load_gives_native_values_of_a_real_archive(real_corpus):
    cookies = archivegate.load(os.path.join(real_corpus, COOKIES))["root"]
    first = cookies[0]
    assert first["Name"] == "xp_ci" and first["Value"] == "3z8qpdOz3ggz4P3zCvZzSaDHm4RY"
    assert first["Domain"] == ".apple.com"
    assert first["Expires"] == datetime(2023, 11, 13, 12, 26, 54, tzinfo=timezone.utc)
    assert isinstance(first["Created"], float) and first["Created"] == 706019214.0  # archived as a real
    assert len(cookies) == 4 and cookies[3]["Discard"] == "TRUE"


def test_custom_classes_keep_their_fields_with_dates_and_data_native(real_corpus):
    path = os.path.join(real_corpus, SYNC_ENGINE)
    root = archivegate.load(path, allow_any_class=True)["root"]
    assert root["$class"] == "CKSyncEngineState"
    assert root["lastFetchDatabaseChangesDate"].replace(microsecond=0) == datetime(2025, 2, 14, 12, 50, 45, tzinfo=timezone.utc)
    token = root["serverChangeTokenForDatabase"]
    assert token["$class"] == "CKServerChangeToken"
    assert token["ChangeTokenData"] == base64.b64decode("EgoQEgwAAAAAAAAAAAAAAAAYARgA")
    assert root["lastKnownUserRecordID"]["ZoneID"]["ownerName"] == "__defaultOwner__"
    assert root["existingDatabaseSubscriptionID"] is None
    # native=False is the JSON exactly as the CLI prints it (docs/JSON.md "JSON conventions").
    plain = archivegate.load(path, allow_any_class=True, native=False)["root"]
    # Exact dates: every digit of the double's shortest decimal (docs/JSON.md "JSON conventions").
    assert plain["lastFetchDatabaseChangesDate"] == "2025-02-14T12:50:45.532271Z"
    assert plain["serverChangeTokenForDatabase"]["ChangeTokenData"] == "EgoQEgwAAAAAAAAAAAAAAAAYARgA"
    # The same from bytes and from an open file; class names dropped on request.
    with open(path, "rb") as handle:
        data = handle.read()
        handle.seek(0)
        assert archivegate.load(handle, allow_any_class=True) == archivegate.loads(data, allow_any_class=True)
    assert "$class" not in archivegate.loads(data, allow_any_class=True, class_names="drop")["root"]


def test_typed_mode_is_the_archive_graph_with_python_tags(repo):
    typed = archivegate.load(os.path.join(repo, "examples", "contact.archive"), mode="typed")
    assert typed["$archiver"] == "NSKeyedArchiver" and typed["$version"] == 100000
    root = typed["$objects"][typed["$top"]["root"]]
    assert isinstance(typed["$top"]["root"], archivegate.UID)
    keys = [typed["$objects"][uid] for uid in root["NS.keys"]]
    assert "born" in keys
    born = typed["$objects"][root["NS.objects"][keys.index("born")]]
    assert born["NS.time"] == -5930784000.0 and isinstance(born["NS.time"], float)
    plain = archivegate.load(os.path.join(repo, "examples", "contact.archive"))["root"]
    assert plain["born"] == datetime(1813, 1, 23, 16, tzinfo=timezone.utc)
    assert plain["name"] == "Ada Lovelace" and plain["age"] == 36 and plain["tags"] == ["math", "engines"]


def test_validate_returns_the_report_whether_or_not_the_policy_accepts(repo, real_corpus):
    report = archivegate.validate(os.path.join(repo, "examples", "payload.archive"))
    assert report["valid"] is False
    assert report["violations"][0]["code"] == "policy.class_not_allowed"
    assert report["violations"][0]["class"] == "Sneaky.Payload"
    with open(os.path.join(real_corpus, COOKIES), "rb") as handle:
        report = archivegate.validate(handle.read())
    assert report["valid"] is True and report["violations"] == []
    names = {entry["name"] for entry in report["classes"]}
    assert {"NSArray", "NSDate"} <= names and names & {"NSDictionary", "NSMutableDictionary"}


def test_errors_are_typed_with_code_and_location(repo, real_corpus):
    with pytest.raises(archivegate.MalformedArchive) as malformed:
        archivegate.load(os.path.join(real_corpus, TRUNCATED))
    assert malformed.value.code == "plist.invalid_trailer"
    assert malformed.value.offset == 82 and malformed.value.location == "at byte 82"
    assert isinstance(malformed.value, archivegate.ArchiveGateError)

    with pytest.raises(archivegate.RejectedArchive) as rejected:
        archivegate.load(os.path.join(repo, "examples", "payload.archive"))
    assert rejected.value.code == "policy.class_not_allowed" and rejected.value.pointer == "/root"
    assert rejected.value.report["valid"] is False

    # A plain property list is not an error: it converts by the same conventions (verdict plist).
    plain_plist = b"<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><array><integer>7</integer></array></dict></plist>"
    assert archivegate.loads(plain_plist) == {"a": [7]}
    with pytest.raises(archivegate.MalformedArchive) as not_plist:
        archivegate.loads(b"not a property list at all")
    assert not_plist.value.code == "plist.not_a_property_list"

    with pytest.raises(archivegate.UsageError):
        archivegate.load(os.path.join(repo, "no-such-file.archive"))
    with pytest.raises(archivegate.UsageError):
        archivegate.load(repo)  # a folder: batch() reads folders
    # A limit hit is not malformed but inconclusive (a MalformedArchive subclass, as before verdicts).
    with pytest.raises(archivegate.InconclusiveArchive) as limited:
        archivegate.load(os.path.join(real_corpus, COOKIES), limits={"maxDepth": 1})
    assert limited.value.code.endswith("depth_limit_exceeded")


def test_policy_file_and_allow_any_class(repo, tmp_path):
    payload = os.path.join(repo, "examples", "payload.archive")
    policy = tmp_path / "payload.json"
    policy.write_text('{"allow": ["foundation", "Sneaky.Payload"]}')
    root = archivegate.load(payload, policy=policy)["root"]
    assert root["$class"] == "Sneaky.Payload" and root["contact"]["name"] == "Ada Lovelace"
    assert archivegate.load(payload, allow_any_class=True) == archivegate.load(payload, policy=policy)


def test_batch_yields_one_record_per_file(real_corpus):
    folder = os.path.join(real_corpus, "imessage-exporter")
    names = sorted(os.listdir(folder))
    records = list(archivegate.batch(folder, allow_any_class=True))
    assert sorted(record["file"] for record in records) == names
    assert all(record["status"] == "converted" for record in records)
    by_name = {record["file"]: record for record in records}
    sent = by_name["796c2ca2c92c50cd_Sent265.plist"]["json"]["root"]
    assert sent["ldtext"] == "Sent $265 with Apple\u00a0Pay."
    assert sent["ai"] == bytes(28)  # NSData, native
    # The batch's values are exactly the one-file API's.
    one = archivegate.load(os.path.join(folder, "796c2ca2c92c50cd_Sent265.plist"), allow_any_class=True)
    assert by_name["796c2ca2c92c50cd_Sent265.plist"]["json"] == one


def test_batch_reports_malformed_files_as_records_and_validates(real_corpus):
    records = list(archivegate.batch(os.path.join(real_corpus, "dd-plist")))
    assert [(r["file"], r["status"], r["error"]["code"]) for r in records] == [
        (os.path.basename(TRUNCATED), "malformed", "plist.invalid_trailer")]
    reports = list(archivegate.batch(os.path.join(real_corpus, "ileapp"), validate=True, include=["0*.bplist"]))
    expected = sorted(name for name in os.listdir(os.path.join(real_corpus, "ileapp")) if name.startswith("0"))
    assert sorted(r["file"] for r in reports) == expected
    assert all(r["status"] in ("valid", "rejected") and "valid" in r["report"] for r in reports)
    with pytest.raises(archivegate.UsageError):
        list(archivegate.batch([os.path.join(real_corpus, "dd-plist", "no-such-file")]))


def test_scan_db_finds_archive_blobs_in_sqlite(real_corpus, tmp_path):
    database = tmp_path / "evidence.sqlite"
    cookies = open(os.path.join(real_corpus, COOKIES), "rb").read()
    engine = open(os.path.join(real_corpus, SYNC_ENGINE), "rb").read()
    broken = open(os.path.join(real_corpus, TRUNCATED), "rb").read()
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, payload BLOB, note TEXT)")
        connection.executemany("INSERT INTO messages (id, payload, note) VALUES (?, ?, ?)",
                               [(1, cookies, "cookies"), (2, b"\x89PNG not an archive", "image"),
                                (3, engine, "sync"), (4, broken, "broken")])
        connection.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID")
        connection.execute("INSERT INTO kv VALUES ('cookies', ?)", (cookies,))
    before = database.read_bytes()
    records = {(r["table"], r["column"], r["rowid"]): r for r in archivegate.scan_db(database, allow_any_class=True)}
    assert {key: record["status"] for key, record in records.items()} == {
        ("messages", "payload", 1): "converted", ("messages", "payload", 3): "converted",
        ("messages", "payload", 4): "malformed", ("kv", "v", None): "converted"}
    cookies_json = records[("messages", "payload", 1)]["json"]
    assert cookies_json["root"][0]["Expires"] == datetime(2023, 11, 13, 12, 26, 54, tzinfo=timezone.utc)
    assert records[("messages", "payload", 3)]["json"]["root"]["serverChangeTokenForDatabase"]["ChangeTokenData"] == \
        base64.b64decode("EgoQEgwAAAAAAAAAAAAAAAAYARgA")
    assert records[("messages", "payload", 4)]["error"]["code"] == "plist.invalid_trailer"
    assert records[("kv", "v", None)]["json"] == cookies_json
    assert database.read_bytes() == before  # the evidence is never written
    only = list(archivegate.scan_db(database, tables=["kv"], native=False))
    assert len(only) == 1 and only[0]["json"]["root"][0]["Expires"] == "2023-11-13T12:26:54.000Z"


def test_a_batch_can_be_stopped_after_its_first_record(real_corpus):
    records = archivegate.batch(os.path.join(real_corpus, "ileapp"), allow_any_class=True, jobs=1)
    first = next(records)
    assert first["status"] in ("converted", "malformed") and first["file"].endswith(".bplist")
    records.close()  # ends both runs (plain and typed) without raising
