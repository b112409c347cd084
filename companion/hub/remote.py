"""A hub in another process, seen from outside: :class:`ServeProcess` starts ``serve``.

The test suite and ``bench/e2e.py`` use this to treat the hub as the black box it is at a
real table: a separate process that readers talk to over serial or MQTT, and tablets and
phones over HTTP and Socket.IO (:mod:`companion.kit.http`). :class:`ServeProcess` runs
``popcorn-companion serve`` and can kill it; a game's remote table (Popcorn's
:class:`~companion.games.popcorn.remote.RemoteTable`) drives one of its tables. Only the
standard library is used, so nothing here adds a dependency.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.kit.http import HttpError, call
from companion.readers.broker import free_port


class ServeProcess:
    """``popcorn-companion serve`` on loopback, restartable on the same database."""

    def __init__(self, db: Path, *, serial: Sequence[str] = (), readers: Sequence[str] = (),
                 mats: Sequence[str] = (),
                 admin_pin: str = "135790", log: Path | None = None,
                 extra: Sequence[str] = (), program: Sequence[str] = (),
                 cwd: Path | None = None) -> None:
        """``program`` is the command that runs the companion: by default this interpreter's
        ``python -m companion``; an installed ``popcorn-companion`` script tests that install.
        ``readers`` and ``mats``: the bag readers and the cinema mats ``serve`` trusts from the
        start (``--reader``, ``--mat``).
        """
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"  # serve listens there, or everywhere
        self.admin_pin = admin_pin
        self.cwd = cwd
        program = list(program) or [sys.executable, "-m", "companion"]
        self.args = [*program, "serve", "--db", str(db),
                     "--host", "127.0.0.1", "--port", str(self.port), "--admin-pin",
                     admin_pin, *[a for r in readers for a in ("--reader", r)],
                     *[a for m in mats for a in ("--mat", m)]]
        if serial:
            self.args += ["--serial", *serial]
        self.args += list(extra)
        self.log_path = log or db.with_suffix(".log")
        self.log = open(self.log_path, "ab")  # noqa: SIM115 - see stop()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30, tries: int = 3) -> ServeProcess:
        """Start the process and wait until ``/api/health`` answers. A port found free may
        be taken before ``serve`` binds it (by any program's outgoing connection, from the
        same range): then it starts again on another, up to ``tries`` times in all."""
        exit_code = None
        for _ in range(tries):
            self.log.flush()
            told = self.log_path.stat().st_size
            proc = self.proc = subprocess.Popen(self.args, stdout=self.log, stderr=self.log,
                                                cwd=self.cwd)
            deadline = time.monotonic() + timeout
            while not self._up():
                if proc.poll() is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            else:
                return self
            exit_code = proc.poll()
            if exit_code is None or not self._port_taken(told):
                break
            self._move_to(free_port())
        raise RuntimeError(f"serve did not start (exit {exit_code})")

    def _port_taken(self, since: int) -> bool:
        """Whether ``serve`` said, in its log after byte ``since``, that its port is in use."""
        with open(self.log_path, "rb") as log:
            log.seek(since)
            said = log.read().decode(errors="replace")
        return f"port {self.port}: it is in use" in said

    def _move_to(self, port: int) -> None:
        """Listen on ``port`` from the next start."""
        at = self.args.index("--port")
        self.args[at + 1], self.port = str(port), port
        self.base = f"http://127.0.0.1:{port}"

    def _up(self) -> bool:
        try:
            call(self.base + "/api/health", timeout=1)
        except (OSError, HttpError):
            return False
        return True

    def kill(self) -> None:
        """SIGKILL, as a power cut would: nothing is flushed on the way out. ``serve``'s web
        server has a worker process, which the kernel kills with it: this waits until that
        one is gone too (it holds the port and the database)."""
        assert self.proc is not None
        children = self.children()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in children):
            if time.monotonic() > deadline:
                raise RuntimeError(f"serve's worker outlived it: {children}")
            time.sleep(0.02)

    def children(self) -> list[int]:
        """The process ids of ``serve``'s children (its web server's worker), on Linux."""
        assert self.proc is not None
        found: list[int] = []
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*/children"):
            try:
                found += [int(pid) for pid in task.read_text().split()]
            except OSError:
                continue
        return found

    def stop(self) -> None:
        """Stop the way Ctrl-C does (SIGINT), killing after 10 s; close the log."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()

    def create_table(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/tables``: the new table's id, PIN, tokens and readers."""
        return call(self.base + "/api/tables", "POST", body)

    def import_tags(self, uids: dict[int, str]) -> None:
        """Replace the tag registry with ``uids`` (pawn id → tag UID)."""
        registry = {"format": "popcorn-tags", "version": 1,
                    "tags": [{"uid": u, "pawn": p} for p, u in uids.items()]}
        call(self.base + "/api/tags", "PUT", {"registry": registry,
                                              "admin_pin": self.admin_pin})


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
