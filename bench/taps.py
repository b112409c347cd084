"""What one game costs the table in taps: 4-player games entered through the real screens,
each twice: on the tablet alone, then with every player's own moves on their phone.

Run ``python bench/taps.py`` (about twenty minutes for both games, both ways). The hub runs
as ``serve`` in its own process with four virtual bag readers on pseudo-terminals; Debian's
Chromium shows the table screen at 1280x800 and the four phones at 390x844. Every pawn
drawn or put in a bag is tapped on a reader, every card too when the hub knows card tags
(``--no-cards`` types them into the search boxes instead), and everything else is clicks
and keystrokes on the tablet and the phones (``bench/tap_driver.py`` says how each move is
entered). A button out of sight costs a scroll, on a phone as on the tablet. At the end the
hub's final scores must equal those of ``replay`` of the game.

Each game is counted three ways (``--ways`` plays one of the two only):

1. **everything on the tablet**: the players' own moves too (a phone only keeps or reports
   an award card, which the tablet never shows);
2. **with phones**: each player taps their own moves on their phone (Seat and play, Take
   the gains, the other slot of a card they bought, their ads, their end of turn...); the
   tablet takes only the shared steps and what a phone does not offer (cards typed by
   hand, a market card tapped without card tags, drawn guests seated by hand where the
   hub's placement is not the record's): **the tablet's share** and **the phones' share**,
   by player;
3. **the sum** of the two shares: what the whole table tapped with phones.

The games:

- **(a)** ``--record`` (``docs/examples/game-4p.jsonl``) entered exactly as recorded. Its
  choices are random: a table that never takes a suggestion.
- **(b)** a 4-player game whose players accept every suggestion the screens offer: played
  by the ``advisor`` policy (its seats are the advisor's, which the tablet shows with hints
  on; every other choice is eager), from ``--seed``. Its table lets the advisor play on
  after a draw (``--play-on off``: not).

With **cinema mats** (``--mats``, issue 40), a virtual mat lies under each player's board
(``mat-1`` to ``mat-4``, on pseudo-terminals beside the bag readers, trusted by ``serve
--mat`` and bound by the table), and the hands make the record's ``place``, ``to_exit`` and
``end_guest`` moves on it: a drawn guest set down on its theater's zone or on the exit zone,
a seated guest carried to the exit zone; the tablet is not touched for them. After every
step the hands move on the mats what the rules moved, as ``demo --mats`` does (the hub sees
it as no news). A ``place`` whose seat the mat's rule would not pick (a guest drawn to a
seat: the mat gives the first seat of that theater it may take, a free one first) is
entered on the tablet and counted; every other move is entered as without mats
(``bench/tap_driver.py`` says more). Each game's figures then add the seating moves made on
the mats, the mat reports sent and the alerts the hub raised, which must be none (a mat
alert is a driver bug or a finding about the mats). Goals with mats (issue 40), tablet
interactions with everything else on the tablet: (a) at most 100, (b) at most 10.

``--sample N`` enters N random games for (a) and N advisor games for (b) (seeds 1 to N)
instead. Each game's figures are printed as it ends, then a summary table of every game
with each goal and "within" or "ABOVE". Goals (issue 24), tablet interactions: (a) at most
220 on the tablet alone, (b) at most 40 on the tablet alone and at most 15 as the tablet's
share with phones. The exit status is 1 when a goal is missed (with mats, also when the
hub raised an alert).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright
from tap_driver import TableDriver
from tap_room import TapRoom
from tap_tally import Tally

from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import Move, final_positions, score_game
from companion.games.popcorn.engine.simulator import play_random
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import Record, loads_record, replay
from companion.games.popcorn.remote import RemoteTable
from companion.games.popcorn.scoresheet import score_to_json
from companion.kit.http import call

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "docs" / "examples" / "game-4p.jsonl"
CHROMIUM = "/usr/bin/chromium"
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GOALS = {"a": 220, "b": 40}
"""Issue 24's goals: tablet interactions of a game (a) entered as recorded, (b) advised,
everything on the tablet."""
MAT_GOALS = {"a": 100, "b": 10}
"""Issue 40's goals: tablet interactions of a game (a) entered as recorded, (b) advised, with
the seating moves on the cinema mats and everything else on the tablet."""
PHONE_GOALS = {"b": 15}
"""Issue 24's goal for the tablet's share of an advised game played with phones."""
WAYS = ("tablet", "phones")
"""The ways a game is entered: everything on the tablet; each player's own moves on their
phone."""


def recorded_game(path: Path) -> Record:
    """Figure (a)'s game: a record file."""
    return loads_record(path.read_text(encoding="utf-8"))


