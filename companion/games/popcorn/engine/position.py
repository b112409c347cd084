"""A whole game position as plain JSON data, and back: ``to_dict`` and ``build``.

The shape is documented in ``docs/position.md`` (format ``popcorn-position``, version
:data:`VERSION`). Pawns are listed by place (the box, the reserve, and each player's bag,
exit zone, hand and seats), never by the engine's location codes, so a position can be
written by hand to start a test or a scenario in the middle of a game.

:func:`build` checks the document completely before it builds anything (see
:mod:`.position_checks`) and refuses an inconsistent one with a
:class:`~.violations.Violation`; the indexes a state keeps in step with its pawns (``at``,
``seated``, ``seated_count``) are rebuilt from the places. It builds the class it is
given, so that this module needs only :mod:`.base_state`: :func:`.state.from_dict` (the
package's ``from_dict``) asks it for a :class:`~.state.GameState`.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from . import pawns as P
from .base_state import BaseState, PlayerState, Showing, Task
from .catalog import Catalog
from .position_checks import FORMAT, VERSION, check_position

__all__ = ["FORMAT", "VERSION", "build", "to_dict"]

S = TypeVar("S", bound=BaseState)
"""The class of state :func:`build` makes."""

PLAYER_KEYS = PlayerState.__slots__
"""The keys of a player's belongings, besides the pawn places ``bag``, ``exit``, ``hand``
and ``seats``."""

ROWS = ("movie_pool", "above_final", "final_revealed", "last_round", "features", "premiers",
        "starting_pool", "award_pool", "award_queue")
"""Top-level keys copied as they are: the movie deck and rows, the award deck."""
TURN = ("phase", "round", "first_player", "current", "turns_left")
"""Top-level keys of the turn structure."""
STACKS = ("theater_pool", "theater_queue", "columns")
"""Per theater size (a string key: ``"1"``, ``"2"``, ``"3"``): unknown tiles, tiles put
under the stack in order, and the face-up column."""


def to_dict(state: BaseState) -> dict[str, Any]:
    """The whole position as plain JSON data (a fresh copy, safe to change)."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "names": list(state.names)}
    data.update({key: getattr(state, key) for key in TURN + ROWS})
    for key in STACKS:
        data[key] = {str(size): cards for size, cards in getattr(state, key).items()}
    data["box"] = state.pawns_at(P.BOX)
    data["reserve"] = state.pawns_at(P.RESERVE)
    data["board"] = [list(token) for token in state.board]
    data["players"] = [_player(state, p) for p in range(state.n)]
    data["showings"] = [show.to_dict() for show in state.showings]
    data["tasks"] = [task.to_dict() for task in state.tasks]
    return copy.deepcopy(data)


def _player(state: BaseState, p: int) -> dict[str, Any]:
    data = state.players[p].to_dict()
    data["bag"] = state.pawns_at(P.bag(p))
    data["exit"] = state.pawns_at(P.exit_zone(p))
    data["hand"] = state.pawns_at(P.hand(p))
    data["seats"] = [[state.occupant(p, slot, k) for k in range(_seats(state, p, slot))]
                     for slot in range(3)]
    return data


def _seats(state: BaseState, p: int, slot: int) -> int:
    theater = state.theater(p, slot)
    return theater.seats if theater else 0


def build(cls: type[S], catalog: Catalog, data: Any) -> S:
    """The position ``data`` describes, as an instance of ``cls`` (a :class:`BaseState`).

    A malformed document (``BAD_POSITION``) or one that cannot happen (``PAWN_COUNT``,
    ``PAWN_TWICE``, ``NEGATIVE_AMOUNT``, ``CARD_TWICE``, ``UNKNOWN_CARD``, ``TOKEN_COUNT``,
    ``SEAT_INVALID``) raises a :class:`~.violations.Violation`, and nothing is built.
    ``build(GameState, catalog, data)`` is what :func:`.state.from_dict` does.
    """
    check_position(catalog, data)
    state = cls(catalog, tuple(data["names"]), data["first_player"])
    for key in TURN + ROWS:
        setattr(state, key, copy.deepcopy(data[key]))
    for key in STACKS:
        setattr(state, key, {int(size): list(cards) for size, cards in data[key].items()})
    state.board = [(who, space, placed) for who, space, placed in data["board"]]
    state.players = [_player_state(raw) for raw in data["players"]]
    state.showings = [_showing(raw) for raw in data["showings"]]
    state.tasks = [_task(raw) for raw in data["tasks"]]
    _place_pawns(state, data)
    return state


def _player_state(raw: dict[str, Any]) -> PlayerState:
    ps = PlayerState(raw["money"], list(raw["theaters"]), raw["tokens"])
    for key in PLAYER_KEYS:
        setattr(ps, key, copy.deepcopy(raw[key]))
    ps.used = [set(u) for u in raw["used"]]
    return ps


def _task(raw: dict[str, Any]) -> Task:
    fields = {k: v for k, v in raw.items() if k not in ("kind", "player")}
    return Task(raw["kind"], raw.get("player"), **fields)


def _showing(raw: dict[str, Any]) -> Showing:
    show = Showing(raw["to_draw"])
    for key in Showing.__slots__:
        setattr(show, key, copy.deepcopy(raw[key]))
    return show


def _place_pawns(state: BaseState, data: dict[str, Any]) -> None:
    for pawn in data["reserve"]:
        state.move_pawn(pawn, P.RESERVE)
    for p, raw in enumerate(data["players"]):
        for key, loc in (("bag", P.bag(p)), ("exit", P.exit_zone(p)), ("hand", P.hand(p))):
            for pawn in raw[key]:
                state.move_pawn(pawn, loc)
        for slot, seats in enumerate(raw["seats"]):
            for k, pawn in enumerate(seats):
                if pawn is not None:
                    state.move_pawn(pawn, P.seat(p, slot, k))
