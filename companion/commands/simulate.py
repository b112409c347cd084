"""``popcorn-companion simulate``: play random legal games and summarize them.

Each game is played by :func:`companion.games.popcorn.engine.simulator.play_random` from a seed
derived from ``--seed`` and the game's number, so any game can be played again alone. With
``--policy advisor`` it is :func:`companion.games.popcorn.advisor.policy.play_advised` instead:
every seat places its guests as the seating advisor suggests, and makes its other choices eagerly.
With ``--game b-movies`` (3 to 6 players, ``--variant standard|hidden``) the games are
B Movies games played by :func:`companion.games.bmovies.engine.play_random`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion import games


def register(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate", help="play random legal games and print a summary",
        description="Play random legal games of Popcorn (or B Movies) from setup to final "
        "scoring.")
    parser.add_argument("--game", choices=games.game_ids(), default=games.DEFAULT,
                        help=f"the game to play ({games.DEFAULT})")
    parser.add_argument("--games", type=_positive, default=10, help="how many games (10)")
    parser.add_argument("--players", type=int, default=4,
                        help="players per game (4): Popcorn 2 to 4, B Movies 3 to 6")
    parser.add_argument("--variant", default=None,
                        help="the game's variant: B Movies' standard or hidden (standard)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--policy", default=None,
                        help="Popcorn's players: random (any legal decision), eager (rather "
                        "act than pass), advisor (seat guests by the seating advisor, else "
                        "eager) (random)")
    parser.add_argument("--record", type=Path, metavar="DIR",
                        help="write each game's record to DIR/game-NNNN.jsonl")
    parser.set_defaults(func=run, parser=parser)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run(args: argparse.Namespace) -> int:
    """Check the player count against the game's, then let the game play (it prints its
    progress on stderr and the summary on stdout)."""
    game = games.load(args.game)
    if not game.min_players <= args.players <= game.max_players:
        args.parser.error(f"argument --players: {args.game} is for {game.min_players} to "
                          f"{game.max_players} players")
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
    commands = game.commands
    if commands is None:
        args.parser.error(f"{game.title} cannot be simulated")
        return 2
    return commands.simulate(args)
