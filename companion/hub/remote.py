"""A hub in another process, seen from outside: start ``serve``, drive a table over HTTP.

The test suite and ``bench/e2e.py`` use this to treat the hub as the black box it is at a
real table: a separate process that readers talk to over serial or MQTT, and tablets and
phones over HTTP and Socket.IO. :class:`ServeProcess` runs ``popcorn-companion serve`` and
can kill it; :class:`RemoteTable` gives :class:`~companion.games.popcorn.demo.ScriptedPlayers` what
it needs of a table (a state to choose from, a way to decide), built from the table's record
and the REST API. Only the standard library is used, so nothing here adds a dependency.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games.popcorn.demo import ScriptedPlayers
from companion.games.popcorn.engine import GameState, Move, new_game
from companion.games.popcorn.facts_file import Catalog
from companion.games.popcorn.record import loads_record
from companion.kit.errors import TableError
from companion.readers.broker import free_port


class HttpError(Exception):
    """A non-2xx answer: ``status`` and the hub's ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def call(url: str, method: str = "GET", body: Any = None,
         headers: dict[str, str] | None = None, timeout: float = 10) -> Any:
    """One request: decoded JSON (text for the record); :class:`HttpError` on a refusal."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode()
            is_json = response.headers.get_content_type() == "application/json"
    except urllib.error.HTTPError as exc:
        try:
            err = json.loads(exc.read().decode())
        except ValueError:
            err = {"code": "HTTP", "message": exc.reason}
        raise HttpError(exc.code, err.get("code", "HTTP"), err.get("message", "")) from None
    return json.loads(text) if is_json else text


class ServeProcess:
    """``popcorn-companion serve`` on loopback, restartable on the same database."""

    def __init__(self, db: Path, *, serial: Sequence[str] = (), readers: Sequence[str] = (),
                 admin_pin: str = "135790", log: Path | None = None,
                 extra: Sequence[str] = (), program: Sequence[str] = (),
                 cwd: Path | None = None) -> None:
        """``program`` is the command that runs the companion: by default this interpreter's
        ``python -m companion``; an installed ``popcorn-companion`` script tests that install.
        """
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"  # serve listens there, or everywhere
        self.admin_pin = admin_pin
        self.cwd = cwd
        program = list(program) or [sys.executable, "-m", "companion"]
        self.args = [*program, "serve", "--db", str(db),
                     "--host", "127.0.0.1", "--port", str(self.port), "--admin-pin",
                     admin_pin, *[a for r in readers for a in ("--reader", r)]]
        if serial:
            self.args += ["--serial", *serial]
        self.args += list(extra)
        self.log_path = log or db.with_suffix(".log")
        self.log = open(self.log_path, "ab")  # noqa: SIM115 - see stop()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> ServeProcess:
        """Start the process and wait until ``/api/health`` answers."""
        self.proc = subprocess.Popen(self.args, stdout=self.log, stderr=self.log, cwd=self.cwd)
        deadline = time.monotonic() + timeout
        while not self._up():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"serve did not start (exit {self.proc.poll()})")
            time.sleep(0.05)
        return self

    def _up(self) -> bool:
        try:
            call(self.base + "/api/health", timeout=1)
        except (OSError, HttpError):
            return False
        return True

    def kill(self) -> None:
        """SIGKILL, as a power cut would: nothing is flushed on the way out."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

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


class RemoteTable:
    """One table of a hub in another process, with a local engine mirror of its state.

    :attr:`state` replays the moves of the table's record that the mirror has not seen yet,
    so it costs one request and little work. :meth:`decide` posts a move the way the tablet
    (or, for awards, the player's phone) does, and raises :class:`TableError` with the
    hub's code when it is refused.
    """

    def __init__(self, base: str, info: dict[str, Any], catalog: Catalog) -> None:
        self.base, self.info, self.id = base, info, info["id"]
        self.config = type("Config", (), {"readers": info["readers"]})()
        self.mirror = new_game(catalog, info["players"], info["first_player"])
        self.applied = 0
        self.lock = threading.RLock()

    def get(self, path: str) -> Any:
        """GET a route of this table, with its PIN."""
        return call(f"{self.base}/api/tables/{self.id}{path}",
                    headers={"X-Table-Pin": self.info["pin"]})

    @property
    def state(self) -> GameState:
        """The hub's game as the hub has it: its whole position (``/state``), so that pawn
        ids are the hub's own even after it relabelled look-alike pawns (its record renames
        them away); ``applied`` counts the record's moves."""
        self.applied = len(loads_record(self.get("/record")).moves)
        self.mirror = GameState.from_dict(self.mirror.catalog, self.get("/state")["state"])
        return self.mirror

    @property
    def count(self) -> int:
        """How many events the table's log holds."""
        return self.get("/state")["events"]

    def full_state(self) -> dict[str, Any]:
        """The hub's whole state of the table (needs the PIN)."""
        return self.get("/state")["state"]

    def keep_first_awards(self) -> None:
        """Each phone keeps the first award it is offered, as a hurried player would."""
        for seat, token in enumerate(self.info["tokens"]):
            headers = {"X-Player-Token": token}
            private = call(f"{self.base}/api/tables/{self.id}/players/{seat}/private",
                           headers=headers)
            for move in private["legal"][:1]:
                call(f"{self.base}/api/tables/{self.id}/moves", "POST", {"move": move},
                     headers)

    def players(self, bank: Any, uids: dict[int, str], seed: int, *, delay: float = 0.0,
                kind: type[ScriptedPlayers] = ScriptedPlayers, **options: Any) -> Any:
        """Scripted players of this table (``kind`` of them), deciding over HTTP."""
        return kind(None, self, bank, uids, delay=delay, seed=seed, decide=self.decide,
                    lock=self.lock, **options)

    def decide(self, move: Move) -> None:
        """Post ``move``; award choices go with the player's token, as from a phone."""
        headers = {}
        if move.kind in ("keep_award", "draw_award"):
            headers["X-Player-Token"] = self.info["tokens"][move.player]
        try:
            call(f"{self.base}/api/tables/{self.id}/moves", "POST",
                 {"move": move.to_dict()}, headers)
        except HttpError as exc:
            raise TableError(exc.code, exc.message) from None
