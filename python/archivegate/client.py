"""A client for the ArchiveGate HTTP service (docs/API.md), on ``urllib`` alone.

    client = archivegate.Client("http://127.0.0.1:8080", key="demo-key-change-me")
    report = client.validate(data)
    json_document = client.convert(data, mode="typed")
    result = client.store(data); client.fetch_json(result["id"])

Error answers (RFC 9457 problem+json) raise ``ServiceError`` with ``status``, ``code`` and the
``problem`` document; a policy rejection on ``convert`` raises it with code ``policy.rejected``.
"""

from __future__ import annotations

import gzip
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Mapping, Optional, Union

from ._native import rehydrate
from .errors import ServiceError, UsageError

Body = Union[bytes, bytearray, memoryview]


class Client:
    """One service, one tenant key. ``timeout`` is in seconds, per request."""

    def __init__(self, base_url: str, key: Optional[str] = None, *, timeout: float = 30.0,
                 prefix: str = "/v1"):
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise UsageError("usage.invalid_url", f"base_url must be an http(s) URL, not {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self.prefix = prefix

    # -- plumbing ------------------------------------------------------------------------------

    def _request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None,
                 body: Optional[bytes] = None, content_type: Optional[str] = None,
                 headers: Optional[Mapping[str, str]] = None) -> tuple[int, Mapping[str, str], bytes]:
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: _query_value(v) for k, v in query.items() if v is not None})
        request = urllib.request.Request(url, data=body, method=method)
        if self.key is not None:
            request.add_header("Authorization", f"Bearer {self.key}")
        if content_type:
            request.add_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            payload = error.read()
            if error.code == 304:
                return 304, dict(error.headers.items()), payload
            try:
                problem = json.loads(payload) if payload else {}
            except ValueError:
                problem = {}
            if not isinstance(problem, dict):
                problem = {}
            problem.setdefault("status", error.code)
            problem.setdefault("detail", payload.decode("utf-8", "replace")[:500] or error.reason)
            raise ServiceError(error.code, problem) from None

    def _post_archive(self, path: str, data: Body, query: Optional[Mapping[str, Any]] = None,
                      compress: bool = False) -> tuple[int, Mapping[str, str], bytes]:
        body = bytes(data)
        headers = {}
        if compress:
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        return self._request("POST", path, query=query, body=body, content_type="application/octet-stream",
                             headers=headers)

    # -- endpoints -----------------------------------------------------------------------------

    def validate(self, data: Body, *, compress: bool = False) -> dict:
        """``POST /v1/validate``: the report, whether or not the tenant's policy accepts the archive."""
        return json.loads(self._post_archive(f"{self.prefix}/validate", data, compress=compress)[2])

    def convert(self, data: Body, *, mode: str = "plain", native: bool = False, compress: bool = False) -> Any:
        """``POST /v1/convert``: the archive's JSON. ``native=True`` (plain mode) converts data,
        dates and reals to Python values as ``archivegate.loads`` does, at the price of a second
        request for the typed JSON."""
        document = json.loads(self._post_archive(f"{self.prefix}/convert", data, {"mode": mode}, compress)[2])
        if native and mode == "plain":
            typed = json.loads(self._post_archive(f"{self.prefix}/convert", data, {"mode": "typed"}, compress)[2])
            return rehydrate(document, typed)
        return document

    def inspect(self, data: Body, *, mode: str = "plain") -> dict:
        """``POST /v1/inspect``: ``{"json", "report"}`` in one answer (violating subtrees null)."""
        return json.loads(self._post_archive(f"{self.prefix}/inspect", data, {"mode": mode})[2])

    def store(self, data: Body, *, mode: str = "plain", sanitize: bool = False) -> dict:
        """``POST /v1/archives``: stores the result; returns the result document (``id``, ``report``,
        ``hasJSON`` …), whether it was created (201) or already stored (200)."""
        return json.loads(self._post_archive(f"{self.prefix}/archives", data, {"mode": mode, "sanitize": sanitize})[2])

    def result(self, result_id: str) -> dict:
        """``GET /v1/archives/{id}``: the stored result document."""
        return json.loads(self._request("GET", f"{self.prefix}/archives/{_segment(result_id)}")[2])

    def fetch_json(self, result_id: str, *, etag: Optional[str] = None) -> Any:
        """``GET /v1/archives/{id}/json``: the stored JSON; ``None`` when ``etag`` still matches (304)."""
        headers = {"If-None-Match": etag} if etag else None
        status, _, body = self._request("GET", f"{self.prefix}/archives/{_segment(result_id)}/json", headers=headers)
        return None if status == 304 else json.loads(body)

    def fetch_archive(self, result_id: str) -> bytes:
        """``GET /v1/archives/{id}/archive``: the sanitized archive stored with ``sanitize=True``."""
        return self._request("GET", f"{self.prefix}/archives/{_segment(result_id)}/archive")[2]

    def delete(self, result_id: str) -> None:
        """``DELETE /v1/archives/{id}``."""
        self._request("DELETE", f"{self.prefix}/archives/{_segment(result_id)}")

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> dict:
        """``GET /v1/archives``: ``{"items": [...], "nextCursor": ...}``, newest first."""
        return json.loads(self._request("GET", f"{self.prefix}/archives", query={"limit": limit, "cursor": cursor})[2])

    def fetch_url(self, url: str, *, mode: Optional[str] = None, store: bool = False) -> dict:
        """``POST /v1/fetch``: the server fetches ``url`` under its SSRF rules and answers the report
        (or, with ``store=True``, the stored result document)."""
        body: dict = {"url": url, "store": store}
        if mode is not None:
            body["mode"] = mode
        return json.loads(self._request("POST", f"{self.prefix}/fetch", body=json.dumps(body).encode(),
                                        content_type="application/json")[2])

    def health(self) -> bool:
        """``GET /healthz`` answered 200."""
        return self._request("GET", "/healthz")[0] == 200


def _segment(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _query_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
