"""Finished games for the archive's tests: records made by the games' own simulators, and
the same games played on a hub's table, in process or over HTTP."""

from __future__ import annotations

import random
from typing import Any

from companion.games.bmovies.engine import play_random as bmovies_random
from companion.games.bmovies.facts_file import load_facts
from companion.games.bmovies.record import Record as BMoviesRecord
from companion.games.bmovies.record import dumps_record as bmovies_dumps
from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import Move
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import Record, dumps_record
from companion.kit.http import call

CATALOG = load_catalog()
FACTS = load_facts()
NAMES = ("Ana", "Bob", "Chloe", "Dev", "Eve", "Finn")


def popcorn_game(players: int, seed: int, names: tuple[str, ...] = NAMES
                 ) -> tuple[str, list[Move]]:
    """A whole Popcorn game played by the advisor's policy: its record and its moves."""
    game = play_advised(CATALOG, players, random.Random(f"archive:{seed}"))
    chosen = tuple(names[:players])
    return dumps_record(Record(chosen, game.first_player, game.moves)), game.moves


def popcorn_first_player(text: str) -> int:
    """The first player a Popcorn record's header names."""
    import json
    return int(json.loads(text.split("\n", 1)[0])["first_player"])


def bmovies_game(players: int, seed: int, variant: str = "standard",
                 names: tuple[str, ...] = NAMES) -> tuple[str, list[Any]]:
    """A whole B Movies game of random moves: its record and its moves."""
    moves, _ = bmovies_random(FACTS, players, seed, variant)
    return bmovies_dumps(BMoviesRecord(tuple(names[:players]), 0, variant, moves)), moves


def play_over_http(base: str, info: dict[str, Any], moves: list[Any]) -> None:
    """Every move at a hub's table, as the tablet and the phones send them: runs of one
    player's moves (or of shared reveals) as batches, with the table's PIN and that
    player's token, so each move carries the secret its game asks for."""
    run: list[Any] = []
    for move in moves:
        if run and (move.player != run[0].player or len(run) == 64):
            _send(base, info, run)
            run = []
        run.append(move)
    if run:
        _send(base, info, run)


def _send(base: str, info: dict[str, Any], run: list[Any]) -> None:
    headers = {"X-Table-Pin": info["pin"]}
    if run[0].player is not None:
        headers["X-Player-Token"] = info["tokens"][run[0].player]
    call(f"{base}/api/tables/{info['id']}/moves", "POST",
         {"moves": [m.to_dict() for m in run]}, headers)
