"""Popcorn's own HTTP routes, as one Flask Blueprint the hub registers for the game.

``GET /api/tables/<id>/advice?player=N``: the seating advisor's answer; the routes the table
screen's shortcuts read: ``.../placement`` (what "Seat them all as shown" sends),
``.../gains`` (what "Take the gains" sends), ``.../suggestion`` and ``.../rest`` (what "Skip
the rest" sends); and ``GET /api/catalog``,
the card facts the dashboard searches and labels.

The routes read tables through the hub's :class:`~companion.kit.game.TableHost`, never the
hub itself. The advice reads only
what the public view shows (seats, movies, bag and exit-zone contents, the award deck's
size), so it needs no token. The table's state is copied under the hub's lock and the search
runs outside it: a slow search never holds up the readers or the other tables.
"""

from __future__ import annotations

from typing import cast

from flask import Blueprint, jsonify, request

from companion.kit.errors import TableError
from companion.kit.game import HostedTable, TableHost
from companion.kit.numbers import whole_number

from .advisor import AdviceError, advise
from .engine import Catalog, GameState
from .facts_file import action_meanings
from .gains import gains, reach, skip_rest
from .placement import (
    advised_then,
    draw_order,
    expected_gains,
    first_free,
    suggested_play,
)
from .views import catalog_json

CONFLICTS = frozenset({"NO_DRAW_WAITING", "PENDING_STEP"})
"""Advice codes that mean "not now" (409); any other code is a bad request (400)."""


def blueprint(host: TableHost, catalog: Catalog) -> Blueprint:
    """Every route of Popcorn's, reading tables through ``host``."""
    bp = Blueprint("popcorn", __name__)
    for register in (register_advice, register_placement, register_gains,
                     register_suggestion, register_rest, register_reach):
        register(bp, host)

    @bp.get("/api/catalog")
    def card_catalog():
        return jsonify(catalog_json(catalog, action_meanings()))

    return bp


def register_advice(bp: Blueprint, hub: TableHost) -> None:
    """Add the advice route; errors use the hub's ``{"code", "message"}`` form."""

    @bp.get("/api/tables/<table_id>/advice")
    def advice(table_id: str):
        with hub.lock:
            table = _popcorn_table(hub, table_id)
            state = _state(table).clone()
        player = _player(request.args.get("player"), state.n)
        try:
            answer = advise(state, player)
        except AdviceError as exc:
            raise TableError(exc.code, exc.message, 409 if exc.code in CONFLICTS else 400) \
                from exc
        return jsonify({"table": table_id, "round": state.round, **answer.to_dict()})


def register_placement(bp: Blueprint, hub: TableHost) -> None:
    """Add ``GET /api/tables/<id>/placement?player=N``: the placement the table screen
    pre-fills, the advisor's with the table's hints on, else the first free seats."""

    @bp.get("/api/tables/<table_id>/placement")
    def placement(table_id: str):
        with hub.lock:
            table = _popcorn_table(hub, table_id)
            state, hints = _state(table).clone(), table.hints
        player = _player(request.args.get("player"), state.n)
        with hub.lock:
            order = draw_order(table.entries, player)
        try:
            moves, then = advised_then(state, player) if hints \
                else (first_free(state, player, order), [])
            gains = expected_gains(state, player) if hints else None
        except AdviceError as exc:
            raise TableError(exc.code, exc.message, 409 if exc.code in CONFLICTS else 400) \
                from exc
        return jsonify({"table": table_id, "player": player, "hints": hints,
                        "moves": [m.to_dict() for m in moves],
                        "then": [m.to_dict() for m in then], "gains": gains})


def register_gains(bp: Blueprint, hub: TableHost) -> None:
    """Add ``GET /api/tables/<id>/gains?player=N``: the player's activations that only gain
    and need no choice, in a row from now (see :mod:`companion.games.popcorn.gains`)."""

    @bp.get("/api/tables/<table_id>/gains")
    def take_gains(table_id: str):
        with hub.lock:
            table = _popcorn_table(hub, table_id)
            state, events = _state(table), table.count  # a live state is never changed in place
        player = _player(request.args.get("player"), state.n)
        return jsonify({"table": table_id, "player": player, "events": events,
                        "moves": [m.to_dict() for m in gains(state, player)]})


