"""archivegate.Client against a real archivegate-server on a loopback port."""

import os
from datetime import datetime, timezone

import pytest

import archivegate


def test_validate_convert_store_and_fetch(server, repo):
    base, key = server
    client = archivegate.Client(base, key)
    assert client.health()
    contact = open(os.path.join(repo, "examples", "contact.archive"), "rb").read()

    report = client.validate(contact)
    assert report["valid"] is True and report["policy"]
    assert client.validate(contact, compress=True) == report

    assert client.convert(contact)["root"]["name"] == "Ada Lovelace"
    native = client.convert(contact, native=True)["root"]
    assert native["born"] == datetime(1813, 1, 23, 16, tzinfo=timezone.utc)
    assert native == archivegate.load(os.path.join(repo, "examples", "contact.archive"))["root"]
    typed = client.convert(contact, mode="typed")
    assert typed["$archiver"] == "NSKeyedArchiver"

    stored = client.store(contact, mode="plain")
    assert stored["hasJSON"] is True and stored["report"]["valid"] is True
    assert client.store(contact, mode="plain")["id"] == stored["id"]  # idempotent re-upload
    assert client.result(stored["id"])["sha256"] == stored["sha256"]
    assert client.fetch_json(stored["id"])["root"]["email"] == "ada@example.com"
    assert client.fetch_json(stored["id"], etag=f'"{stored["id"]}"') is None  # 304
    assert any(item["id"] == stored["id"] for item in client.list(limit=10)["items"])
    client.delete(stored["id"])
    with pytest.raises(archivegate.ServiceError) as gone:
        client.result(stored["id"])
    assert gone.value.status == 404 and gone.value.code == "result.not_found"


def test_service_errors_are_typed(server, repo):
    base, key = server
    payload = open(os.path.join(repo, "examples", "payload.archive"), "rb").read()
    with pytest.raises(archivegate.ServiceError) as rejected:
        archivegate.Client(base, key).convert(payload)
    assert rejected.value.status == 422 and rejected.value.code == "policy.rejected"
    assert rejected.value.problem["violations"][0]["code"] == "policy.class_not_allowed"
    with pytest.raises(archivegate.ServiceError) as malformed:
        archivegate.Client(base, key).validate(b"bplist00 truncated")
    assert malformed.value.status == 422 and malformed.value.code.startswith("plist.")
    with pytest.raises(archivegate.ServiceError) as unauthorized:
        archivegate.Client(base, "wrong-key").validate(payload)
    assert unauthorized.value.status == 401
    with pytest.raises(archivegate.ServiceError) as blocked:
        archivegate.Client(base, key).fetch_url("http://127.0.0.1:1/x.archive")
    assert blocked.value.status in (400, 403) and blocked.value.code.startswith("fetch.")
