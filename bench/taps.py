"""What one game costs the table in taps: two 4-player games entered through the real screens.

Run ``python bench/taps.py`` (about ten minutes for both games). The hub runs as ``serve``
in its own process with four virtual bag readers on pseudo-terminals; Debian's Chromium
shows the table screen at 1280x800 and the four phones at 390x844. Every pawn drawn or put
in a bag is tapped on a reader, every card too when the hub knows card tags (``--no-cards``
types them into the search boxes instead), and everything else is clicks and keystrokes on
the tablet and the phones (``bench/tap_driver.py`` says how each move is entered). At the
end the hub's final scores must equal those of ``replay`` of the game.

- **(a)** ``docs/examples/game-4p.jsonl`` entered exactly as recorded. Its choices are
  random: a table that never takes a suggestion.
- **(b)** a 4-player game whose players accept every suggestion the tablet offers: played
  by the ``advisor`` policy (its seats are the advisor's, which the tablet shows with hints
  on; every other choice is eager), from ``--seed``.

``--sample N`` enters N random games for (a) and N advisor games for (b) (seeds 1 to N)
instead. Goals (issue 24): (a) at most 220 tablet interactions, (b) at most 40.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
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
"""Issue 24's goals: tablet interactions of a game (a) entered as recorded, (b) advised."""


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
         shots: Path | None = None, check: bool = True, any_pawn: bool = False) -> Tally:
    """Enter ``record`` at a fresh table; check its scores (unless ``check`` is false: a
    game cut short has none); return what it cost, with the game as the hub recorded it."""
    catalog = load_catalog()
    room = TapRoom(tmp, catalog, cards)
    table = room.table(list(record.names), record.first_player, hints)
    try:
        tablet = open_tablet(browser, room, table)
        phones = [open_phone(browser, room, table, seat) for seat in range(len(record.names))]
        tally = Tally()
        driver = TableDriver(room, table, tablet, phones, tally)
        driver.shots, driver.any_pawn = shots, any_pawn
        driver.play(list(record.moves))
        tally.alerts, tally.relabels = driver.alerts, driver.relabels
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
    parser.add_argument("--no-cards", action="store_true",
                        help="no card tags: cards are typed into the search boxes")
    parser.add_argument("--hints", choices=["on", "off"], default="on",
                        help="the table's seating hints for figure (a) ((b) needs them on)")
    parser.add_argument("--shots", action="store_true",
                        help="save the tablet's screen as each round starts, in "
                        "artifacts/screenshots/taps-<game>/")
    parser.add_argument("--any-pawn", action="store_true",
                        help="tap any pawn of the right color never tapped so far, as a table "
                        "that filled its bags by the handful does; counts the hub's alerts")
    parser.add_argument("--keep", type=Path, help="keep the hub's files here (for a failure)")
    parser.add_argument("--moves", type=int, default=0, help="stop after this many moves")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="instead of --record and --seed: N simulated games for (a) and N "
                        "advisor games for (b), seeds 1 to N")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    games = chosen_games(args)
    failed = False
    figures: list[tuple[str, int, int]] = []
    with sync_playwright() as pw, tempfile.TemporaryDirectory(prefix="popcorn-taps-") as temp:
        tmp = args.keep or temp
        if args.keep and args.keep.exists() and any(args.keep.iterdir()):
            parser.error(f"{args.keep} is not empty (another hub may still use its readers)")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, label, record, hints in games:
            if args.moves:
                record = Record(record.names, record.first_player, record.moves[:args.moves])
            shots = ROOT / "artifacts" / "screenshots" / f"taps-{name}" if args.shots else None
            tally = play(browser, record, not args.no_cards, hints, Path(tmp) / name, shots,
                         any_pawn=args.any_pawn)
            title = (f"({name}) {label}: {len(record.moves)} moves, "
                     f"{record_rounds(record)} rounds, hints {'on' if hints else 'off'}, "
                     f"card tags {'on' if tally.cards else 'off'}")
            print(tally.report(title), flush=True)
            if args.any_pawn:
                print(f"  any pawn of the color: {tally.relabels} taps of another pawn than "
                      f"the hub placed there taken as the move, {tally.alerts} answered with "
                      "an alert", flush=True)
            total = tally.total("tablet")
            verdict = "within" if total <= GOALS[name] else "ABOVE"
            print(f"  goal: at most {GOALS[name]}: {verdict}", flush=True)
            failed |= total > GOALS[name]
            figures.append((f"({name}) {label}", total, GOALS[name]))
        browser.close()
    print("\nsummary: tablet interactions (goal)")
    for label, total, goal in figures:
        print(f"  {label}: {total} ({goal}, {'within' if total <= goal else 'ABOVE'})")
    return 1 if failed else 0


def chosen_games(args: argparse.Namespace) -> list[tuple[str, str, Record, bool]]:
    """The games to enter, each ``(figure, label, record, hints)``: the record and the
    advisor game of ``--seed``, or with ``--sample N`` N simulated and N advisor games."""
    games: list[tuple[str, str, Record, bool]] = []
    seeds = range(1, args.sample + 1) if args.sample else [args.seed]
    for name in args.game:
        for seed in seeds:
            if name == "a" and args.sample:
                games.append(("a", f"simulated game, seed {seed}, entered as recorded",
                              simulated_game(seed), args.hints == "on"))
            elif name == "a":
                games.append(("a", f"{args.record.name} entered as recorded",
                              recorded_game(args.record), args.hints == "on"))
                break
            else:
                games.append(("b", f"advisor policy game, seed {seed}, every suggestion taken",
                              advised_game(seed), True))
    return games


def record_rounds(record: Record) -> int:
    """How many rounds the game lasted."""
    state = replay(load_catalog(), record)
    return state.round


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Move", "advised_game", "play", "recorded_game"]
