"""``popcorn-companion score FILE``: score a finished game from a JSON score sheet.

The sheet format is described in :mod:`companion.games.popcorn.scoresheet`; ``-`` reads it from
standard input. The scored game goes to standard output as indented JSON and the exit status is 0.
A sheet with ``"game": "b-movies"`` (or ``--game b-movies``) is a B Movies sheet (see
:mod:`companion.games.bmovies.scoresheet` and ``docs/b-movies.md``): it prints that game's
Final Cut, or refuses a sheet no finished game could produce with the code of the bound it
breaks. Anything wrong with the input (unreadable file, bad JSON, an impossible end state)
prints a single line ``popcorn-companion score: error: <message>`` on standard error (for B
Movies ``<message>`` is ``CODE: sentence``) and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion import games
from companion.kit.parts import ScoreSheets

PROG = "popcorn-companion score"
"""The prefix of every error line, as argparse would print it."""

EXIT_INPUT_ERROR = 2
"""Exit status for input that cannot be scored (the same as argparse's usage errors)."""



class _InputError(Exception):
    """The score sheet could not be read or decoded."""


def register(subparsers: Any) -> None:
    """Add the ``score`` subcommand to the ``popcorn-companion`` parser."""
    parser = subparsers.add_parser(
        "score",
        help="score a finished game from a JSON score sheet",
        description=(
            "Add up bucket, money, theater trophy and award cards for every player, choose the "
            "best use of advertising tokens still on the board, and name the winners."
        ),
    )
    parser.add_argument("file", metavar="FILE", help='the score sheet (JSON), or "-" for stdin')
    parser.add_argument("--game", choices=games.game_ids(), default=None,
                        help='the game of the sheet (default: its "game" key, Popcorn without '
                        "one)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score ``args.file`` and print the result; return the process exit status."""
    try:
        doc = _read_json(args.file)
    except _InputError as exc:
        return _fail(str(exc), EXIT_INPUT_ERROR)
    game = args.game or next((g for g in games.game_ids() if _owns(g, doc)), games.DEFAULT)
    sheets = _sheets(game)
    if sheets is None:
        return _fail(f"{game} has no score sheet", EXIT_INPUT_ERROR)
    return sheets.score(PROG, doc)


def _sheets(game_id: str) -> ScoreSheets | None:
    return games.load(game_id).sheets


def _owns(game_id: str, doc: Any) -> bool:
    sheets = _sheets(game_id)
    return sheets is not None and sheets.owns(doc)


def _read_json(path: str) -> Any:
    """The decoded JSON document at ``path`` (``-`` is stdin); raises :class:`_InputError`."""
    name = "standard input" if path == "-" else path
    try:
        data = sys.stdin.buffer.read() if path == "-" else _read_bytes(path)
        text = data.decode("utf-8-sig")
    except OSError as exc:
        raise _InputError(f"cannot read {name}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise _InputError(f"{name} is not UTF-8 text (byte {exc.start})") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _InputError(
            f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except (ValueError, RecursionError) as exc:
        raise _InputError(f"{name} is not usable JSON: {exc}") from exc


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _fail(message: str, status: int) -> int:
    """Print ``message`` as one error line on stderr and return ``status``."""
    one_line = " ".join(message.split())
    print(f"{PROG}: error: {one_line}", file=sys.stderr)
    return status
