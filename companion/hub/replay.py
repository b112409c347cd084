"""The replay board's routes: a game position by position, as everyone at the table saw it.

An archived game (``/api/archive/<id>/replay``) and a live table, for its moves so far
(``/api/tables/<id>/replay``), answer the same two reads, and neither needs a secret:
everything in them is public (:mod:`companion.table.timeline`).

- ``.../replay``: the whole game in one answer: every step's public move and round, each
  round's first position, and the game's charts;
- ``.../replay/views?from=N&count=C``: the views of positions ``N`` to ``N + C - 1`` (a
  page: a view is several kilobytes, a game several hundred positions).

The hub's lock is held only to copy what a timeline is made of (an archived game's record,
a table's applied entries); the replay itself runs outside it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.hub.hub import Hub
from companion.kit.errors import TableError
from companion.kit.records import RecordError
from companion.table.timeline import MAX_VIEWS, Timeline

PAGE = 20
"""Positions per page of views when a request names no ``count``."""


def blueprint(hub: Hub) -> Blueprint:
    """The replay routes of ``hub``: its archive's games and its live tables."""
    replay = Blueprint("replay", __name__)

    @replay.get("/api/archive/<game_id>/replay")
    def archived(game_id: str):
        timeline = archived_timeline(hub, game_id)
        return jsonify({"id": game_id, "source": "archive", **timeline.summary()})

    @replay.get("/api/archive/<game_id>/replay/views")
    def archived_views(game_id: str):
        first, count = window()
        return jsonify(page(archived_timeline(hub, game_id), first, count))

    @replay.get("/api/tables/<table_id>/replay")
    def live(table_id: str):
        timeline, events = table_timeline(hub, table_id)
        return jsonify({"id": table_id, "source": "table", "events": events,
                        **timeline.summary()})

    @replay.get("/api/tables/<table_id>/replay/views")
    def live_views(table_id: str):
        first, count = window()
        timeline, events = table_timeline(hub, table_id)
        return jsonify({**page(timeline, first, count), "events": events})

    return replay


def archived_timeline(hub: Hub, game_id: str) -> Timeline:
    """An archived game's timeline, from its record (``CANNOT_REPLAY``, 409, for a game that
    cannot read its records back)."""
    with hub.lock:
        game, text = hub.archived().replay_source(game_id)
    try:
        return Timeline.of_record(game, text)
    except RecordError as exc:
        raise TableError("CANNOT_REPLAY", f"{game.title} cannot read this record back "
                         f"(line {exc.line}: {exc.message}), so it cannot replay it.", 409,
                         params={"game": game.id, "line": exc.line}) from exc


def table_timeline(hub: Hub, table_id: str) -> tuple[Timeline, int]:
    """A table's timeline of the moves it has applied, and its log's length then."""
    with hub.lock:
        table = hub.table(table_id)
        config = table.config
        entries, events = list(table.entries), table.count
        game = table.game
    return Timeline.of_entries(game, config.players, config.first_player, config.options,
                               entries), events


def page(timeline: Timeline, first: int, count: int) -> dict[str, Any]:
    """``{"from", "views"}``: the views of a page of positions."""
    return {"from": first, "views": timeline.views(first, count)}


def window() -> tuple[int, int]:
    """The request's ``from`` (a position, 0 by default) and ``count`` (1 to
    :data:`~companion.table.timeline.MAX_VIEWS`, :data:`PAGE` by default)."""
    return _integer("from", 0), _integer("count", PAGE)


def _integer(name: str, default: int) -> int:
    text = request.args.get(name)
    if text is None or text == "":
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        bound = f"from 1 to {MAX_VIEWS}" if name == "count" else "of 0 or more"
        raise TableError("BAD_REQUEST", f"{name} must be a whole number {bound}",
                         params={"field": name})
    return int(text)
