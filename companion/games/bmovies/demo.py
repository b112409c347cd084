"""Scripted B Movies players for the demo and the tests: pitches, votes, token taps.

The screenwriter's pitch is sent the way the tablet sends it, each vote the way that
player's phone sends it (with the player's token, or straight to the hub in-process), and
every owed draw is a popcorn token taken at random from the bucket and *tapped on the
drawing player's virtual pad*, so it travels the real reader link, the dedup store and the
tag reading. The players pick at random, at a pace a person can follow.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.kit.errors import TableError
from companion.kit.game import DemoHub, DemoTable, HostLock, Tapper
from companion.kit.tags import random_uid

from .engine import Move
from .tags import GAME_ID

log = logging.getLogger("companion.demo")

PLAYERS = ("Ana", "Bob", "Chloe", "Dev")
"""The demo's players."""
TITLE_WORDS = ("Attack", "Zombie", "Beach", "Robot", "Vampire", "Ninja", "Shark", "Cowboy",
               "Lava", "Planet", "Mummy", "Disco")
"""Words the scripted screenwriters string into titles (a real pitch reads its cards)."""


def enroll_tokens(hub: DemoHub, seed: int) -> dict[int, str]:
    """Give every popcorn token of the box a made-up tag (as if enrolled value by value);
    returns ``token id -> UID``. Pawn and card tags already enrolled are kept."""
    rng = random.Random(f"tokens:{seed}")
    tokens = hub.registry.kind(GAME_ID, "token").numbered()
    uids = {token: random_uid(rng) for token, _ in tokens}
    hub.registry.tag_kind(GAME_ID, "token", uids)
    return uids


class BMoviesPlayers:
    """Plays one B Movies table to the end: pitches and votes through ``send``, token
    draws as taps on the drawing player's pad (``bank``, virtual readers)."""

    def __init__(self, table: DemoTable, bank: Tapper, uids: dict[int, str],
                 send: Callable[[Move], object], *, lock: HostLock, delay: float = 0.6,
                 seed: int = 1) -> None:
        """``send`` applies a decision as the tablet or the phone would (raising
        :class:`TableError` when refused); ``lock`` guards reading ``table.state``."""
        self.table, self.bank, self.uids, self.send = table, bank, uids, send
        self.lock, self.delay, self.rng = lock, delay, random.Random(seed)
        self.in_bucket = sorted(uids)
        """Token ids still in the bucket, as far as these players' hands went."""
        self.tapped: list[tuple[int, int]] = []
        """Every token tapped, as ``(seat, token id)``, in order."""
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    @classmethod
    def in_process(cls, hub: DemoHub, table: DemoTable, bank: Tapper, uids: dict[int, str],
                   **options: Any) -> BMoviesPlayers:
        """Players whose decisions go straight to ``hub`` (the demo's
        :class:`~companion.hub.hub.Hub`, which a game does not import)."""
        return cls(table, bank, uids, lambda move: hub.submit(
            table.id, move, source="demo"), lock=hub.lock, **options)

    def start(self) -> BMoviesPlayers:
        """Play in a background thread."""
        self.thread = threading.Thread(target=self.run, name="bm-players", daemon=True)
        self.thread.start()
        return self

    def run(self) -> None:
        """Act until the game is over (or :attr:`stop` is set)."""
        while not self.stop.is_set() and self.step():
            self.stop.wait(self.delay)

    def step(self) -> bool:
        """Make one move (a pitch, a vote or a token tap); False once the game is over."""
        with self.lock:
            state = self.table.state
            if state.is_over:
                return False
            move = self._choose(state)
        if move is None:
            self.stop.wait(0.05)
        elif move.kind == "draw_token":
            assert move.player is not None
            self._tap(move.player)
        else:
            try:
                self.send(move)
            except TableError as exc:  # the state moved on meanwhile: choose again
                log.debug("demo: %s refused: %s", move, exc)
        return True

    def _choose(self, state: Any) -> Move | None:
        if state.phase == "draw":
            owed = [p for p in range(state.n) if state.owed[p]]
            return Move("draw_token", player=self.rng.choice(owed)) if owed else None
        moves = state.legal_moves()
        if state.phase == "vote":  # a producer may vote again; these vote once
            moves = [m for m in moves if m.player not in state.votes]
        if not moves:
            return None
        move = self.rng.choice(moves)
        if move.kind == "pitch":
            words = self.rng.sample(TITLE_WORDS, move.cards or 2)
            move = Move("pitch", player=move.player, cards=move.cards, title=" ".join(words))
        return move

    def _tap(self, seat: int) -> None:
        token = self.in_bucket.pop(self.rng.randrange(len(self.in_bucket)))
        self.tapped.append((seat, token))
        before = self.table.count
        self.bank.tap(self.table.config.readers[seat], self.uids[token])
        deadline = time.monotonic() + 10
        while self.table.count == before and time.monotonic() < deadline:
            time.sleep(0.005)
