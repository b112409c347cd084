"""``popcorn-companion analyze FILE``: each player's accuracy and biggest misses in a game.

The record's game is found as ``replay`` finds it (:func:`.replay.record_game`), and the
game analyses it (:meth:`companion.kit.parts.Advisor.analyze`; Popcorn's compares every
decision its seating advisor can value with the advisor's best, see ``docs/advisor.md``).
It prints one line per player (name, accuracy as a percentage, decisions valued), then
that player's misses, one line each; ``--json`` prints the analysis as JSON instead. On a
terminal, the progress goes to standard error.

Exit status: 0; 2 for a file that cannot be read, a record that cannot be read or replayed
(``line N: CODE: sentence`` names its first bad line), or a game without an analysis.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion import games
from companion.kit.records import RecordError

from .replay import read_text, record_game

PROG = "popcorn-companion analyze"
"""The prefix of every error line, as argparse would print it."""
EXIT_INPUT_ERROR = 2
"""Exit status for a record that cannot be analysed (the same as argparse's usage errors)."""


def register(subparsers: Any) -> None:
    """Add the ``analyze`` subcommand."""
    parser = subparsers.add_parser(
        "analyze", help="each player's accuracy and biggest misses in a game record",
        description="Replay a game record and compare every decision the game's advisor can "
        "value with the advisor's best: per player, the accuracy (the share of the best "
        "value kept), the decisions valued and the three biggest misses.")
    parser.add_argument("file", metavar="RECORD", help='the game record, or "-" for stdin')
    parser.add_argument("--game", choices=games.game_ids(), default=None,
                        help="the game of the record (default: its header's \"game\", "
                        "Popcorn without one)")
    parser.add_argument("--json", action="store_true",
                        help="print the whole analysis as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Analyse ``args.file`` and print it: 0, or 2 and one error line."""
    try:
        text = read_text(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {args.file}: {exc}")
    game = games.load(record_game(args.game, text))
    if game.advisor is None:
        return _fail(f"{game.title} has no analysis")
    try:
        result = game.advisor.analyze(text, _progress if sys.stderr.isatty() else None)
    except RecordError as exc:
        return _fail(f"line {exc.line}: {exc.code}: {exc.message}")
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print("\n".join(report(result)))
    return 0


def report(result: dict[str, Any]) -> list[str]:
    """The analysis as lines: per player, ``Name: accuracy 87.5 %, 31 decisions valued``
    and then each miss, ``  move 212 (line 214), round 3: lost 2.5 popcorn; played ...;
    best ...``."""
    unit = result.get("unit", "")
    lines = []
    for player in result["players"]:
        accuracy = player["accuracy"]
        shown = "-" if accuracy is None else f"{accuracy:.1f} %"
        lines.append(f"{player['name']}: accuracy {shown}, {player['decisions']} decisions "
                     f"valued (kept {player['kept']:g} of {player['kept'] + player['lost']:g} "
                     f"{unit})")
        for miss in player["misses"]:
            lines.append(f"  move {miss['index']} (line {miss['line']}), round {miss['round']}:"
                         f" lost {miss['lost']:g} {unit}; played {miss['played']['text']};"
                         f" best {miss['best']['text']}")
    return lines


def _progress(done: int, total: int) -> None:
    end = "\n" if done >= total else ""
    print(f"\ranalysing: {done}/{total} moves", end=end, file=sys.stderr, flush=True)


def _fail(message: str) -> int:
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_INPUT_ERROR
