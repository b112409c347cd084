"""The web server's own refusals (a request line too long, headers too large, a request it
cannot read) answer as the hub's API does: JSON with a stable code, on a real ``serve``."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

from companion.hub.remote import ServeProcess
from companion.hub.server_refusals import body
from companion.kit.http import call

READERS = ["bag-1", "bag-2"]


def raw(base: str, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send ``request`` as is; the status line, the headers and the body of the answer."""
    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return status, headers, payload


def test_the_servers_refusals_are_json_with_a_code_and_the_hub_keeps_running(
        tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "hub.db", readers=READERS).start()
    try:
        query = "from=" + "x" * 5000
        status, headers, payload = raw(server.base, f"GET /api/tables?{query} HTTP/1.1\r\n"
                                       "Host: hub\r\n\r\n".encode())
        assert status.startswith("HTTP/1.1 414")
        assert headers["content-type"] == "application/json"
        answer = json.loads(payload)
        assert answer["code"] == "URI_TOO_LONG" and answer["params"] == {"status": 414}
        assert "too long" in answer["message"]
        status, headers, payload = raw(server.base, b"NOT HTTP AT ALL\r\n\r\n")
        assert status.startswith("HTTP/1.1 400")
        assert json.loads(payload)["code"] == "BAD_REQUEST"
        assert call(f"{server.base}/api/tables") == []  # still serving
    finally:
        server.stop()


def test_a_status_without_its_own_code_is_a_bad_request() -> None:
    refusal = body(499, "odd\n  detail")
    assert refusal == {"code": "BAD_REQUEST", "params": {"status": 499},
                       "message": "The request could not be read as HTTP: odd detail."}
