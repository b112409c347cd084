"""Alerts at a table that fills its bags by the handful: whole games, any pawn of the color.

Run ``python bench/any_pawn.py [--games N] [--players K] [--seed S] [--baseline REV]``.

Each game is a table on a hub (its real SQLite log, its tag reading), played from setup to
the end by random players who prefer acting to passing; "deal for us" deals the cards.
Every pawn drawn from a bag, and every pawn put into one, is tapped as a real table taps
it: the players filled their bags, exit zones and the reserve with whichever pawns of each
color came to hand, so a pawn never tapped so far is any such pawn of its color (from the
hub's side each is equally likely); a pawn already tapped is itself. A tap the hub answers
with an alert is counted, then the players do what the hub wanted (they tap the pawn it
expected) so that the game goes on.

The figures per version: games, taps, draws, relabels (taps the hub took for a look-alike)
and alerts. With ``--baseline REV`` the same games are also played on the hub of commit REV
(``git archive REV companion`` unpacked into a temporary folder, run in its own process),
and the two are printed side by side. There is no pass or fail: figures go to stdout.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to: its ``companion`` package is the current version."""
NAMES = ("Ana", "Bob", "Chloe", "Dev")
PASSIVE = frozenset({"end_turn", "end_guest", "decline", "take_back_ad"})
"""Decisions that give something up: taken only when nothing else is legal."""


