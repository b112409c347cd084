"""The soak in short: two whole 4-player games at once, one on serial readers and one on MQTT,
through unplugs, broker restarts, hub SIGKILLs, garbage and resent taps."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.broker, pytest.mark.slow]  # MQTT tables; whole games
SOAK = Path(__file__).resolve().parents[2] / "bench" / "soak.py"


def load_soak():
    """bench/soak.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("soak", SOAK)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_two_games_through_every_fault_lose_and_double_no_tap(tmp_path: Path) -> None:
    """Every tap is applied once, and each exported record replays to the players' game."""
    bench = load_soak()
    soak = bench.Soak(games=2, tables=2, seed=3, fault_every=1.0, tmp=tmp_path).run()
    print(soak.report())
    tally = soak.tally
    assert tally.problems == []
    assert tally.games == tally.matched == 2
    assert tally.lost == tally.doubled == 0 and tally.taps > 0
    assert set(soak.faults) == set(bench.FAULTS), "a kind of fault was never injected"
