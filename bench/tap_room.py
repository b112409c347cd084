"""The room ``bench/taps.py`` plays in: a ``serve`` process, four virtual bag readers on
pseudo-terminals, a box of tagged pawns and, when the hub knows card tags, tagged cards; with
``--mats``, a virtual cinema mat under each player's board beside the bag readers (protocol
version 2), which ``serve`` trusts (``--mat``) and the table binds.

Every pawn and card gets a made-up UID. Cards get theirs when the hub takes a version 2
registry (``docs/api.md``, ``PUT /api/tags``); a hub that does not is played without card
tags, so revealed cards are typed into the search boxes as on a box without stickers.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from companion.games.popcorn.engine.catalog import Catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError, call
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader

READERS = ("bag-1", "bag-2", "bag-3", "bag-4")
MATS = ("mat-1", "mat-2", "mat-3", "mat-4")
"""The cinema mats of ``--mats``, by seat."""


class TapRoom:
    """A hub with four bag readers (and with ``mats``, four cinema mats), the box's pawns
    tagged and (if it can) its cards."""

    def __init__(self, tmp: Path, catalog: Catalog, cards: bool, mats: bool = False) -> None:
        self.catalog = catalog
        self.mats = [VirtualMat(m, resend_interval=0.3) for m in MATS] if mats else []
        """The virtual mats by seat (none without ``--mats``)."""
        bags = [VirtualReader(r, resend_interval=0.3) for r in READERS]
        bank = SerialBank([*bags, *self.mats], tmp / "dev").start()
        self.bank: SerialBank | None = bank
        self.db = tmp / "hub.db"
        """The hub's SQLite file (read only here: its log says how a tap relabelled)."""
        self.server = ServeProcess(self.db, serial=[bank.path(r) for r in bank.readers],
                                   readers=list(READERS),
                                   mats=[m.reader for m in self.mats]).start()
        rng = random.Random(12)
        self.uids = {pawn: random_uid(rng) for pawn in range(60)}
        self.card_uids = self._card_uids(rng)
        self.cards = self._import(cards)

    def _card_uids(self, rng: random.Random) -> dict[str, str]:
        """One UID per movie card, award card and theater tile, by card id."""
        ids = [*self.catalog.movies, *self.catalog.awards, *self.catalog.theaters]
        return {card: random_uid(rng) for card in ids}

    def _import(self, cards: bool) -> bool:
        """Send the registry, with its cards if ``cards``; False when the cards have no tags
        (not wanted, or this hub takes pawns only)."""
        if not cards:
            self._put({"format": "popcorn-tags", "version": 1, "tags": self._pawns()})
            return False
        kinds = {**{m: "movie" for m in self.catalog.movies},
                 **{a: "award" for a in self.catalog.awards},
                 **{t: "theater" for t in self.catalog.theaters}}
        cards = [{"uid": uid, "kind": kinds[card], "card": card}
                 for card, uid in self.card_uids.items()]
        try:
            self._put({"format": "popcorn-tags", "version": 2, "tags": self._pawns(),
                       "cards": cards})
            return True
        except HttpError:
            self._put({"format": "popcorn-tags", "version": 1, "tags": self._pawns()})
            return False

    def _pawns(self) -> list[dict[str, Any]]:
        return [{"uid": u, "pawn": p} for p, u in self.uids.items()]

    def _put(self, registry: dict[str, Any]) -> None:
        call(self.server.base + "/api/tags", "PUT",
             {"registry": registry, "admin_pin": self.server.admin_pin})

    def table(self, names: list[str], first_player: int, hints: bool,
              play_on: bool = False) -> RemoteTable:
        """A new table whose chance steps the table reports (no "deal for us"); with
        ``play_on``, its screens let the advisor play on after a draw."""
        body: dict[str, Any] = {"players": names, "readers": list(READERS[:len(names)]),
                                "first_player": first_player, "hints": hints,
                                "play_on": play_on}
        if self.mats:
            body["mats"] = [m.reader for m in self.mats[:len(names)]]
        info = self.server.create_table(body)
        return RemoteTable(self.server.base, info, self.catalog)

    def last_relabel(self, table_id: str, pawn: int) -> list[tuple[int, int]]:
        """The swaps of look-alikes the hub's last logged move of ``pawn`` made (an older
        hub's one pair, or a list of pairs; none when it made none)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT body FROM table_events WHERE table_id=? ORDER BY n DESC",
                              (table_id,)).fetchall()
        for (text,) in rows:
            body = json.loads(text)
            if body.get("move", {}).get("pawn") == pawn:
                logged = body.get("relabel") or []
                if logged and isinstance(logged[0], int):
                    return [(logged[0], logged[1])]
                return [(int(a), int(b)) for a, b in logged]
        return []

    def alerts(self, table_id: str) -> list[dict[str, Any]]:
        """Every alert the hub raised at the table so far (its log keeps each one, open or
        dismissed), oldest first."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT body FROM table_events WHERE table_id=? ORDER BY n",
                              (table_id,)).fetchall()
        return [body["alert"] for body in (json.loads(text) for (text,) in rows)
                if isinstance(body, dict) and body.get("alert")]

    def move_sources(self, table_id: str, n: int) -> list[str | None]:
        """The ``source`` of each of the table's last ``n`` moves, oldest first (``advice``:
        a move the advisor played on; a reader's tap has none)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT body FROM table_events WHERE table_id=? ORDER BY n DESC",
                              (table_id,)).fetchall()
        sources: list[str | None] = []
        for (text,) in rows:
            body = json.loads(text)
            if isinstance(body, dict) and body.get("move") and len(sources) < n:
                sources.append(body.get("source"))
        return sources[::-1]

    def mat_reports(self) -> int:
        """The zone states the mats have sent (every report is a new seq)."""
        return sum(mat.seq for mat in self.mats)

    def tap(self, player: int, uid: str) -> None:
        """Tap a tag on ``player``'s bag reader."""
        assert self.bank is not None
        self.bank.tap(READERS[player], uid)

    def close(self) -> None:
        """Stop the hub and the readers (once)."""
        if self.bank is not None:
            self.server.stop()
            self.bank.stop()
            self.bank = None
