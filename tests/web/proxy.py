"""A TCP proxy on loopback between Chromium and the hub, for the tests of the page's link.

It forwards bytes both ways, as a home router or a hotel's proxy does, and can misbehave on
request as such networks do: with ``refuse_upgrades`` it answers every WebSocket upgrade with
``403 Forbidden`` (a proxy that does not speak WebSocket), and :meth:`Proxy.cut` drops every
connection and refuses new ones until :meth:`Proxy.mend` (the Wi-Fi gone for a while).
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading

FORBIDDEN = b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class Proxy:
    """Forward ``127.0.0.1:port`` (:attr:`base`) to the hub at ``target_port``."""

    def __init__(self, target_port: int, refuse_upgrades: bool = False) -> None:
        self.target_port, self.refuse_upgrades = target_port, refuse_upgrades
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        self.down = False
        self.upgrades_refused = 0
        self.stopped = False

    @property
    def base(self) -> str:
        """The address a browser opens instead of the hub's."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proxy:
        """Accept connections in the background."""
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def cut(self) -> None:
        """Drop every connection and refuse new ones, until :meth:`mend`."""
        with self.lock:
            self.down = True
            dropped, self.open = self.open, set()
        for conn in dropped:
            _close(conn)

    def mend(self) -> None:
        """Let connections through again."""
        with self.lock:
            self.down = False

    def stop(self) -> None:
        """Close the listener and every connection."""
        self.stopped = True
        self.cut()
        _close(self.listener)

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with self.lock:
            if self.down:
                _close(client)
                return
            self.open.add(client)
        head = _head(client)
        if self.refuse_upgrades and b"\r\nupgrade: websocket" in head.lower():
            self.upgrades_refused += 1
            with contextlib.suppress(OSError):
                client.sendall(FORBIDDEN)
            self._forget(client)
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
        except OSError:
            self._forget(client)
            return
        with self.lock:
            self.open.add(upstream)
        with contextlib.suppress(OSError, ValueError):  # ValueError: a socket cut meanwhile
            upstream.sendall(head)
            _pump(client, upstream)
        self._forget(client, upstream)

    def _forget(self, *conns: socket.socket) -> None:
        with self.lock:
            for conn in conns:
                self.open.discard(conn)
        for conn in conns:
            _close(conn)


def _head(conn: socket.socket) -> bytes:
    """The bytes up to the end of the first request's headers (or all that came)."""
    data = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    return data


def _pump(a: socket.socket, b: socket.socket) -> None:
    """Copy bytes both ways until either side closes."""
    while True:
        ready, _, _ = select.select([a, b], [], [], 1.0)
        for conn in ready:
            data = conn.recv(65536)
            if not data:
                return
            (b if conn is a else a).sendall(data)


def _close(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        conn.close()