def simulated_game(seed: int) -> Record:
    """A figure (a) game of ``--sample``: a random 4-player game (``simulate``'s policy), a
    table that never takes a suggestion."""
    game = play_random(load_catalog(), 4, random.Random(f"taps-sample:{seed}"),
                       names=["Ana", "Bob", "Chloe", "Dev"])
    return Record(game.names, game.first_player, game.moves)


def advised_game(seed: int) -> Record:
    """Figure (b)'s game: every seat as the advisor places it, every other choice eager."""
    game = play_advised(load_catalog(), 4, random.Random(f"taps:{seed}"),
                        names=["Ana", "Bob", "Chloe", "Dev"])
    return Record(game.names, game.first_player, game.moves)


def play(browser: Browser, record: Record, cards: bool, hints: bool, tmp: Path,
         shots: Path | None = None, check: bool = True, any_pawn: bool = False,
         phones: bool = False, mats: bool = False, play_on: bool = False) -> Tally:
    """Enter ``record`` at a fresh table, with each player's own moves on their phone if
    ``phones`` (else everything on the tablet), with the seating moves on cinema mats if
    ``mats``, the advisor playing on after a draw if ``play_on``; check its scores (unless
    ``check`` is false: a game cut short has none); return what it cost, with the game as
    the hub recorded it."""
    catalog = load_catalog()
    room = TapRoom(tmp, catalog, cards, mats)
    table = room.table(list(record.names), record.first_player, hints, play_on)
    pages: list[Any] = []
    try:
        tablet = open_tablet(browser, room, table)
        pages.append(tablet)
        pages += [open_phone(browser, room, table, seat) for seat in range(len(record.names))]
        tally = Tally(mats=mats)
        driver = TableDriver(room, table, tablet, pages[1:], tally, with_phones=phones,
                             with_mats=mats)
        driver.shots, driver.any_pawn = shots, any_pawn
        driver.play(list(record.moves))
        tally.alerts, tally.relabels = driver.alerts, driver.relabels
        if mats:
            tally.mat_reports = room.mat_reports()
            tally.hub_alerts = [a.get("code", "?") for a in room.alerts(table.id)]
            for alert in driver.mat_alerts:
                print(f"    a mat alert: {alert}", flush=True)
        if check:
            check_scores(table, catalog, record)
        tally.cards, tally.entered = room.cards, table.get("/record")
        return tally
    except BaseException:
        dump = tmp / "entered.jsonl"
        dump.write_text(table.get("/record"), encoding="utf-8")
        print(f"the game as the hub has it: {dump}", file=sys.stderr)
        room.close()
        tail = room.server.log_path.read_text(errors="replace").splitlines()[-60:]
        print("the hub's log ends with:", *tail, sep="\n", file=sys.stderr)
        raise
    finally:
        room.close()
        for page in pages:  # each device has a browser context of its own
            page.context.close()


