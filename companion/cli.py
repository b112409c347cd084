"""The ``popcorn-companion`` command line, one subcommand per module in ``commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion import __version__

SUBCOMMANDS: tuple[str, ...] = ("demo", "serve", "service", "score", "replay", "analyze",
                               "simulate", "readers", "i18n")
"""Modules of :mod:`companion.commands`, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="popcorn-companion",
        description="A table companion for the board game Popcorn.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"companion.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status (2 for a usage error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
