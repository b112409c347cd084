"""B Movies behind ``popcorn-companion replay``, ``score`` and ``simulate``.

The commands pick the game from a record's header or a sheet's ``"game"`` key (or their
``--game`` option) and hand B Movies input to these functions; Popcorn's own code paths are
untouched. Each returns the process exit status and prints as Popcorn's commands do:
indented JSON on standard output, one ``PROG: ...`` line on standard error for a problem.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from .engine import FinalCut, State, final_cut, play_random
from .facts_file import load_facts
from .record import Record, RecordError, dumps_record, loads_record, replay
from .scoresheet import SheetError, parse_sheet, score_sheet
from .views import named


def summary(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    """Where a replayed game stands, in public terms: phase, round, bucket, turns, movies."""
    return {"game": "b-movies", "variant": state.variant, "players": list(names),
            "first_player": state.first_player, "phase": state.phase, "round": state.round,
            "rounds": state.rounds, "clapboards": state.clapboards,
            "screenwriter": state.screenwriter, "bucket": sum(state.bucket),
            "turns": len(state.history), "movies_made": sum(map(len, state.movies))}


def cut_json(cut: FinalCut, names: tuple[str, ...]) -> dict[str, Any]:
    """The Final Cut's JSON with each player's name beside their seat, as the hub's
    ``/scores`` gives it (:func:`~companion.games.bmovies.views.named`)."""
    return named(cut.to_dict(), list(names))


def run_replay(prog: str, text: str) -> int:
    """Replay a B Movies record: 0 and the summary (and Final Cut when over), or 1 and
    ``line N: CODE: sentence`` at the first illegal or malformed line."""
    try:
        record = loads_record(text)
        state = replay(record, load_facts())
    except RecordError as exc:
        print(f"{prog}: line {exc.line}: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    out: dict[str, Any] = {"summary": summary(state, record.names)}
    if state.is_over:
        out["final_cut"] = cut_json(final_cut(state), record.names)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


def run_score(prog: str, doc: Any) -> int:
    """Score a B Movies sheet: 0 and the Final Cut, or 2 and one error line
    ``PROG: error: CODE: sentence`` naming the player and the bound the sheet breaks."""
    facts = load_facts()
    try:
        sheet = parse_sheet(doc, facts)
    except SheetError as exc:
        print(f"{prog}: error: {exc.code}: {exc.message}", file=sys.stderr)
        return 2
    print(json.dumps(cut_json(score_sheet(sheet, facts), sheet.names), indent=2,
                     ensure_ascii=False))
    return 0


NAMES = ("Ana", "Bob", "Chloe", "Dev", "Eve", "Finn")
"""Seat names of simulated games (as many as the most players)."""


def run_simulate(games: int, players: int, seed: int, variant: str,
                 record_dir: Path | None) -> int:
    """Play random games and print games, mean rounds, mean and max score, moves per second."""
    facts = load_facts()
    rounds, scores, moves = [], [], 0
    started = time.perf_counter()
    for number in range(games):
        played, state = play_random(facts, players, random.Random(f"{seed}:{number}"), variant)
        moves += len(played)
        rounds.append(state.round)
        scores += [p.score for p in final_cut(state).players]
        if record_dir:
            record = Record(NAMES[:players], 0, variant, played)
            (record_dir / f"game-{number + 1:04d}.jsonl").write_text(dumps_record(record))
    elapsed = max(time.perf_counter() - started, 1e-9)
    print(f"games: {games} (b-movies, {players} players, {variant} variant, seed {seed})")
    print(f"mean rounds: {sum(rounds) / len(rounds):.2f}")
    print(f"mean score: {sum(scores) / len(scores):.2f}  max score: {max(scores)}")
    print(f"moves: {moves}  moves per second: {moves / elapsed:,.0f}")
    if record_dir:
        print(f"records written to {record_dir}")
    return 0