def main() -> None:
    """Parse the options, play the games on each version, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1, help="game i is seeded 'SEED:i'")
    parser.add_argument("--baseline", metavar="REV", help="also play them on commit REV's hub")
    parser.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, args.worker)
        print(json.dumps(play_all(args.games, args.players, args.seed)))
        return
    rows = [("current", run(REPO, args))]
    if args.baseline:
        with tempfile.TemporaryDirectory(prefix="any-pawn-") as tmp:
            sha = unpack(args.baseline, Path(tmp))
            rows.insert(0, (f"baseline {sha}", run(Path(tmp), args)))
    print(f"{args.games} games of {args.players} players, seed {args.seed}; every pawn "
          "drawn or put into a bag is any pawn of its color")
    print(f"{'version':<20}{'taps':>8}{'draws':>8}{'relabels':>10}{'alerts':>8}"
          f"{'alerts/game':>13}{'games with an alert':>21}")
    for name, t in rows:
        print(f"{name:<20}{t['taps']:>8}{t['draws']:>8}{t['relabels']:>10}{t['alerts']:>8}"
              f"{t['alerts'] / args.games:>13.1f}{t['alerted_games']:>21}")


def run(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Play the games with the ``companion`` package under ``root``, in its own process."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(root),
                          "--games", str(args.games), "--players", str(args.players),
                          "--seed", str(args.seed)], cwd=root, check=True,
                         capture_output=True, text=True)
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


def play_all(games: int, players: int, seed: int) -> dict[str, int]:
    """Play every game on a fresh hub; the summed tally."""
    total = {"taps": 0, "draws": 0, "relabels": 0, "alerts": 0, "alerted_games": 0}
    for number in range(games):
        with tempfile.TemporaryDirectory(prefix="any-pawn-hub-") as tmp:
            tally = play_one(Path(tmp), players, random.Random(f"{seed}:{number}"))
        for key, value in tally.items():
            total[key] += value
        total["alerted_games"] += tally["alerts"] > 0
    return total


def play_one(tmp: Path, players: int, rng: random.Random) -> dict[str, int]:
    """One whole game on a hub that is not listening (taps go straight to the table)."""
    readers = [f"bag-{i + 1}" for i in range(players)]
    hub = new_hub(tmp / "hub.sqlite", readers)
    table, _, _ = hub.create_table(list(NAMES[:players]), readers, 0, "bench",
                                   rng.randrange(2**31))
    player = TablePlayers(table, rng)
    with hub.lock:
        while not table.state.is_over:
            player.step()
    hub.stop()
    return player.tally


def ours() -> Any:
    """The modules this bench uses, wherever the version under test keeps them: the
    package layout changed (each game became a package of its own), and a baseline commit
    may have the older one."""
    import types
    try:
        from companion.games.popcorn.engine import pawns
        from companion.kit.game import TagThing
    except ImportError:  # a baseline from before companion/games/popcorn/ and companion/kit/
        from companion.engine import pawns  # type: ignore[no-redef]
        from companion.games.base import TagThing  # type: ignore[no-redef]
    return types.SimpleNamespace(pawns=pawns, TagThing=TagThing)


def new_hub(db: Path, readers: list[str]) -> Any:
    """A hub on ``db`` that knows ``readers`` (a baseline's hub took the catalog first)."""
    from companion.hub.hub import Hub
    try:
        return Hub(db, readers=readers)
    except TypeError:  # a baseline from before the hub found its games by entry point
        from companion.cards import load_catalog  # type: ignore[import-not-found]
        return Hub(db, load_catalog(), readers=readers)  # type: ignore[call-arg]


class TablePlayers:
    """Random players who tap every pawn that leaves or enters a bag, any of its color."""

    def __init__(self, table: Any, rng: random.Random) -> None:
        self.table, self.rng = table, rng
        self.tapped: set[int] = set()
        self.tally = {"taps": 0, "draws": 0, "relabels": 0, "alerts": 0}

    def step(self) -> None:
        """Make one move: a tapped draw or addition, or a decision through the table."""
        state = self.table.state
        waiting = state.waiting_players() or [None]
        who = self.rng.choice(waiting)
        draws = [m for m in state.chance_outcomes(who) if m.kind == "draw_pawn"]
        if draws:
            self.tap(self.rng.choice(draws))
            return
        moves = state.legal_moves(who)
        move = self.rng.choice([m for m in moves if m.kind not in PASSIVE] or moves)
        if self.into_bag(move):
            self.tap(move)
        else:
            self.table.submit(move)

    def tap(self, move: Any) -> None:
        """Tap a pawn of the move's color on the reader of the bag it leaves or enters."""
        TagThing = ours().TagThing

        state = self.table.state
        bag = move.player if move.kind == "draw_pawn" or move.target is None else move.target
        pawn = self.any_of_color(move.pawn)
        events = self.table.count
        result = self.table.handle_tag(bag, TagThing("pawn", pawn), {"uid": f"pawn-{pawn}"})
        self.tally["taps"] += 1
        self.tally["draws"] += move.kind == "draw_pawn"
        if getattr(result, "code", None):  # an alert
            self.tally["alerts"] += 1
            result = self.table.handle_tag(bag, TagThing("pawn", move.pawn),
                                           {"uid": f"pawn-{move.pawn}"})
            assert not getattr(result, "code", None), result
            pawn = move.pawn
        elif self.table.store.events(self.table.id)[-1][2].get("relabel"):
            self.tally["relabels"] += 1
        assert self.table.count > events and state is not self.table.state
        self.tapped.add(pawn)

    def any_of_color(self, pawn: int) -> int:
        """The pawn a player's hand finds: itself once tapped, else any untapped one of its
        color resting in a bag, an exit zone, the reserve or the box."""
        state = self.table.state
        if pawn in self.tapped or not resting(state, pawn):
            return pawn
        color = state.pawn_color[pawn]
        return self.rng.choice([q for q, c in enumerate(state.pawn_color)
                                if c == color and q not in self.tapped and resting(state, q)])

    def into_bag(self, move: Any) -> bool:
        """Whether a decision puts a pawn into a bag (a pawn the players then tap)."""
        P = ours().pawns

        if move.pawn is None or move.kind == "place":
            return False
        trial = self.table.state.clone()
        trial.apply(move)
        return trial.loc[move.pawn] in {P.bag(q) for q in range(trial.n)}


def resting(state: Any, pawn: int) -> bool:
    """Whether a pawn lies in the box, the reserve, a bag or an exit zone, named by no
    pending step (the hub's own rule, written here again so that a baseline without it
    is played the same way)."""
    P = ours().pawns

    loc = state.loc[pawn]
    owner = None if P.is_seat(loc) else P.owner(loc)
    if loc not in ((P.BOX, P.RESERVE) if owner is None else (P.bag(owner), P.exit_zone(owner))):
        return False
    if any(task.pawn == pawn for task in state.tasks):
        return False
    return not any(show.left and show.left[2] == pawn for show in state.showings)


if __name__ == "__main__":
    main()
