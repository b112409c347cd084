"""Popcorn behind ``popcorn-companion replay``, ``score``, ``simulate`` and ``demo``.

The commands find a record's or a sheet's game (:mod:`companion.games`) and hand Popcorn's
to these functions. Each returns the process exit status and prints as every game's
commands do: indented JSON (or a summary) on standard output, one ``PROG: ...`` line on
standard error for a problem.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from .engine import (
    CatalogError,
    ScoreInputError,
    final_positions,
    play_random,
    score_game,
    state_summary,
)
from .engine.simulator import POLICIES
from .facts_file import load_catalog
from .record import Record, dumps_record, loads_record, replay
from .scoresheet import parse_score_input, score_to_json

CHOICES = (*POLICIES, "advisor")
"""``simulate --policy``: the engine's own policies, and ``advisor``
(:mod:`.advisor.policy`)."""
EXIT_INPUT_ERROR = 2
"""Exit status for a sheet that cannot be scored (the same as argparse's usage errors)."""
EXIT_CATALOG_ERROR = 1
"""Exit status when the packaged card catalog itself is broken (not the user's fault)."""


def run_replay(prog: str, text: str) -> int:
    """Replay a Popcorn record: 0 and the summary (and scores when over), or 1 and
    ``line N: CODE: sentence`` at the first illegal or malformed line."""
    from companion.kit.records import RecordError

    catalog = load_catalog()
    try:
        state = replay(catalog, loads_record(text))
    except RecordError as exc:
        print(f"{prog}: line {exc.line}: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    out: dict[str, Any] = {"summary": state_summary(state)}
    if state.is_over:
        out["scores"] = score_to_json(score_game(catalog, final_positions(state)))
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def run_score(prog: str, doc: Any) -> int:
    """Score a Popcorn sheet (``docs/scoring.md``): 0 and the scored game, else one error
    line and 2 (a bad sheet) or 1 (a broken packaged catalog)."""
    try:
        catalog = load_catalog()
        score = score_game(catalog, parse_score_input(doc, catalog))
    except ScoreInputError as exc:
        return _fail(prog, str(exc), EXIT_INPUT_ERROR)
    except CatalogError as exc:
        return _fail(prog, f"the card catalog is broken: {exc}", EXIT_CATALOG_ERROR)
    print(json.dumps(score_to_json(score), indent=2, ensure_ascii=False))
    return 0


def _fail(prog: str, message: str, status: int) -> int:
    print(f"{prog}: error: {' '.join(message.split())}", file=sys.stderr)
    return status


def run_simulate(args: argparse.Namespace) -> int:
    """Random games (``--policy random|eager|advisor``): games, mean rounds, mean and max
    score, moves per second; each game's record in ``--record DIR``."""
    policy = args.policy or "random"
    if policy not in CHOICES:
        args.parser.error(f"argument --policy: invalid choice: {policy!r} (choose from "
                          f"{', '.join(CHOICES)})")
    catalog = load_catalog()
    rounds, scores, moves = [], [], 0
    started = time.perf_counter()
    for number in range(args.games):
        rng = random.Random(f"{args.seed}:{number}")
        if policy == "advisor":
            from .advisor.policy import play_advised  # the advisor only for its policy

            game = play_advised(catalog, args.players, rng)
        else:
            game = play_random(catalog, args.players, rng, policy=policy)
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
    print(f"games: {args.games} ({args.players} players, seed {args.seed}, {policy} policy)")
    print(f"mean rounds: {sum(rounds) / len(rounds):.2f}")
    print(f"mean score: {sum(scores) / len(scores):.2f}  max score: {max(scores)}")
    print(f"moves: {moves}  moves per second: {moves / elapsed:,.0f}")
    if args.record:
        print(f"records written to {args.record}")
    return 0


def final_line(scores: dict[str, Any], state: Any) -> str:
    """The demo's last line: the rounds played, each player's total, the winners."""
    line = ", ".join(f"{p['name']} {p['total']}" for p in scores["players"])
    return (f"game over after {state.round} rounds: {line}; winner(s): "
            f"{', '.join(scores['winners'])}")
