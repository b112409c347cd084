"""Engine speed: full random 4-player games per second and moves per second, on one core.

Run ``python bench/engine.py [--games N] [--players K]``. Each game is played from setup to
the end of the last round by the simulator (legal-move listing included), then scored. The
process is pinned to one CPU core where the system allows it. Figures go to stdout; there
is no pass or fail here.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from companion.cards import load_catalog
from companion.engine.scoring import score_game
from companion.engine.simulator import play_random
from companion.engine.summary import final_positions


def main() -> None:
    """Parse the options, run the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    catalog = load_catalog()
    play_random(catalog, args.players, random.Random(-1))  # warm-up
    per_game, moves = [], 0
    started = time.perf_counter()
    for number in range(args.games):
        t0 = time.perf_counter()
        game = play_random(catalog, args.players, random.Random(f"{args.seed}:{number}"))
        score_game(catalog, final_positions(game.state))
        per_game.append(time.perf_counter() - t0)
        moves += len(game.moves)
    elapsed = time.perf_counter() - started
    print(f"engine benchmark: {args.games} random {args.players}-player games on one core")
    print(f"  games per second: {args.games / elapsed:8.1f}")
    print(f"  moves per second: {moves / elapsed:8.0f}  ({moves / args.games:.0f} moves a game)")
    print(f"  ms per game:      p50 {1000 * statistics.median(per_game):.1f}"
          f"  max {1000 * max(per_game):.1f}")


if __name__ == "__main__":
    main()
