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
import random
import sys
import time
from pathlib import Path
from typing import Any

from companion.games.bmovies.commands import run_simulate
from companion.games.bmovies.facts_file import load_facts
from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import final_positions, play_random, score_game
from companion.games.popcorn.engine.simulator import POLICIES
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import Record, dumps_record

POPCORN_PLAYERS = (2, 3, 4)
"""The player counts Popcorn's setup accepts (B Movies' come from its facts)."""

CHOICES = (*POLICIES, "advisor")
"""The engine's own policies, and ``advisor`` (:mod:`companion.games.popcorn.advisor.policy`)."""


def register(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate", help="play random legal games and print a summary",
        description="Play random legal games of Popcorn (or B Movies) from setup to final "
        "scoring.")
    parser.add_argument("--game", choices=("popcorn", "b-movies"), default="popcorn",
                        help="the game to play (popcorn)")
    parser.add_argument("--games", type=_positive, default=10, help="how many games (10)")
    parser.add_argument("--players", type=int, default=4,
                        help="players per game (4): Popcorn 2 to 4, B Movies 3 to 6")
    parser.add_argument("--variant", choices=("standard", "hidden"), default="standard",
                        help="B Movies only: standard, or the Hidden Team variant (standard)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--policy", choices=CHOICES, default="random",
                        help="random: any legal decision; eager: rather act than pass; "
                        "advisor: seat guests by the seating advisor, else eager (random)")
    parser.add_argument("--record", type=Path, metavar="DIR",
                        help="write each game's record to DIR/game-NNNN.jsonl")
    parser.set_defaults(func=run, parser=parser)


def _players(game: str) -> tuple[int, int]:
    """The fewest and most players of ``game``."""
    if game == "b-movies":
        facts = load_facts()
        return facts.min_players, facts.max_players
    return POPCORN_PLAYERS[0], POPCORN_PLAYERS[-1]


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run(args: argparse.Namespace) -> int:
    """Play the games, print progress on stderr and the summary on stdout."""
    low, high = _players(args.game)
    if not low <= args.players <= high:
        args.parser.error(f"argument --players: {args.game} is for {low} to {high} players")
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
    if args.game == "b-movies":
        return run_simulate(args.games, args.players, args.seed, args.variant, args.record)
    catalog = load_catalog()
    rounds, scores, moves = [], [], 0
    started = time.perf_counter()
    for number in range(args.games):
        rng = random.Random(f"{args.seed}:{number}")
        if args.policy == "advisor":
            game = play_advised(catalog, args.players, rng)
        else:
            game = play_random(catalog, args.players, rng, policy=args.policy)
        moves += len(game.moves)
        rounds.append(game.state.round)
        scores += [p.total for p in score_game(catalog, final_positions(game.state)).players]
        if args.record:
            record = Record(game.names, game.first_player, game.moves)
            (args.record / f"game-{number + 1:04d}.jsonl").write_text(dumps_record(record))
        if sys.stderr.isatty():
            print(f"\rgame {number + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    elapsed = max(time.perf_counter() - started, 1e-9)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"games: {args.games} ({args.players} players, seed {args.seed}, "
          f"{args.policy} policy)")
    print(f"mean rounds: {sum(rounds) / len(rounds):.2f}")
    print(f"mean score: {sum(scores) / len(scores):.2f}  max score: {max(scores)}")
    print(f"moves: {moves}  moves per second: {moves / elapsed:,.0f}")
    if args.record:
        print(f"records written to {args.record}")
    return 0
