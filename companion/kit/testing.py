"""A test rig for a game's author: a real hub, virtual readers, and the API.

:class:`HubRig` starts ``popcorn-companion serve`` in a process of its own on a fresh
database, with virtual bag readers on pseudo-terminals (the readers' real serial protocol,
acks and feedback), and drives it as a table would: it enrolls the game's pieces by tapping
them, creates a table, taps pieces on the players' readers and reads the views, all over
the hub's HTTP API. The game under test is found as the hub finds any game: by its entry
point, so install it first (``pip install -e .`` of its package)::

    from companion.kit.testing import HubRig

    def test_a_token_tapped_is_played(tmp_path):
        with HubRig(tmp_path, readers=["r-1", "r-2"]) as rig:
            tokens = rig.enroll_kind("number-tokens", "token")  # piece number -> UID
            table = rig.create("number-tokens", ["Ana", "Bob"], {"rounds": 2})
            assert rig.tap("r-1", tokens[4]) == "ok"          # Ana plays token 5
            assert rig.view(table)["played"] == [1, 0]
            assert rig.tap("r-1", tokens[5]) == "error"       # not her turn: an alert

This is the one module of the kit that reaches beyond it (the hub's process and the
virtual readers): an author's tests import it, a running hub never does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.hub.remote import ServeProcess
from companion.readers.virtual import SerialBank, VirtualReader

from .http import call
from .tags import random_uid

READERS = ("reader-1", "reader-2", "reader-3", "reader-4")
"""The rig's readers unless told otherwise: one per seat, in seat order."""


class HubRig:
    """A started hub with virtual readers (see the module's text); a context manager."""

    def __init__(self, tmp: Path, readers: Sequence[str] = READERS, *,
                 seed: int = 1, timeout: float = 10) -> None:
        """``tmp``: a folder of the test's own (the database, the ptys, the hub's log);
        ``seed``: the made-up UIDs of :meth:`enroll_kind`; ``timeout``: how long a tap waits
        for its reader's feedback."""
        self.readers = list(readers)
        self.bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in self.readers],
                               tmp / "dev")
        self.server: ServeProcess | None = None
        self.tmp, self.rng, self.timeout = tmp, random.Random(seed), timeout

    def start(self) -> HubRig:
        """Start the readers and the hub (waiting until it answers)."""
        self.bank.start()
        self.server = ServeProcess(self.tmp / "hub.sqlite", readers=self.readers,
                                   serial=[self.bank.path(r) for r in self.readers]).start()
        return self

    def close(self) -> None:
        """Stop the hub and the readers."""
        if self.server is not None:
            self.server.stop()
        self.bank.stop()

    def __enter__(self) -> HubRig:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # -- the API -------------------------------------------------------------------------

    @property
    def base(self) -> str:
        """The hub's address (``http://127.0.0.1:<port>``)."""
        assert self.server is not None, "start the rig first"
        return self.server.base

    @property
    def admin_pin(self) -> str:
        """The hub's admin PIN (enrollment, the tag registry)."""
        assert self.server is not None, "start the rig first"
        return self.server.admin_pin

    def call(self, path: str, method: str = "GET", body: Any = None, *,
             pin: str | None = None, token: str | None = None,
             lang: str | None = None) -> Any:
        """One request to the hub (``path`` from ``/api``...), with a table PIN, a player's
        token or a language if given; :class:`~.http.HttpError` on a refusal."""
        headers = {key: value for key, value in (
            ("X-Table-Pin", pin), ("X-Player-Token", token), ("Accept-Language", lang))
            if value is not None}
        return call(self.base + path, method, body, headers)

    def create(self, game: str, players: Sequence[str], options: dict[str, Any] | None = None,
               **fields: Any) -> dict[str, Any]:
        """A new table of ``game`` for ``players`` on the rig's first readers: the hub's
        answer (``id``, ``pin``, one ``tokens`` per seat...)."""
        body = {"game": game, "players": list(players), "options": dict(options or {}),
                "readers": self.readers[:len(players)], **fields}
        return dict(self.call("/api/tables", "POST", body))

    def view(self, table: dict[str, Any]) -> dict[str, Any]:
        """The table's public view."""
        return dict(self.call(f"/api/tables/{table['id']}")["view"])

    def private(self, table: dict[str, Any], seat: int) -> dict[str, Any]:
        """A seat's private view, with that player's token."""
        return dict(self.call(f"/api/tables/{table['id']}/players/{seat}/private",
                              token=table["tokens"][seat]))

    # -- readers ---------------------------------------------------------------------------

    def tap(self, reader: str, uid: str) -> str:
        """Tap ``uid`` on ``reader``; the feedback the hub lit it with (``ok``: a move,
        ``error``: an alert)."""
        seq = self.bank.tap(reader, uid)
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            level = next((f["level"] for f in self.bank.readers[reader].feedback
                          if f.get("seq") == seq), None)
            if level is not None:
                return str(level)
            time.sleep(0.01)
        raise TimeoutError(f"no feedback for {uid} on {reader} in {self.timeout} s")

    def enroll(self, game: str, kind: str, uids: Sequence[str]) -> None:
        """Enroll ``uids`` as the pieces of ``game``'s ``kind``, in the kind's order, by
        tapping each on the first reader (``POST /api/enroll`` with ``"next": true``)."""
        admin = {"admin_pin": self.admin_pin}
        self.call("/api/enroll", "POST", {**admin, "game": game, "kind": kind, "next": True})
        try:
            for uid in uids:
                if self.tap(self.readers[0], uid) != "ok":
                    raise AssertionError(f"the hub refused {uid} as a {game} {kind}: "
                                         f"{self.call('/api/tags/counts')['pieces']}")
        finally:
            self.call("/api/enroll", "DELETE", admin)

    def enroll_kind(self, game: str, kind: str) -> dict[int, str]:
        """Every piece of the kind, with a made-up UID each, enrolled by tapping; returns
        each piece's number (its place in the kind's order) and its UID."""
        counts = self.call("/api/tags/counts")["pieces"]
        found = next((k for k in counts if (k["game"], k["kind"]) == (game, kind)), None)
        if found is None:
            raise LookupError(f"the hub has no {kind} of {game}: is the game installed?")
        total = sum(value["count"] for value in found["values"])
        uids = {number: random_uid(self.rng) for number in range(total)}
        self.enroll(game, kind, [uids[n] for n in range(total)])
        return uids
