"""``popcorn-companion replay FILE``: check every move of a game record.

It prints the final state's summary, and the scores when the game ended. A record whose
header says ``"game": "b-movies"`` (or ``--game b-movies``) is a B Movies game: it prints
that game's summary and, when over, its Final Cut (:mod:`companion.games.bmovies.commands`).
At the first illegal move it prints ``line N: CODE: sentence`` on standard error and exits
with 1; a file that cannot be read exits with 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion import games

PROG = "popcorn-companion replay"


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay", help="check every move of a game record and print where it ends",
        description="Re-run a game record (JSON Lines, see docs/game-record.md) through the "
        "rules engine, stop at the first illegal move, and print the final summary and scores.")
    parser.add_argument("file", metavar="FILE", help='the game record, or "-" for stdin')
    parser.add_argument("--game", choices=games.game_ids(), default=None,
                        help="the game of the record (default: its header's \"game\", "
                        "Popcorn without one)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file``: exit 0 if all moves are legal, 1 at an illegal one, 2 if unreadable."""
    try:
        text = read_text(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{PROG}: error: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    return games.load(record_game(args.game, text)).records.replay(PROG, text)


def read_text(path: str) -> str:
    """The text of the file at ``path``, or of standard input for ``-`` (``OSError`` or
    ``UnicodeDecodeError`` when it cannot be read)."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def record_game(game: str | None, text: str) -> str:
    """The game of a record: ``game`` (``--game``), else the game whose header the record's
    first line is, else the default game (Popcorn's headers name none)."""
    if game:
        return game
    first = text.split("\n", 1)[0]
    owners = [g for g in games.game_ids() if games.load(g).records.owns(first)]
    return owners[0] if owners else games.DEFAULT
