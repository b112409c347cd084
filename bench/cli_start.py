"""How long the command line takes: ``popcorn-companion score FILE`` from start to exit.

Run ``python bench/cli_start.py [--runs N] [--sheet FILE] [--baseline REV]``.

Each run is a new process, ``python -m companion score FILE`` with this interpreter, timed
from its start to its exit (wall clock), and the CPU time it used (user and system, from the
kernel's count for finished children, which a neighbour's load inflates less). Without
``--sheet`` the sheet is a small two-player Popcorn sheet written to a temporary file. One
untimed run per version comes first (it writes the bytecode caches), then ``--runs`` timed
runs of each.

With ``--baseline REV`` commit REV is checked out into a temporary git worktree and run with
the same interpreter (``PYTHONPATH`` and the working folder the worktree), side by side with
this checkout: the versions take turns run by run, the first to go alternating, so that a
neighbour's load falls on both alike; each run's output must be the same for both. A row of
``python -c pass`` gives the interpreter's own start for reference. The table gives each
version's median and minimum (wall clock and CPU) and the baseline's time over this
checkout's. Figures go to stdout; there is no pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to: its ``companion`` package is the current version."""

SHEET = {"players": [
    {"name": "Ana", "bucket": 20, "money": 12,
     "theaters": ["default_one_seat_tile", "default_two_seat_tile", "three_seat_red_grey_grey"],
     "movies": ["its_my_war", "the_volcano"],
     "guests": {"white": 5, "red": 6, "blue": 1, "green": 1, "yellow": 1},
     "audience": 5, "ad_tokens": ["red", "any", "white"], "awards": ["four_movies_same_color"]},
    {"name": "Bob", "bucket": 10, "money": 7,
     "theaters": ["default_one_seat_tile", "default_two_seat_tile", None],
     "movies": ["rosebud", "henrietta"], "guests": {"white": 5, "blue": 1},
     "audience": 3, "ad_tokens": [], "awards": ["guest_count"]},
]}
"""The sheet scored when ``--sheet`` is not given (the one of ``tests/cli/test_score_cli.py``)."""


@dataclass
class Version:
    """One thing to time: its name, its command, where it runs, and the times it took."""

    name: str
    argv: list[str]
    root: Path
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    outputs: set[str] = field(default_factory=set)

    def run(self, timed: bool) -> None:
        """Run the command once; record its wall-clock and CPU seconds when ``timed``."""
        env = {**os.environ, "PYTHONPATH": str(self.root)}
        before = _children_cpu()
        started = time.perf_counter()
        done = subprocess.run(self.argv, cwd=self.root, env=env, capture_output=True,
                              text=True, check=False)
        wall = time.perf_counter() - started
        cpu = _children_cpu() - before
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: exit {done.returncode}: {done.stderr.strip()}")
        self.outputs.add(done.stdout)
        if timed:
            self.wall.append(wall)
            self.cpu.append(cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Parse the options, time each version turn by turn, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each version (10)")
    parser.add_argument("--sheet", type=Path, help="the score sheet (a small one by default)")
    parser.add_argument("--baseline", metavar="REV", help="also time commit REV, side by side")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cli-start-") as tmp:
        sheet = args.sheet.resolve() if args.sheet else _write_sheet(Path(tmp))
        with _versions(args.baseline, sheet, Path(tmp)) as versions:
            for version in versions:
                version.run(timed=False)
            for number in range(args.runs):
                for version in versions[::1 if number % 2 == 0 else -1]:
                    version.run(timed=True)
            report(versions, sheet, args.runs)


def _write_sheet(folder: Path) -> Path:
    path = folder / "sheet.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    return path


@contextmanager
def _versions(baseline: str | None, sheet: Path, tmp: Path) -> Iterator[list[Version]]:
    """``python -c pass``, the baseline's ``score`` (checked out for the block) when asked
    for, and this checkout's."""
    score = [sys.executable, "-m", "companion", "score", str(sheet)]
    versions = [Version("python -c pass", [sys.executable, "-c", "pass"], REPO)]
    current = Version(f"current {_short('HEAD')}{' (changed)' if _dirty() else ''}", score, REPO)
    if baseline is None:
        yield [*versions, current]
        return
    worktree = tmp / "baseline"
    sha = _short(baseline)
    _git("worktree", "add", "--quiet", "--detach", str(worktree), sha)
    try:
        yield [*versions, Version(f"baseline {sha}", score, worktree), current]
    finally:
        _git("worktree", "remove", "--force", str(worktree))


def report(versions: list[Version], sheet: Path, runs: int) -> None:
    """Each version's median and minimum, wall clock and CPU, and the ratio to the current."""
    print(f"python -m companion score {sheet.name}: {runs} runs each, taking turns; "
          f"{sys.executable} (Python {sys.version.split()[0]}), load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'version':<28}{'median':>9}{'min':>9}{'cpu median':>12}{'cpu min':>9}")
    for version in versions:
        print(f"{version.name:<28}{_ms(statistics.median(version.wall))}{_ms(min(version.wall))}"
              f"{_ms(statistics.median(version.cpu), 12)}{_ms(min(version.cpu))}")
    scored = [v for v in versions if "companion" in v.argv]
    if len(scored) == 2:
        base, current = scored
        print(f"baseline / current: median {_ratio(base.wall, current.wall, statistics.median)},"
              f" min {_ratio(base.wall, current.wall, min)}; cpu median "
              f"{_ratio(base.cpu, current.cpu, statistics.median)}")
        same = base.outputs == current.outputs and len(current.outputs) == 1
        print("both printed the same scores" if same else "the outputs DIFFER")


def _ms(seconds: float, width: int = 9) -> str:
    return f"{seconds * 1e3:>{width - 3}.0f} ms"


def _ratio(base: list[float], current: list[float],
           pick: Callable[[list[float]], float]) -> str:
    return f"{pick(base) / pick(current):.2f}x"


def _short(rev: str) -> str:
    return _git("rev-parse", "--short", f"{rev}^{{commit}}")


def _dirty() -> bool:
    return bool(_git("status", "--porcelain", "--untracked-files=no", "--", "companion"))


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True, text=True)
    return done.stdout.strip()


if __name__ == "__main__":
    main()
