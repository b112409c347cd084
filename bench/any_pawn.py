"""Alerts at a real table: whole games played by hands that never read a pawn's id.

Run ``python bench/any_pawn.py [--games N] [--players K] [--seed S] [--mistakes R]
[--baseline REV] [--mats [--hover R] [--flicker R] [--scans N]]``.

Each game is a table on a hub (its real SQLite log, its tag reading), played from setup to
the end by the physical table of ``bench/physical_table.py``: its own truth of where each
pawn is; every draw a random pawn out of the real bag, tapped; every guest put into a bag any
pawn of its color from where the move takes it, tapped; every other move entered as the hub
lists it, with hands that take any look-alike out of the place it leaves. An alert on such a
legal play is a **false alert** (the table then puts the pawn back and takes another);
"deal for us" deals the cards.

With ``--mishaps R`` (default 0.01), that share of actions first slips unseen (a draw whose
tap was lost, a guest dropped back into its bag); the table then audits that bag at once,
accepts the audit and corrects by hand what it could not mend, so games have corrections;
each finished game's exported record is replayed and checked against the hub's scores.

With ``--mistakes R`` (default 0.05), that share of actions first injects a mistake a table
really makes (a guest from another player's seat tapped in a draw, a pawn tapped twice, a
draw beyond the audience, a draw during Buying, a pawn from another player's bag, an unknown
tag), and the figures say, per kind, how many the hub **caught** (one alert, whose claim
about the pawn's place is true), how many it **explained** as a legal play (some arrangement
of the pawns it knows allows it: no hub could tell), and how many it got **wrong** (an alert
whose claim is false, or more than one). An oracle that keeps every arrangement the table's
moves and taps allow (``physical_table.Oracle``) checks both verdicts: **missed** counts the
mistakes the hub explained that no arrangement explains, **refused** those it alerted on
although one does.

With ``--mats``, a cinema mat lies under each cinema (``bench/table_mats.py``): the hands
seat the drawn guests on their theater's zone, send them to the exit zone and carry the
leaving ones there, and move on the mats what the rules moved (the exit zone poured into the
bag); each mat scans in modeled time through the firmware's own debounce
(``firmware/zones.py``), with hovering hands (``--hover R``, default 0.05 per scan of a mat)
and flickering tags (``--flicker R``, default 0.01 per scan of a tag), each action's window
lasting at least ``--scans N`` scans (default 6). The figures then add the hands' actions on
the mats, the noise injected and absorbed, the zone states the noise changed, and the moves
and alerts that came from noise (goal: 0); a stray move or a false alert on a mat is
printed with what it was.

The figures per version: games finished, actions, taps, moves entered by color among
look-alikes, false alerts (by code, and games with one), and the mistakes. With
``--baseline REV`` the same games are also played on the hub of commit REV (``git archive
REV companion`` unpacked into a temporary folder, run in its own process), and the two are
printed side by side. There is no pass or fail: figures go to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from physical_table import MISTAKES, PhysicalTable, TableInProcess, Tally  # noqa: E402

"""The checkout this script belongs to: its ``companion`` package is the current version."""
NAMES = ("Ana", "Bob", "Chloe", "Dev")


def main() -> None:
    """Parse the options, play the games on each version, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1, help="game i is seeded 'SEED:i'")
    parser.add_argument("--mistakes", type=float, default=0.05,
                        help="the share of actions that inject a mistake first")
    parser.add_argument("--mishaps", type=float, default=0.01,
                        help="the share of actions that slip unseen first (then an audit)")
    parser.add_argument("--baseline", metavar="REV", help="also play them on commit REV's hub")
    parser.add_argument("--mats", action="store_true",
                        help="a cinema mat under each cinema, read through the firmware")
    parser.add_argument("--hover", type=float, default=0.05,
                        help="with --mats: the chance per scan of a mat of a hovering hand")
    parser.add_argument("--flicker", type=float, default=0.01,
                        help="with --mats: the chance per scan of each tag that it flickers")
    parser.add_argument("--scans", type=int, default=6,
                        help="with --mats: the scans each action's window lasts at least")
    parser.add_argument("--overlap", action="store_true",
                        help="with --mats: let noise events overlap (a tag hidden 3 scans "
                             "in a row or more)")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mats and args.baseline:
        parser.error("--mats plays the current hub only")
    if args.worker:
        sys.path.insert(0, args.worker)
        print(json.dumps(play_all(args.games, args.players, args.seed, args.mistakes,
                                  args.mishaps, noise_of(args))))
        return
    rows = [("current", run(REPO, args))]
    if args.baseline:
        with tempfile.TemporaryDirectory(prefix="any-pawn-") as tmp:
            sha = unpack(args.baseline, Path(tmp))
            rows.insert(0, (f"baseline {sha}", run(Path(tmp), args)))
    report(rows, args)


def noise_of(args: argparse.Namespace) -> Any:
    """The mats' noise the options ask for, or None without ``--mats``."""
    if not args.mats:
        return None
    from table_mats import Noise
    return Noise(args.hover, args.flicker, args.scans, args.overlap)


