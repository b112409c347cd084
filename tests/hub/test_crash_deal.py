"""A "deal for us" table survives a SIGKILL in the middle of the move that ends a round.

The move that ends round 1 makes the hub deal three movies. Killed 2 to 5 ms into that
POST, a real ``serve`` must come back either before the move or after the move *and* its
deals, never in between: the table must never wait on a reveal that only the hub makes.
"""

from __future__ import annotations

import contextlib
import http.client
import itertools
import random
import sqlite3
import threading
import time
from pathlib import Path

from companion.games.popcorn.engine.moves import Move
from companion.games.popcorn.engine.simulator import PASSIVE_KINDS
from companion.games.popcorn.engine.state import GameState
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.parts import DEALT as AUTO_DEAL_KINDS
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError, call

CATALOG = load_catalog()
READERS = ["bag-1", "bag-2"]


def choose(state: GameState, rng: random.Random) -> Move | None:
    """A random move the players could make now (draws included), or None."""
    player = rng.choice(state.waiting_players() or [None])
    draws = [m for m in state.chance_outcomes(player) if m.kind == "draw_pawn"]
    if draws:
        return rng.choice(draws)
    moves = state.legal_moves(player)
    active = [m for m in moves if m.kind not in PASSIVE_KINDS]
    return rng.choice(active or moves) if moves else None


def play_to_end_of_round(remote: RemoteTable, rng: random.Random) -> Move:
    """Play over REST until the next move would end round 1; return that move."""
    for _ in range(2000):
        state = remote.state
        move = choose(state, rng)
        if move is None:
            time.sleep(0.01)
            continue
        trial = state.clone()
        trial.apply(move)
        if trial.round > state.round:
            return move
        remote.decide(move)
    raise AssertionError("round 1 did not end")


def owed_deals(state: GameState) -> list[Move]:
    """The chance steps "deal for us" should have dealt already."""
    return [m for m in state.chance_outcomes() if m.kind in AUTO_DEAL_KINDS]


def cut_last_deals(db: Path, table_id: str) -> None:
    """Delete the deal events at the end of a table's log, leaving the move before them."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT n, body FROM table_events WHERE table_id=? ORDER BY n DESC",
                            (table_id,)).fetchall()
        cut = [n for n, _ in itertools.takewhile(lambda r: '"source":"deal"' in r[1], rows)]
        assert cut, "the round's last move triggered no deal"
        conn.executemany("DELETE FROM table_events WHERE table_id=? AND n=?",
                         [(table_id, n) for n in cut])


def post_quietly(remote: RemoteTable, move: Move) -> None:
    """Post a move from a thread whose server is about to die."""
    with contextlib.suppress(OSError, HttpError, http.client.HTTPException):  # cut mid-answer
        call(f"{remote.base}/api/tables/{remote.id}/moves", "POST", {"move": move.to_dict()},
             timeout=5)


KILLS = 12


def test_a_kill_in_the_move_that_ends_a_round_leaves_the_table_dealt(tmp_path: Path) -> None:
    """SIGKILL ``serve`` at varied delays into the round-ending POST: after every restart the
    table holds the move with all its deals or neither, owes no deal, and takes a move.
    Then a log cut between the move and its deals (as an older hub could leave it) is
    dealt to the end when the hub starts."""
    kills = KILLS
    server = ServeProcess(tmp_path / "hub.db", readers=READERS).start()
    try:
        created = server.create_table({"players": ["Ana", "Bob"], "readers": READERS,
                                       "deal_seed": 4})
        remote = RemoteTable(server.base, created, CATALOG)
        remote.keep_first_awards()
        ending = play_to_end_of_round(remote, random.Random(4))
        before = remote.full_state()
        landed = 0
        for i in range(kills):
            poster = threading.Thread(target=post_quietly, args=(remote, ending))
            poster.start()
            time.sleep(0.002 + 0.003 * i / (kills - 1))
            server.kill()
            poster.join()
            server.start()
            mirror = RemoteTable(server.base, created, CATALOG)
            state = mirror.state
            assert mirror.full_state() == state.to_dict()
            assert owed_deals(state) == [], f"kill {i}: the table waits on a deal"
            if state.round == 1:
                assert state.to_dict() == before, f"kill {i}: half a move was kept"
                continue
            landed += 1
            probe = choose(state, random.Random(i))
            assert probe is not None, f"kill {i}: round 2 offers no move"
            mirror.decide(probe)  # playable: the hub takes it
            for _ in range(2):  # the probe, then the round's last move, with their deals
                call(f"{server.base}/api/tables/{remote.id}/undo", "POST",
                     {"pin": created["pin"]})
            assert RemoteTable(server.base, created, CATALOG).state.to_dict() == before
        print(f"{landed} of {kills} kills came back with the move and its deals")
        remote.decide(ending)
        server.stop()
        cut_last_deals(tmp_path / "hub.db", remote.id)
        server.log = open(server.log_path, "ab")  # noqa: SIM115 - closed by stop()
        server.start()
        state = RemoteTable(server.base, created, CATALOG).state
        assert state.round == 2 and owed_deals(state) == []
    finally:
        server.stop()
