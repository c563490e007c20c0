"""Issue 35 from Python: NSArchiver typedstreams (iMessage ``attributedBody``) load like keyed
archives, ``message_text`` gives a body's text, and ``scan_db`` over a chat.db-shaped database gives
one record per body. The files are other projects' fixtures (../shared/typedstream-corpus)."""

import os
import sqlite3

import pytest

import archivegate

# SOURCES.md's expected texts: plain text, non-BMP letters, an emoji beside an inline sticker, curly quotes.
MESSAGES = {
    "crabstep/33162f000e9abad2_AttributedBodyTextOnly": "Noter test",
    "crabstep/af7dcdae5ea37872_WeirdText": "𝖍𝖊𝖑𝖑𝖔 𝖜𝖔𝖗𝖑𝖉",
    "imessage-exporter-fork-ARCHiVE/326b7d313e698bcb_StaticAnimojiRegularEmoji": "Check this out: \ufffc 😀",
    "imessage-conversation-analyzer/3a373b39b9a74495_message.json_9368cfd3-ad0c-4110-8658-0b81b08e71eb_attributedBody":
        "Loved “Same here! 🤣 Catch you later!”",
}
LONG_MESSAGE = "crabstep/fa82f5d79dee018c_LongMessage"  # 2,359 UTF-8 bytes behind 2-byte length prefixes


def read(corpus, name):
    with open(os.path.join(corpus, name), "rb") as handle:
        return handle.read()


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_load_gives_the_runs_and_message_text_gives_the_text(typedstream_corpus, name):
    root = archivegate.load(os.path.join(typedstream_corpus, name))["root"]
    assert isinstance(root, list) and all("attributes" in run for run in root)
    assert "".join(run["text"] for run in root) == MESSAGES[name]
    assert archivegate.message_text(read(typedstream_corpus, name)) == MESSAGES[name]


def test_the_long_message_is_whole(typedstream_corpus):
    text = archivegate.message_text(read(typedstream_corpus, LONG_MESSAGE))
    assert text.startswith("Sed nibh velit,") and len(text.encode("utf-8")) == 2359


def test_a_null_body_is_none_and_a_cut_one_is_malformed_with_its_offset(typedstream_corpus):
    assert archivegate.message_text(None) is None
    body = read(typedstream_corpus, "crabstep/33162f000e9abad2_AttributedBodyTextOnly")
    with pytest.raises(archivegate.MalformedArchive) as caught:
        archivegate.message_text(body[:100])
    assert caught.value.code == "typedstream.truncated"
    assert 16 <= caught.value.offset <= 100


def test_the_class_policy_applies(typedstream_corpus):
    nib = os.path.join(typedstream_corpus, "finkcommander/423563ad28165cb9_English_Dialogs_objects.nib")
    report = archivegate.validate(nib)
    assert report["verdict"] == "rejected"
    assert "policy.class_not_allowed" in {violation["code"] for violation in report["violations"]}
    with pytest.raises(archivegate.RejectedArchive):
        archivegate.load(nib)
    assert archivegate.load(nib, allow_any_class=True)["root"]["$class"] == "NSIBObjectData"


def test_scan_db_gives_one_record_per_attributed_body(typedstream_corpus, tmp_path):
    path = tmp_path / "chat.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE message (ROWID INTEGER PRIMARY KEY, guid TEXT, text TEXT, attributedBody BLOB, payload_data BLOB)")
    names = sorted(MESSAGES)
    for index, name in enumerate(names):
        db.execute("INSERT INTO message (guid, attributedBody) VALUES (?, ?)", (f"g{index}", read(typedstream_corpus, name)))
    db.execute("INSERT INTO message (guid, text) VALUES ('old', 'from before attributedBody')")
    db.execute("INSERT INTO message (guid, payload_data) VALUES ('png', ?)", (b"\x89PNG\r\n\x1a\n",))
    db.commit()
    db.close()
    records = list(archivegate.scan_db(str(path)))
    assert [(record["column"], record["rowid"]) for record in records] == [("attributedBody", n + 1) for n in range(len(names))]
    for record, name in zip(records, names):
        assert record["status"] == "converted"
        assert "".join(run["text"] for run in record["json"]["root"]) == MESSAGES[name]
