"""Game analysis: how long the whole analysis of a 4-player game takes, and what it finds.

Run ``python bench/analysis.py [--games N] [--seed S]``, pinned to one core. The analysis
is timed as the hub and ``popcorn-companion analyze`` run it: Popcorn's
``GameKind.advisor.analyze`` on the record's text (reading the record, replaying it, valuing every
decision the seating advisor can judge, describing the three biggest misses per player).

1. ``docs/examples/game-4p.jsonl``, the example record (a game of random choices).
2. N simulated 4-player games of each policy (``random``, and ``advisor``: every seat
   follows the advisor), game ``i`` seeded ``"S:i"`` as ``simulate`` seeds it; the mean
   and the maximum time, and the seats' mean accuracy.

Each figure is wall time (``time.perf_counter``) and CPU time (``time.process_time``). The
goal is at most 5 s for a 4-player game; there is no pass or fail.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from companion.games.popcorn import game
from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import play_random
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import Record, dumps_record

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "game-4p.jsonl"
PLAYERS = 4
GOAL = 5.0
"""Seconds: the goal for the whole analysis of a 4-player game."""


def main() -> None:
    """Parse the options, time both parts, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per policy (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="game i is seeded 'SEED:i'")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"game analysis, one core (goal: at most {GOAL:g} s for a {PLAYERS}-player game)")
    wall, cpu, result = timed(EXAMPLE.read_text(encoding="utf-8"))
    print(f"  {EXAMPLE.name}: {wall:.2f} s wall, {cpu:.2f} s CPU, {result['moves']} moves, "
          f"{sum(p['decisions'] for p in result['players'])} decisions valued")
    for policy in ("random", "advisor"):
        simulated(policy, args.games, args.seed)


def timed(text: str) -> tuple[float, float, dict[str, Any]]:
    """The analysis of one record's text: wall seconds, CPU seconds, the JSON."""
    kind = game()
    wall, cpu = time.perf_counter(), time.process_time()
    assert kind.advisor is not None
    result = kind.advisor.analyze(text)
    return time.perf_counter() - wall, time.process_time() - cpu, result


def simulated(policy: str, games: int, seed: int) -> None:
    """Time the analysis of ``games`` games of ``policy`` and print mean and max."""
    catalog = load_catalog()
    walls, cpus, accuracies, decisions = [], [], [], []
    for number in range(games):
        rng = random.Random(f"{seed}:{number}")
        played = (play_advised(catalog, PLAYERS, rng) if policy == "advisor"
                  else play_random(catalog, PLAYERS, rng, policy=policy))
        text = dumps_record(Record(played.names, played.first_player, played.moves))
        wall, cpu, result = timed(text)
        walls.append(wall)
        cpus.append(cpu)
        decisions.append(sum(p["decisions"] for p in result["players"]))
        accuracies += [p["accuracy"] for p in result["players"] if p["accuracy"] is not None]
    print(f"  {games} {policy} games: wall mean {statistics.mean(walls):.2f} s, max "
          f"{max(walls):.2f} s; CPU mean {statistics.mean(cpus):.2f} s, max {max(cpus):.2f} s;"
          f" {statistics.mean(decisions):.0f} decisions a game; seats' accuracy mean "
          f"{statistics.mean(accuracies):.1f} %, min {min(accuracies):.1f} %")


if __name__ == "__main__":
    main()
