"""Engine speed: full random games per second and moves per second, on one core.

Run ``python bench/engine.py [--games N] [--players K] [--seed S]``. Each game is played from
setup to the end of the last round by the simulator (legal-move listing included), then
scored. Game ``i`` is seeded with ``"S:i"``, so a run always plays the same games.

With ``--baseline REV`` the same seeded games are also played by the engine of commit REV
(``git archive REV companion`` unpacked into a temporary folder), and the two versions are
compared side by side: each version runs in its own worker process, both pinned to the same
core, and they take turns batch by batch (the first to go alternates), so that a neighbour's
load or a warm-up falls on both alike. Each worker times only its own play and scoring. The
report gives both rates, their ratio, and how many games ended identically: same move
record and same final scores. With an engine that follows the same rules, every game must
match, which shows the faster engine is exact; a rule change between the two versions makes
the games that meet it differ (``--exact`` turns any difference into a failure).

Time is the CPU time of the process that plays (``time.process_time``), which a neighbour
running on the same core does not inflate the way it inflates wall-clock time; on an idle
machine the two agree. The process is pinned to one CPU core where the system allows it.
Figures go to stdout; there is no pass or fail here unless ``--exact`` is given.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to: its ``companion`` package is the current version."""

BATCH = 10
"""Games a worker plays before the other version takes its turn."""


def main() -> None:
    """Parse the options, run the games, print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Example: python bench/engine.py --baseline a54fc99 --games 300")
    parser.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=2026, help="game i is seeded 'SEED:i'")
    parser.add_argument("--baseline", metavar="REV",
                        help="also play the same games with the engine of this git commit")
    parser.add_argument("--exact", action="store_true",
                        help="with --baseline: exit 1 unless every game ended identically")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        serve(Path(args.worker))
        return
    pin_to_one_core()
    if args.baseline:
        compare(args)
    else:
        single(args)


def pin_to_one_core() -> None:
    """Run on one core (inherited by worker processes) where the system allows it."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


# -- playing (used by both the single run and the workers) ------------------------------------


@dataclass
class Tally:
    """What one version did with a set of games: time spent, moves made, how each ended."""

    seconds: float = 0.0
    moves: int = 0
    per_game: list[float] = field(default_factory=list)
    endings: dict[int, str] = field(default_factory=dict)
    """Game number -> digest of its move record and final scores."""

    def add(self, other: dict[str, Any]) -> None:
        """Fold in a worker's answer for one batch."""
        self.seconds += other["seconds"]
        self.moves += other["moves"]
        self.per_game += other["per_game"]
        self.endings.update({int(k): v for k, v in other["endings"].items()})


GUEST_NAMING = ("seat_action", "movie_action", "end_guest")
"""Kinds whose ``seat`` names the acting guest since record version 2; it is left out of the
compared record, so that an engine from before then plays the same games (both sides import
the engine's submodules, which every version has)."""


def _decision(move: Any) -> Any:
    """The move as both versions write it: without the acting guest's seat."""
    if move.kind in GUEST_NAMING and move.seat is not None:
        return dataclasses.replace(move, seat=None)
    return move


def play_games(numbers: list[int], players: int, seed: int) -> dict[str, Any]:
    """Play and score the seeded games with whichever ``companion`` is importable."""
    from companion.games.popcorn.engine.scoring import score_game
    from companion.games.popcorn.engine.simulator import play_random
    from companion.games.popcorn.engine.summary import final_positions
    from companion.games.popcorn.facts_file import load_catalog

    catalog = load_catalog()
    out: dict[str, Any] = {"seconds": 0.0, "moves": 0, "per_game": [], "endings": {}}
    for number in numbers:
        t0 = time.process_time()
        game = play_random(catalog, players, random.Random(f"{seed}:{number}"))
        score = score_game(catalog, final_positions(game.state))
        spent = time.process_time() - t0
        out["seconds"] += spent
        out["per_game"].append(spent)
        out["moves"] += len(game.moves)
        record = " ".join(str(_decision(m)) for m in game.moves)
        totals = " ".join(str(p.total) for p in score.players)
        out["endings"][number] = hashlib.sha256(f"{record}|{totals}".encode()).hexdigest()
    return out


