"""Kept connections: ``serve`` keeps an idle HTTP connection for the next request (gunicorn's
``keepalive``, :data:`companion.hub.server.KEEPALIVE`), and :class:`~companion.kit.http.
Session` sends its requests on one connection, as a browser does, opening a new one only
when the server has closed the old (``companion/kit/http.py``)."""

from __future__ import annotations

import http.server
import threading
import time
from pathlib import Path

import pytest

from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError, Session


def local_port(session: Session) -> int:
    assert session._conn is not None and session._conn.sock is not None
    return session._conn.sock.getsockname()[1]


def test_serve_keeps_a_connection_between_requests(tmp_path: Path) -> None:
    hub = ServeProcess(tmp_path / "hub.db", readers=["bag-1"]).start()
    try:
        session = Session()
        assert session.call(f"{hub.base}/api/health")["ok"] is True
        port = local_port(session)
        for _ in range(3):
            session.call(f"{hub.base}/api/health")
            assert local_port(session) == port  # the same connection, kept by the server
        time.sleep(3)  # idle longer than gunicorn's own keep-alive (2 s), as between taps
        session.call(f"{hub.base}/api/health")
        assert local_port(session) == port
        with pytest.raises(HttpError) as refused:
            session.call(f"{hub.base}/api/tables/nope/state", headers={"X-Table-Pin": "1"})
        assert (refused.value.status, refused.value.code) == (404, "TABLE_NOT_FOUND")
        assert session.call(f"{hub.base}/api/health")["ok"] is True  # a refusal keeps it too
        session.close()
    finally:
        hub.stop()


class ClosingHandler(http.server.BaseHTTPRequestHandler):
    """Answers in HTTP/1.1 without saying it will close, then closes: as a server whose
    keep-alive ran out while the client was idle."""

    protocol_version = "HTTP/1.1"
    connections: set[int] = set()
    requests = 0

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        type(self).connections.add(self.client_address[1])
        type(self).requests += 1
        body = b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def log_message(self, *args) -> None:
        pass


def test_a_connection_the_server_closed_is_replaced_once() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ClosingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/health"
        session = Session()
        assert session.call(url) == {"ok": True}
        assert session.call(url) == {"ok": True}  # the old connection was closed: a new one
        assert ClosingHandler.requests == 2  # each request reached the server once
        assert len(ClosingHandler.connections) == 2
    finally:
        server.shutdown()
        server.server_close()