def report_mats(t: dict[str, Any], args: argparse.Namespace) -> None:
    """Print the figures of the cinema mats (``--mats``)."""
    hands = ", ".join(f"{k} {n}" for k, n in sorted(t["mat_actions"].items()))
    print(f"\ncinema mats, through firmware/zones.py: {args.games} games; hand actions on "
          f"the mats {sum(t['mat_actions'].values())} ({hands}), seating moves entered on the "
          f"tablet {t['mat_tablet']}, pawns moved after the rules {t['mat_tidy']}; "
          f"{t['mat_scans']} scans of every mat, {t['mat_reports']} zone states sent, "
          f"{t['mat_ms'] / max(1, t['mat_scans'] * args.players):.1f} ms a full scan "
          "(modeled)")
    noise = t["noise"]
    kinds = ", ".join(f"{k} {noise.get(k, 0)} ({t['noise_absorbed'].get(k, 0)} absorbed)"
                      for k in ("hover", "passed", "flicker"))
    print(f"  noise events injected {sum(noise.values())} (hover {args.hover:g}, flicker "
          f"{args.flicker:g}{', overlapping' if args.overlap else ''}): {kinds}")
    print(f"  zone states the noise changed {t['noise_reports']} (a hand's change split "
          f"across scans or reordered), of which showing a tag no hand moved "
          f"{t['noise_phantoms']}")
    alerts = ", ".join(f"{c} {n}" for c, n in sorted(t["noise_alerts"].items())) or "none"
    print(f"  MOVES FROM NOISE {t['noise_moves']} (goal 0); alerts from noise: "
          f"{alerts}; moves no hand meant without noise {t['stray_moves']}; "
          f"false alerts {t['false_alerts']}; records replaying to the hub's scores "
          f"{t['replayed']} of {t['finished']}")
    kinds_found: dict[str, list[str]] = {}
    for finding in t["mat_findings"]:
        kind = ": ".join(finding.split(": ")[:2])
        phase = finding.rsplit("(state: ", 1)[-1].rstrip(")") if "(state: " in finding else ""
        kinds_found.setdefault(f"{kind}, {phase or 'after a draw'}", []).append(finding)
    for kind, found in sorted(kinds_found.items()):
        print(f"  FOUND (not noise) {len(found)} times: {kind}; the first: {found[0]}")


def report(rows: list[tuple[str, dict[str, Any]]], args: argparse.Namespace) -> None:
    """Print each version's figures, then its mistakes by kind."""
    print(f"{args.games} games of {args.players} players, seed {args.seed}; hands take any "
          f"look-alike; mistakes injected at {args.mistakes:.0%} of actions, unseen slips "
          f"(each found by an audit) at {args.mishaps:.0%}")
    print(f"{'version':<18}{'finished':>9}{'actions':>9}{'taps':>7}{'by color':>10}"
          f"{'false alerts':>14}{'per game':>10}{'games with one':>16}")
    for name, t in rows:
        print(f"{name:<18}{t['finished']:>9}{t['actions']:>9}{t['taps']:>7}"
              f"{t['look_alike_moves']:>10}{t['false_alerts']:>14}"
              f"{t['false_alerts'] / args.games:>10.1f}{t['alerted_games']:>16}")
    print("\nthe hub's tag reading per tap (the game's read_tag, in this process):")
    for name, t in rows:
        read = t["read_tag"]
        print(f"  {name:<18} p50 {read['p50'] * 1e3:.3f} ms, p99 {read['p99'] * 1e3:.3f} ms, "
              f"max {read['max'] * 1e3:.3f} ms")
    for name, t in rows:
        codes = ", ".join(f"{c} {n}" for c, n in sorted(t["false_codes"].items())) or "none"
        print(f"\n{name}: false alerts by code: {codes}; guests asked where from "
              f"{t.get('asked', 0)}, first guess wrong {t.get('rechosen', 0)}")
        print(f"  {'mistake':<16}{'injected':>9}{'caught':>8}{'explained':>11}{'wrong':>7}"
              f"{'missed':>8}{'refused':>9}")
        for kind in MISTAKES:
            cells = [t[k].get(kind, 0) for k in ("injected", "caught", "explained", "wrong",
                                                 "missed", "refused")]
            print(f"  {kind:<16}" + "".join(f"{c:>{w}}" for c, w in zip(
                cells, (9, 8, 11, 7, 8, 9), strict=True)))
        print(f"  the oracle kept at most {t['worlds']:,} arrangements of one color")
        slips = ", ".join(f"{k} {n}" for k, n in sorted(t["mishaps"].items())) or "none"
        print(f"  unseen slips, each audited: {slips}; corrections by hand after the audits "
              f"{t['corrections']}; finished games whose record replays to the hub's scores "
              f"{t['replayed']} of {t['finished']} (no record: {t['no_record']})")
        for broke in t["broke"]:
            print(f"  a game broke off: {broke}")
    if args.mats:
        report_mats(rows[-1][1], args)