def single(args: argparse.Namespace) -> None:
    """Play the games with the current engine only, in this process."""
    play_games([-1], args.players, args.seed)  # warm-up
    tally = Tally()
    tally.add(play_games(list(range(args.games)), args.players, args.seed))
    print(f"engine benchmark: {args.games} random {args.players}-player games on one core")
    print(f"  games per second: {args.games / tally.seconds:8.1f}")
    print(f"  moves per second: {tally.moves / tally.seconds:8.0f}"
          f"  ({tally.moves / args.games:.0f} moves a game)")
    print(f"  ms per game:      p50 {1000 * statistics.median(tally.per_game):.1f}"
          f"  max {1000 * max(tally.per_game):.1f}")


# -- comparing two versions ------------------------------------------------------------------


def serve(root: Path) -> None:
    """Worker loop: import ``companion`` from ``root``, then answer one JSON request a line."""
    sys.path.insert(0, str(root))
    import companion

    where = Path(companion.__file__).resolve()
    if root.resolve() not in where.parents:
        raise SystemExit(f"worker imported {where}, not the version under {root}")
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        answer = play_games(request["numbers"], request["players"], request["seed"])
        print(json.dumps(answer), flush=True)


class Worker:
    """One version's worker process, fed batches of game numbers."""

    def __init__(self, root: Path) -> None:
        env = dict(os.environ, PYTHONHASHSEED="0")  # the same string hashing in both
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root, env=env)
        self.answer()

    def play(self, numbers: list[int], players: int, seed: int) -> dict[str, Any]:
        """Play these games and return the worker's tally of them."""
        assert self.process.stdin is not None
        request = {"numbers": numbers, "players": players, "seed": seed}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self.answer()

    def answer(self) -> dict[str, Any]:
        """The worker's next line, or an error if it stopped."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"benchmark worker stopped (exit {self.process.wait()})")
        return json.loads(line)

    def close(self) -> None:
        """Let the worker finish."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def unpack(rev: str, into: Path) -> str:
    """Unpack the ``companion`` package of commit ``rev`` into ``into``; return its short id."""
    sha = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=REPO,
                         check=True, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", "--format=tar", sha, "companion"], cwd=REPO,
                             check=True, capture_output=True).stdout
    tar_path = into / "companion.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return sha


def compare(args: argparse.Namespace) -> None:
    """Play the same games with the baseline and the current engine, taking turns."""
    with tempfile.TemporaryDirectory(prefix="engine-baseline-") as tmp:
        sha = unpack(args.baseline, Path(tmp))
        workers = {"baseline": Worker(Path(tmp)), "current": Worker(REPO)}
        tallies = {name: Tally() for name in workers}
        for worker in workers.values():
            worker.play([-1], args.players, args.seed)  # warm-up
        numbers = list(range(args.games))
        for turn, start in enumerate(range(0, args.games, BATCH)):
            order = list(workers) if turn % 2 == 0 else list(reversed(workers))
            for name in order:
                batch = numbers[start:start + BATCH]
                tallies[name].add(workers[name].play(batch, args.players, args.seed))
        for worker in workers.values():
            worker.close()
    same = report(args, sha, tallies)
    if args.exact and same < args.games:
        raise SystemExit(1)


def report(args: argparse.Namespace, sha: str, tallies: dict[str, Tally]) -> int:
    """Print both versions side by side; return how many games ended identically."""
    base, cur = tallies["baseline"], tallies["current"]
    print(f"engine benchmark: {args.games} random {args.players}-player games on one core, "
          f"baseline {sha} and current tree, alternating batches of {BATCH}")
    print(f"  {'':18}{'baseline':>12}{'current':>12}{'ratio':>9}")
    rows = [
        ("games per second", args.games / base.seconds, args.games / cur.seconds, "{:12.1f}"),
        ("moves per second", base.moves / base.seconds, cur.moves / cur.seconds, "{:12.0f}"),
        ("ms per game, p50", 1000 * statistics.median(base.per_game),
         1000 * statistics.median(cur.per_game), "{:12.2f}"),
    ]
    for label, b, c, fmt in rows:
        ratio = b / c if label.startswith("ms") else c / b
        print(f"  {label:18}{fmt.format(b)}{fmt.format(c)}{ratio:8.2f}x")
    same = sum(1 for n, digest in cur.endings.items() if base.endings.get(n) == digest)
    print(f"  moves a game:     {base.moves / args.games:12.0f}{cur.moves / args.games:12.0f}")
    print(f"  identical games (move record and final scores): {same} of {args.games}")
    return same


if __name__ == "__main__":
    main()
