"""``bench/e2e.py``'s players see a table through the hub's file, and see what the hub has.

The latency bench's players no longer GET a table's whole position at each change (a load
no real room puts on the hub): they read the table's new events from the hub's SQLite file
and replay them on their own copy (``FileTable``). Its figures are only honest if that copy
is the hub's position: this test plays part of a game on a real ``serve`` process, with
virtual readers on pseudo-terminals, and compares the copy with the hub's own ``/state``.
"""

from __future__ import annotations

import importlib
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from companion.games import build as build_games
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualReader

pytestmark = pytest.mark.slow  # a serve process and part of a game over it
BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
e2e = importlib.import_module("e2e")  # bench/e2e.py, which people run as a script
READERS = ["t0-1", "t0-2"]
TAPS = 12


def test_the_players_copy_is_the_hubs_position(tmp_path: Path) -> None:
    bank = SerialBank([VirtualReader(r, resend_interval=1.0) for r in READERS],
                      tmp_path / "dev").start()
    db = tmp_path / "hub.sqlite"
    hub = ServeProcess(db, serial=[bank.path(r) for r in READERS],
                       readers=READERS).start(timeout=120)
    try:
        uids = {pawn: random_uid(random.Random(pawn)) for pawn in range(60)}
        hub.import_tags(uids)
        info = hub.create_table({"players": ["Ana", "Bob"], "readers": READERS,
                                 "deal_seed": 1})
        RemoteTable(hub.base, info, load_catalog()).keep_first_awards()
        table = e2e.FileTable(hub.base, info, load_catalog())
        table.watch_file(sqlite3.connect(f"file:{db}?mode=ro", uri=True,
                                         check_same_thread=False), build_games())
        table.watcher = e2e.Watcher(hub.base, table.id)
        players = table.players(bank, uids, 0, delay=0.0, kind=e2e.TimedPlayers,
                                watcher=table.watcher, taps=TAPS).start()
        assert players.thread is not None
        players.thread.join(120)
        table.watcher.client.disconnect()

        assert len(players.latencies) >= TAPS  # draws tapped and seen pushed
        assert players.actions > TAPS  # and decisions posted between them
        hubs = table.call(f"{hub.base}/api/tables/{table.id}/state",
                          headers={"X-Table-Pin": info["pin"]})
        table._seen = None  # look once more, now that nobody plays
        assert table.state.to_dict() == hubs["state"]
        assert table.copy.count == hubs["events"]
    finally:
        hub.stop()
        bank.stop()