def open_tablet(browser: Browser, room: TapRoom, table: RemoteTable) -> Any:
    """The table screen, with the table's PIN known to the device (as after setup)."""
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{room.server.base}/setup")
    page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                  [table.id, table.info["pin"]])
    page.goto(f"{room.server.base}/table/{table.id}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=table.id)
    return page


def open_phone(browser: Browser, room: TapRoom, table: RemoteTable, seat: int) -> Any:
    """A player's phone, joined by its link."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{room.server.base}/phone/{table.id}/{seat}#token={table.info['tokens'][seat]}")
    page.get_by_test_id("phone-name").wait_for()
    return page


def check_scores(table: RemoteTable, catalog: Any, record: Record) -> None:
    """The hub's final scores are those of ``replay`` of the game entered."""
    expected = score_to_json(score_game(catalog, final_positions(replay(catalog, record))))
    got = call(f"{table.base}/api/tables/{table.id}/scores")
    if got != expected:
        raise SystemExit(f"the hub's scores differ from replay's:\n{got}\n{expected}")


def main() -> int:
    """Parse the options, play the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["a", "b"], nargs="+", default=["a", "b"])
    parser.add_argument("--record", type=Path, default=RECORD, help="figure (a)'s game")
    parser.add_argument("--seed", type=int, default=1, help="figure (b)'s game")
    parser.add_argument("--ways", choices=["both", "tablet", "phones"], default="both",
                        help="enter each game on the tablet alone, with phones, or both "
                        "(the default: the three figures)")
    parser.add_argument("--no-cards", action="store_true",
                        help="no card tags: cards are typed into the search boxes")
    parser.add_argument("--play-on", choices=["on", "off"], default="on",
                        help="for (b): the table lets the advisor play on after a draw (a "
                        "table that takes every suggestion turns it on)")
    parser.add_argument("--hints", choices=["on", "off"], default="on",
                        help="the table's seating hints for figure (a) ((b) needs them on)")
    parser.add_argument("--shots", action="store_true",
                        help="save the tablet's screen as each round starts, in "
                        "artifacts/screenshots/taps-<game>-<way>/")
    parser.add_argument("--any-pawn", action="store_true",
                        help="tap any pawn of the right color never tapped so far, as a table "
                        "that filled its bags by the handful does; counts the hub's alerts")
    parser.add_argument("--mats", action="store_true",
                        help="a cinema mat under each player's board: the hands seat, send "
                        "out and end the guests on it (issue 40's goals)")
    parser.add_argument("--keep", type=Path, help="keep the hub's files here (for a failure)")
    parser.add_argument("--trace", type=Path,
                        help="write each step here, one JSON line each: its round, the "
                        "interactions it cost and the record's moves it entered")
    parser.add_argument("--moves", type=int, default=0,
                        help="stop after this many moves (the scores go unchecked)")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="instead of --record and --seed: N simulated games for (a) and N "
                        "advisor games for (b), seeds 1 to N")
    args = parser.parse_args()
    if args.mats and args.any_pawn:
        parser.error("--mats moves pawns by their own tags: no --any-pawn")
    logging.basicConfig(level=logging.ERROR)
    ways = WAYS if args.ways == "both" else (args.ways,)
    figures: list[Figures] = []
    with sync_playwright() as pw, tempfile.TemporaryDirectory(prefix="popcorn-taps-") as temp:
        tmp = args.keep or temp
        if args.keep and args.keep.exists() and any(args.keep.iterdir()):
            parser.error(f"{args.keep} is not empty (another hub may still use its readers)")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for game in chosen_games(args):
            if args.moves:
                game.record = Record(game.record.names, game.record.first_player,
                                     game.record.moves[:args.moves])
            figures.append(count_game(browser, game, ways, args, Path(tmp)))
        browser.close()
    print(summary(figures), flush=True)
    return 0 if all(f.within() for f in figures) else 1


@dataclass
class Game:
    """A game to enter: its figure ("a" or "b"), what it is, its record, the table's hints
    and a short name for its files."""

    figure: str
    label: str
    record: Record
    hints: bool
    key: str
    play_on: bool = False
    """Whether the table lets the advisor play on after a draw (``--play-on``, for (b))."""


@dataclass
class Figures:
    """What one game cost, each way it was entered: ``tablet`` the tablet's interactions
    with everything on the tablet; ``shared`` and ``phones`` the tablet's and the phones'
    with phones (None: that way was not played)."""

    game: Game
    tablet: int | None = None
    shared: int | None = None
    phones: int | None = None
    mats: bool = False
    """Whether the seating moves were made on cinema mats (issue 40's goals)."""
    alerts: int = 0
    """With mats: the alerts the hub raised (there must be none)."""
    on_mats: int = 0
    """With mats: the record's moves made on the mats."""
    reports: int = 0
    """With mats: the mats' reports."""

    def goal(self) -> int:
        """The goal of the tablet's figure: issue 40's with mats, else issue 24's."""
        return (MAT_GOALS if self.mats else GOALS)[self.game.figure]

    def goals(self) -> list[tuple[str, int, int]]:
        """Each figure with a goal, as ``(what, figure, goal)``."""
        out = []
        if self.tablet is not None:
            out.append(("everything else on the tablet, with mats" if self.mats else
                        "everything on the tablet", self.tablet, self.goal()))
        if self.shared is not None and self.game.figure in PHONE_GOALS:
            out.append(("with phones, the tablet's share", self.shared,
                        PHONE_GOALS[self.game.figure]))
        return out

    def within(self) -> bool:
        """Whether every figure is within its goal (and, with mats, no alert came)."""
        return all(n <= goal for _, n, goal in self.goals()) and not self.alerts


def write_trace(path: Path, name: str, tally: Tally) -> None:
    """Append the steps of one game entered one way to ``path`` (JSON lines)."""
    with path.open("a", encoding="utf-8") as out:
        for step in tally.steps:
            out.write(json.dumps({"game": name, **step}) + "\n")


def count_game(browser: Browser, game: Game, ways: tuple[str, ...],
               args: argparse.Namespace, tmp: Path) -> Figures:
    """Enter ``game`` each of ``ways``; print its figures and goals; return them."""
    record = game.record
    out = Figures(game, mats=args.mats)
    head = ""
    for way in ways:
        shots = (ROOT / "artifacts" / "screenshots" / f"taps-{game.key}-{way}"
                 if args.shots else None)
        tally = play(browser, record, not args.no_cards, game.hints, tmp / f"{game.key}-{way}",
                     shots, check=not args.moves, any_pawn=args.any_pawn,
                     phones=way == "phones", mats=args.mats, play_on=game.play_on)
        if not head:
            head = (f"({game.figure}) {game.label}: {len(record.moves)} moves, "
                    f"{record_rounds(record)} rounds, hints {'on' if game.hints else 'off'}, "
                    f"the advisor plays on {'on' if game.play_on else 'off'}, "
                    f"card tags {'on' if tally.cards else 'off'}")
            print(head, flush=True)
        print(tally.report("", list(record.names), phones=way == "phones"), flush=True)
        if args.trace:
            write_trace(args.trace, f"{game.key}-{way}", tally)
        if args.any_pawn:
            print(f"    any pawn of the color: {tally.relabels} taps of another pawn than "
                  f"the hub placed there taken as the move, {tally.alerts} answered with "
                  "an alert", flush=True)
        if args.mats:
            out.alerts += len(tally.hub_alerts)
            out.on_mats += sum(tally.mat_moves.values())
            out.reports += tally.mat_reports
        if way == "phones":
            out.shared, out.phones = tally.total("tablet"), tally.total("phone")
        else:
            out.tablet = tally.total("tablet")
    for what, n, goal in out.goals():
        print(f"  goal: {what} at most {goal}: {verdict(n, goal)}", flush=True)
    return out


def verdict(n: int, goal: int) -> str:
    """"within" or "ABOVE" the goal."""
    return "within" if n <= goal else "ABOVE"


def summary(figures: list[Figures]) -> str:
    """The table of every game's figures, each goal and within or ABOVE."""
    def cell(n: int | None, goal: int | None) -> str:
        if n is None:
            return "-"
        return f"{n} ({goal}, {verdict(n, goal)})" if goal is not None else str(n)

    mats = any(f.mats for f in figures)
    rows = [("game", "tablet, mats (goal)" if mats else "tablet only (goal)",
             "with phones: tablet (goal)", "phones", "sum",
             *(("moves on mats", "mat reports", "alerts") if mats else ()))]
    for f in figures:
        both = None if f.shared is None or f.phones is None else f.shared + f.phones
        rows.append((f"({f.game.figure}) {f.game.label}",
                     cell(f.tablet, f.goal()),
                     cell(f.shared, PHONE_GOALS.get(f.game.figure)),
                     cell(f.phones, None), cell(both, None),
                     *((str(f.on_mats), str(f.reports), str(f.alerts)) if mats else ())))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["", "summary: interactions by device (goal, verdict)"
             + (", with cinema mats" if mats else "")]
    for row in rows:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                     .rstrip())
    missed = sum(not f.within() for f in figures)
    lines.append(f"  {missed} game(s) with a goal missed" if missed else "  every goal held")
    return "\n".join(lines)


def chosen_games(args: argparse.Namespace) -> list[Game]:
    """The games to enter: the record and the advisor game of ``--seed``, or with
    ``--sample N`` N simulated and N advisor games."""
    games: list[Game] = []
    seeds = range(1, args.sample + 1) if args.sample else [args.seed]
    for name in args.game:
        for seed in seeds:
            if name == "a" and args.sample:
                games.append(Game("a", f"simulated game, seed {seed}, entered as recorded",
                                  simulated_game(seed), args.hints == "on", f"a{seed}"))
            elif name == "a":
                games.append(Game("a", f"{args.record.name} entered as recorded",
                                  recorded_game(args.record), args.hints == "on", "a"))
                break
            else:
                games.append(Game("b", f"advisor policy game, seed {seed}, every suggestion "
                                  "taken", advised_game(seed), True, f"b{seed}",
                                  args.play_on == "on"))
    return games


def record_rounds(record: Record) -> int:
    """How many rounds the game lasted."""
    state = replay(load_catalog(), record)
    return state.round


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Move", "advised_game", "play", "recorded_game"]
