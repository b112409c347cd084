"""A Popcorn table of a hub in another process, driven over HTTP.

:class:`RemoteTable` gives :class:`~.demo.ScriptedPlayers` what it needs of a table (a state
to choose from, a way to decide), built from the table's position and record over the REST
API (:mod:`companion.kit.http`). The test suite and the benchmarks use it with a hub started
by :class:`~companion.hub.remote.ServeProcess`.
"""

from __future__ import annotations

import threading
from typing import Any

from companion.kit.errors import TableError
from companion.kit.http import HttpError, call

from .demo import ScriptedPlayers
from .engine import GameState, Move, new_game
from .facts_file import Catalog
from .record import loads_record


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
        self.call = call
        """How a request goes: :func:`~companion.kit.http.call` (a connection each), or a
        :class:`~companion.kit.http.Session`'s ``call`` (one kept connection)."""
        self.lock = threading.RLock()

    def get(self, path: str) -> Any:
        """GET a route of this table, with its PIN."""
        return self.call(f"{self.base}/api/tables/{self.id}{path}",
                         headers={"X-Table-Pin": self.info["pin"]})

    @property
    def applied(self) -> int:
        """How many moves the table's record holds now (one read of the whole record: only
        a caller that counts moves pays for it, not every look at :attr:`state`)."""
        return len(loads_record(self.get("/record")).moves)

    @property
    def state(self) -> GameState:
        """The hub's game as the hub has it: its whole position (``/state``), so that pawn
        ids are the hub's own even after it relabelled look-alike pawns (its record renames
        them away)."""
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
            private = self.call(f"{self.base}/api/tables/{self.id}/players/{seat}/private",
                                headers=headers)
            for move in private["legal"][:1]:
                self.call(f"{self.base}/api/tables/{self.id}/moves", "POST", {"move": move},
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
            self.call(f"{self.base}/api/tables/{self.id}/moves", "POST",
                      {"move": move.to_dict()}, headers)
        except HttpError as exc:
            raise TableError(exc.code, exc.message) from None
