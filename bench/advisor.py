"""Seating advisor: time per call, and how advised seats fare against eager ones.

Run ``python bench/advisor.py [--games N] [--seed S]``. Two parts, each on N seeded
4-player games (game ``i`` is seeded ``"S:i"``), pinned to one core:

1. *Speed*: games are played by the ``eager`` policy, and each time a player's guests are all
   drawn the advisor is asked for that player (the full search over every placement, and its
   three best placements played through the engine). Each call is timed in CPU time
   (``time.process_time``) and the report gives p50, p99 and the maximum.
2. *Quality*: in game ``i`` the seat ``i mod 4`` is advised (the ``advisor`` policy) and the
   three others play ``eager``, so every seat is advised equally often. The report gives the
   advised seat's win rate (a shared first place counts as a share) against the 25 % an
   equal player would get, and its mean score margin over the mean of the other three.

Figures go to stdout; there is no pass or fail.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from companion.games.popcorn.advisor import advise
from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import game as G
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.engine.scoring import score_game
from companion.games.popcorn.engine.setup import new_game
from companion.games.popcorn.engine.simulator import DEFAULT_NAMES, random_move
from companion.games.popcorn.engine.state import GameState
from companion.games.popcorn.engine.summary import final_positions
from companion.games.popcorn.facts_file import load_catalog

PLAYERS = 4


def main() -> None:
    """Parse the options, run both parts, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per part (default 200)")
    parser.add_argument("--seed", type=int, default=2026, help="game i is seeded 'SEED:i'")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    speed(args.games, args.seed)
    quality(args.games, args.seed)


def drawn(state: GameState, p: int) -> bool:
    """Whether player ``p`` has drawn every guest and placed none yet."""
    show = state.showings[p]
    return (show.to_draw == 0 and state.task_for(p) is None and not state.seated_count[p]
            and bool(state.at.get(P.hand(p))))


def speed(games: int, seed: int) -> None:
    """Time the advisor on every showing of ``games`` eager games."""
    catalog = load_catalog()
    times: list[float] = []
    for number in range(games):
        rng = random.Random(f"{seed}:{number}")
        state = new_game(catalog, DEFAULT_NAMES[:PLAYERS], rng.randrange(PLAYERS))
        asked: set[tuple[int, int]] = set()
        while state.phase != "over":
            for p in range(state.n) if state.phase == "showings" else ():
                if (state.round, p) not in asked and drawn(state, p):
                    asked.add((state.round, p))
                    t0 = time.process_time()
                    advise(state, p)
                    times.append(time.process_time() - t0)
            G.apply_listed(state, random_move(state, rng, "eager"))
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"advisor speed: {len(times)} calls over {games} eager {PLAYERS}-player games, "
          "one core")
    print(f"  ms per call:  p50 {1000 * statistics.median(times):.2f}  p99 {1000 * p99:.2f}"
          f"  max {1000 * times[-1]:.2f}")


def quality(games: int, seed: int) -> None:
    """Play ``games`` games of one advised seat (rotating) against three eager seats."""
    catalog = load_catalog()
    wins, margins = 0.0, []
    for number in range(games):
        seat = number % PLAYERS
        rng = random.Random(f"{seed}:{number}")
        game = play_advised(catalog, PLAYERS, rng, advised={seat})
        totals = [p.total for p in score_game(catalog, final_positions(game.state)).players]
        top = max(totals)
        if totals[seat] == top:
            wins += 1 / totals.count(top)
        others = [t for i, t in enumerate(totals) if i != seat]
        margins.append(totals[seat] - sum(others) / len(others))
    print(f"advisor against eager: {games} {PLAYERS}-player games, one advised seat "
          "(rotating), three eager seats")
    print(f"  advised win rate: {100 * wins / games:.1f} %  (an equal player: "
          f"{100 / PLAYERS:.0f} %)")
    print(f"  mean score margin over the other seats: {statistics.mean(margins):+.2f} popcorn")


if __name__ == "__main__":
    main()
