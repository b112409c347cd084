"""Whole games played as a real table plays them, on a real ``serve`` with virtual readers.

The physical table of ``bench/physical_table.py`` keeps its own truth of where each of the 60
pawns is; its hands never read a pawn's id. Every draw is a random pawn out of the real bag,
tapped on the bag's reader (a virtual reader on a pseudo-terminal); every guest put into a
bag is any pawn of its color from where the move takes it, tapped; every other move goes
over the REST API as the hub lists it, and the hands take any look-alike out of each place it
leaves. Such a game goes to its end with no alert, the hub's counts always the table's, and
``popcorn-companion replay`` of its record gives the hub's scores.

With mistakes injected (a guest from another player's seat tapped in a draw, a pawn tapped
twice, a draw beyond the audience, a draw during Buying, a pawn from another player's bag, an
unknown tag), each one that no arrangement of the pawns explains raises exactly one alert,
whose claim about the pawn's place is true; the others are taken as the legal plays they
might be, and the table undoes them.
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hub.remote import ServeProcess
from companion.kit.http import call
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualReader

pytestmark = pytest.mark.slow  # whole games over a real serve process
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
physical = importlib.import_module("physical_table")
READERS = ["bag-1", "bag-2", "bag-3", "bag-4"]


def play_at_a_real_table(tmp_path: Path, seed: int, mistakes: float, mishaps: float = 0.0):
    """One 4-player game on a serve process; its tally, record and scores."""
    bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                      tmp_path / "dev").start()
    server = ServeProcess(tmp_path / "hub.db", serial=[bank.path(r) for r in READERS],
                          readers=READERS).start()
    try:
        rng = random.Random(f"tags:{seed}")
        uids = {pawn: random_uid(rng) for pawn in range(60)}
        server.import_tags(uids)
        info = server.create_table({"players": ["Ana", "Bob", "Chloe", "Dev"],
                                    "readers": READERS, "deal_seed": seed})
        table = physical.TableOverHttp(server.base, info, tmp_path / "hub.db", bank, uids)
        try:
            tally = physical.PhysicalTable(table, random.Random(seed), mistakes,
                                           mishaps=mishaps).play()
        finally:
            table.close()
        pin = {"X-Table-Pin": info["pin"]}
        record = call(f"{server.base}/api/tables/{info['id']}/record", headers=pin)
        scores = call(f"{server.base}/api/tables/{info['id']}/scores")
        return tally, record, scores
    finally:
        server.stop()
        bank.stop()


def replayed_scores(tmp_path: Path, record: str) -> dict:
    path = tmp_path / "game.jsonl"
    path.write_text(record)
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["scores"]


def test_a_whole_game_with_look_alike_hands_has_no_alert_and_replays(tmp_path: Path) -> None:
    tally, record, scores = play_at_a_real_table(tmp_path, 5, 0.0)
    assert tally.broke == [] and tally.finished == 1
    assert tally.false_alerts == 0
    assert tally.look_alike_moves > 10  # the hands really took look-alikes
    assert replayed_scores(tmp_path, record) == scores


def test_real_mistakes_are_caught_with_a_true_fix_and_the_game_goes_on(tmp_path: Path) -> None:
    """Mistakes injected, and slips nobody saw (a draw whose tap was lost, a guest dropped
    back into its bag), each found by an audit of that bag over the API, accepted, and what
    it could not mend corrected by hand: the game still ends with the table's counts, and
    its record, corrections included, replays to the hub's scores."""
    tally, record, scores = play_at_a_real_table(tmp_path, 8, 0.06, mishaps=0.03)
    assert tally.broke == [] and tally.finished == 1 and tally.false_alerts == 0
    assert sum(tally.mishaps.values()) >= 3 and tally.replayed == 1
    assert sum(tally.injected.values()) >= 10
    assert not tally.wrong and not tally.missed and not tally.refused
    assert tally.caught + tally.explained == tally.injected
    assert tally.caught["unknown_tag"] == tally.injected["unknown_tag"]
    assert replayed_scores(tmp_path, record) == scores
