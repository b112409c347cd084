"""What the look-alikes' pruning costs: the same calls on this checkout's
``companion/games/popcorn/whereabouts.py`` and on a baseline commit's, side by side.

The hub keeps, for every pawn, the places it may be in, and after each move or tap cuts
those sets of the colors that changed down to what some arrangement allows
(``_prune``: the strongly connected parts of a pawn-place graph). This bench plays whole
games with hands that take any look-alike (``any_pawn.py``'s physical table, with cinema
mats for one of them), records a sample of the ``_prune`` calls the hub made, then runs
those very calls on both versions in this process: every result must be the same, and it
prints each version's microseconds a call (the best of several rounds, the versions
alternating, so that a busy machine weighs on both alike).

    .venv/bin/python bench/whereabouts.py --baseline dc74c24
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import timeit
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MODULE = "companion/games/popcorn/whereabouts.py"
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

Call = tuple[list[frozenset[int]], tuple[int, ...], tuple[int, ...]]
"""One ``_prune`` call: the sets, the pawns of the color, the arrangement."""


def recorded(games: int, seed: int, share: float) -> list[Call]:
    """A ``share`` of the ``_prune`` calls of ``games`` whole games (the first on mats)."""
    import any_pawn
    import table_mats

    import companion.games.popcorn.whereabouts as live

    calls: list[Call] = []
    pick, real = random.Random(seed), live._prune

    def keep(maybe: list[frozenset[int]], pawns: Any, loc: Any) -> None:
        if pick.random() < share:
            calls.append((list(maybe), tuple(pawns), tuple(loc)))
        real(maybe, pawns, loc)

    live._prune = keep  # type: ignore[assignment]
    try:
        for number in range(games):
            noise = table_mats.Noise() if number == 0 else None
            any_pawn.play_all(1, 4, seed + number, 0.05, 0.01, noise)
    finally:
        live._prune = real  # type: ignore[assignment]
    return calls


def baseline(rev: str) -> tuple[str, ModuleType]:
    """Commit ``rev``'s whereabouts module, loaded on its own, and its short id."""
    sha = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=REPO,
                         check=True, capture_output=True, text=True).stdout.strip()
    text = subprocess.run(["git", "show", f"{sha}:{MODULE}"], cwd=REPO, check=True,
                          capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader(f"whereabouts_{sha}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    exec(compile(text, f"{sha}:{MODULE}", "exec"), module.__dict__)  # noqa: S102
    return sha, module


def per_call(module: ModuleType, calls: list[Call]) -> float:
    """Seconds one round of ``calls`` takes on ``module``, divided by the calls."""
    def run() -> None:
        for maybe, pawns, loc in calls:
            module._prune(list(maybe), pawns, loc)
    return timeit.timeit(run, number=1) / len(calls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="the commit to compare with")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--share", type=float, default=0.2,
                        help="the share of the games' calls kept and timed")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    import companion.games.popcorn.whereabouts as current

    print(f"recording _prune calls of {args.games} games (the first on mats)...", flush=True)
    calls = recorded(args.games, args.seed, args.share)
    sha, old = baseline(args.baseline)
    for maybe, pawns, loc in calls:
        before, after = list(maybe), list(maybe)
        old._prune(before, pawns, loc)
        current._prune(after, pawns, loc)
        if before != after:
            print(f"DIFFERENT results on a call of {len(pawns)} pawns", file=sys.stderr)
            return 1
    unsure = sum(any(len(maybe[p]) > 1 for p in pawns) for maybe, pawns, _ in calls)
    times: dict[str, list[float]] = {sha: [], "current": []}
    for _ in range(args.rounds):
        times[sha].append(per_call(old, calls))
        times["current"].append(per_call(current, calls))
    best = {name: min(t) * 1e6 for name, t in times.items()}
    print(f"{len(calls)} calls ({unsure} with some pawn of the color not certain), the same "
          f"results on both; best of {args.rounds} rounds, alternating:")
    for name, micro in best.items():
        print(f"  {name:<10} {micro:7.1f} us a call")
    print(f"  current / {sha}: {best['current'] / best[sha]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