def run(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Play the games with the ``companion`` package under ``root``, in its own process."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(root),
                          "--games", str(args.games), "--players", str(args.players),
                          "--seed", str(args.seed), "--mistakes", str(args.mistakes),
                          "--mishaps", str(args.mishaps), "--hover", str(args.hover),
                          "--flicker", str(args.flicker), "--scans", str(args.scans),
                          *(["--mats"] if args.mats else []),
                          *(["--overlap"] if args.overlap else [])],
                         cwd=root, check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"} if args.mats else None)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def unpack(rev: str, into: Path) -> str:
    """Unpack the ``companion`` package of commit ``rev`` into ``into``; return its short id."""
    sha = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=REPO,
                         check=True, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", "--format=tar", sha, "companion"], cwd=REPO,
                             check=True, capture_output=True).stdout
    (into / "companion.tar").write_bytes(archive)
    with tarfile.open(into / "companion.tar") as tar:
        tar.extractall(into, filter="data")
    return sha


def play_all(games: int, players: int, seed: int, mistakes: float,
             mishaps: float, noise: Any = None) -> dict[str, Any]:
    """Play every game on a fresh hub (with mats when ``noise`` is given); the summed
    tally, as JSON."""
    total = Tally()
    alerted, times = 0, []
    for number in range(games):
        with tempfile.TemporaryDirectory(prefix="any-pawn-hub-") as tmp:
            tally = play_one(Path(tmp), players, random.Random(f"{seed}:{number}"), mistakes,
                             mishaps, times, noise)
        alerted += tally.false_alerts > 0
        total.add(tally)
    out = {name: (dict(v) if isinstance(v, Counter) else v) for name, v in vars(total).items()}
    times.sort()
    read = {"p50": times[len(times) // 2], "p99": times[int(len(times) * 0.99)],
            "max": times[-1]} if times else {}
    return {**out, "alerted_games": alerted, "read_tag": read}


def play_one(tmp: Path, players: int, rng: random.Random, mistakes: float, mishaps: float,
             times: list[float], noise: Any = None) -> Tally:
    """One whole game on a hub that is not listening (taps and mat states go straight to
    the table); with ``noise``, a mat under each cinema (``table_mats.Mats``)."""
    readers = [f"bag-{i + 1}" for i in range(players)]
    mats = [f"mat-{i + 1}" for i in range(players)] if noise is not None else []
    hub = new_hub(tmp / "hub.sqlite", readers, mats)
    table, _, _ = hub.create_table(list(NAMES[:players]), readers, 0, "bench",
                                   rng.randrange(2**31), **({"mats": mats} if mats else {}))
    pawns = range(len(table.state.pawn_color))
    uids = {p: f"04{p:012x}" if mats else f"pawn-{p}" for p in pawns}  # a mat sends hex
    piece = ours().pawn_piece
    colors = table.state.pawn_color
    at_table = TableInProcess(hub, table, uids, lambda p: piece(p, colors[p]))
    timed(table.game, times)
    on_mats = None
    if noise is not None:
        from table_mats import Mats
        on_mats = Mats(players, uids, random.Random(rng.random()), noise)
    try:
        return PhysicalTable(at_table, rng, mistakes, ours().pawns, mishaps, on_mats).play()
    finally:
        hub.stop()


def timed(game: Any, times: list[float]) -> None:
    """Time the game's tag reading (its pieces part's ``read``, or an older hub's
    ``read_tag``) for one table: ``times`` gets seconds per tap."""
    owner = getattr(game, "pieces", None) or game
    name = "read" if owner is not game else "read_tag"
    original = getattr(owner, name)

    def read(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            times.append(time.perf_counter() - start)

    setattr(owner, name, read)


def ours() -> Any:
    """The modules this bench uses, wherever the version under test keeps them: the
    package layout changed (each game became a package of its own), and a baseline commit
    may have the older one."""
    import types
    try:
        from companion.games.popcorn.engine import pawns
    except ImportError:  # a baseline from before companion/games/popcorn/ and companion/kit/
        from companion.engine import pawns  # type: ignore[no-redef]
    try:
        from companion.kit.game import Piece

        def pawn_piece(pawn: int, color: str) -> Any:
            return Piece("pawn", pawn, color, "popcorn")
    except ImportError:  # a baseline from before pieces had values: (kind, id) only
        try:
            from companion.kit.game import TagThing  # type: ignore[attr-defined]
        except ImportError:
            from companion.games.base import TagThing  # type: ignore[no-redef]

        def pawn_piece(pawn: int, color: str) -> Any:
            return TagThing("pawn", pawn)
    return types.SimpleNamespace(pawns=pawns, pawn_piece=pawn_piece)


def new_hub(db: Path, readers: list[str], mats: list[str] | None = None) -> Any:
    """A hub on ``db`` that knows ``readers`` and ``mats`` (a baseline's hub took the catalog
    first, and knew no mats)."""
    from companion.hub.hub import Hub
    if mats:
        return Hub(db, readers=readers, mats=mats)
    try:
        return Hub(db, readers=readers)
    except TypeError:  # a baseline from before the hub found its games by entry point
        from companion.cards import load_catalog  # type: ignore[import-not-found]
        return Hub(db, load_catalog(), readers=readers)  # type: ignore[call-arg]


if __name__ == "__main__":
    main()
