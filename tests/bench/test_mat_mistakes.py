"""``bench/mat_mistakes.py`` on two games: every seating mistake a hand makes on a cinema
mat is caught with one alert (issue 40: "Every injected seating mistake raises its alert").

Each game is played to its end through a real hub, four virtual bag readers and four
virtual mats on pseudo-terminals; at a random suitable moment a hand makes each mistake on
a mat, then mends it. Each mistake must raise exactly one alert, of its code, naming the
player, the guest and the theater where that applies, with a fix, closed by the mat where
the mat mends it; no other alert in the whole game; the game ends, and its record replays
to the hub's scores; and a French screen shows each alert in French (the rules' refusals
raised by a mat, ``NO_SUCH_SEAT`` and ``THEATER_HAS_NO_MOVIE``, included).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # two whole games over pseudo-terminals
BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
mat_mistakes = importlib.import_module("mat_mistakes")  # bench/mat_mistakes.py, a script
SEEDS = (1, 2)


@pytest.fixture(scope="module")
def tally(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The figures of two games, seeds 1 and 2."""
    counted = mat_mistakes.Tally()
    for seed in SEEDS:
        counted.add(mat_mistakes.play_game(seed, tmp_path_factory.mktemp(f"game{seed}")))
    return counted


def test_every_injected_seating_mistake_is_caught_with_one_alert(tally: Any) -> None:
    """Each kind is made in these games, and each mistake made raises its one alert,
    naming what it must; nothing else raises any; both games end and replay."""
    assert tally.ended == tally.replayed == len(SEEDS)
    for kind in mat_mistakes.KINDS:
        row = tally.rows[kind]
        assert row["injected"] >= 1, kind
        assert row["caught"] == row["injected"], (kind, dict(row), dict(tally.reasons[kind]))
        assert row["missed"] == row["extra"] == row["faulty"] == 0, (kind, dict(row))
    assert not tally.stray, tally.stray


def test_every_seating_alert_reads_in_french(tally: Any) -> None:
    """A French screen shows each mistake's alert in French."""
    untranslated = {kind: tally.rows[kind]["untranslated"] for kind in mat_mistakes.KINDS}
    assert not any(untranslated.values()), untranslated

