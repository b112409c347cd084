"""The physical table's hands on cinema mats, through the mat's own firmware debounce.

``bench/any_pawn.py --mats`` plays whole games in which hands seat guests on the mats, send
them out and move what the rules moved, while each mat scans through ``firmware/zones.py``
with hovering hands and flickering tags (``bench/table_mats.py``). Here two games: the noise
must happen, the debounce must absorb some of it, and no move may come of it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
any_pawn = importlib.import_module("any_pawn")
table_mats = importlib.import_module("table_mats")


def test_no_move_comes_of_a_hovering_hand_or_a_flickering_tag() -> None:
    """Two 4-player games on mats: hands made moves on them, noise of every kind was
    injected and some absorbed, zero moves and alerts came of it, no move came that no hand
    meant, and the records replay to the hub's scores."""
    tally = any_pawn.play_all(2, 4, 1, 0.05, 0.01, table_mats.Noise())
    assert tally["finished"] == 2 and not tally["broke"]
    assert tally["mat_actions"].get("place", 0) > 0 and tally["mat_actions"].get("end_guest", 0) > 0
    assert all(tally["noise"].get(kind, 0) > 0 for kind in ("hover", "passed", "flicker"))
    assert sum(tally["noise_absorbed"].values()) > 0
    assert tally["noise_moves"] == 0
    assert not tally["noise_alerts"]
    assert tally["noise_phantoms"] == 0
    assert tally["stray_moves"] == 0
    assert tally["replayed"] == 2


def test_overlapping_noise_shows_a_tag_leaving_and_still_makes_no_move() -> None:
    """With noise events free to overlap, the debounce sees some tags leave and come back
    (phantoms); the hub still makes no move of them."""
    noise = table_mats.Noise(hover=0.1, flicker=0.03, overlap=True)
    tally = any_pawn.play_all(1, 4, 2, 0.0, 0.0, noise)
    assert tally["noise_phantoms"] > 0
    assert tally["noise_moves"] == 0
    assert tally["stray_moves"] == 0