def register_suggestion(bp: Blueprint, hub: TableHost) -> None:
    """Add ``GET /api/tables/<id>/suggestion?player=N``: with the table's hints on, the
    advisor's activations for the player's seated guests (what "Play as suggested" sends);
    with hints off, no moves."""

    @bp.get("/api/tables/<table_id>/suggestion")
    def suggestion(table_id: str):
        with hub.lock:
            table = _popcorn_table(hub, table_id)
            state, events, hints = _state(table).clone(), table.count, table.hints
        player = _player(request.args.get("player"), state.n)
        moves = suggested_play(state, player) if hints else []
        return jsonify({"table": table_id, "player": player, "events": events, "hints": hints,
                        "moves": [m.to_dict() for m in moves]})


def register_rest(bp: Blueprint, hub: TableHost) -> None:
    """Add ``GET /api/tables/<id>/rest?player=N``: the moves that end the turn of every
    guest of the player's cinema still to act (what "Skip the rest" sends)."""

    @bp.get("/api/tables/<table_id>/rest")
    def rest(table_id: str):
        with hub.lock:
            table = _popcorn_table(hub, table_id)
            state, events = _state(table), table.count  # a live state is never changed in place
        player = _player(request.args.get("player"), state.n)
        return jsonify({"table": table_id, "player": player, "events": events,
                        "moves": [m.to_dict() for m in skip_rest(state, player)]})


def register_reach(bp: Blueprint, hub: TableHost) -> None:
    """Add ``GET /api/tables/<id>/reach?player=N&slot=S&seat=K``: what a tap on the seated
    guest in that seat sends during the Showings (the guests due before it end their turn,
    then its one-way seat action); ``in_line`` false, and no moves, when its turn cannot
    come."""

    @bp.get("/api/tables/<table_id>/reach")
    def reach_guest(table_id: str):
        with hub.lock:
            table = _popcorn_table(hub, table_id)
            state, events = _state(table), table.count  # a live state is never changed in place
        player = _player(request.args.get("player"), state.n)
        slot = _index(request.args.get("slot"), "slot", 3)
        seat = _index(request.args.get("seat"), "seat", 9)
        moves = reach(state, player, slot, seat)
        return jsonify({"table": table_id, "player": player, "slot": slot, "seat": seat,
                        "events": events, "in_line": moves is not None,
                        "moves": [m.to_dict() for m in moves or []]})


def _index(text: str | None, name: str, bound: int) -> int:
    """A ``slot`` or ``seat`` query parameter below ``bound``, or a 400 ``BAD_PLACE``."""
    value = whole_number(text, bound - 1)
    if value is None:
        raise TableError("BAD_PLACE", f"{name} must be a number from 0 to {bound - 1}.", 400,
                         params={"name": name})
    return value


def _popcorn_table(hub: TableHost, table_id: str) -> HostedTable:
    """The table, if it plays Popcorn: the advisor knows no other game (``NOT_FOR_THIS_GAME``)."""
    table = hub.table(table_id)
    if table.game.id != "popcorn":
        raise TableError("NOT_FOR_THIS_GAME", f"The seating advisor is Popcorn's; this table "
                         f"plays {table.game.title}.", 409, params={"game": table.game.id})
    return table


def _player(text: str | None, players: int) -> int:
    """The ``player`` query parameter as a seat number, or a 400 ``BAD_PLAYER`` error."""
    value = whole_number(text, players - 1)
    if value is None:
        raise TableError("BAD_PLAYER", f"player must be a seat number from 0 to {players - 1}.",
                         400)
    return value


def _state(table: HostedTable) -> GameState:
    """A Popcorn table's live state, as Popcorn's own class."""
    return cast(GameState, table.state)
