"""The archive's routes: every finished game of the hub, its players, imports and exports.

Reading needs no secret: the list (``GET /api/archive``, newest first, by pages, filtered by
game and by a piece of a player's name), a game (``GET /api/archive/<id>``: its players,
scores and final public view), a player's page (``GET /api/archive/players/<name>``) and the
plays as CSV (``GET /api/archive/plays.csv``). A finished game's public view and scores are
what the whole table saw. What changes the archive, and the records themselves, need the
admin PIN: importing a record (``POST /api/archive``), deleting a game (``DELETE
/api/archive/<id>``), a game's record (``GET /api/archive/<id>/record``) and every record as
one zip (``GET /api/archive/export.zip``), since a record holds what only one player saw
(Popcorn's award cards drawn and put back). :class:`~companion.table.archive.Archive` does
the work, under the hub's lock.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from companion.hub import auth
from companion.hub.bodies import json_body, json_object
from companion.hub.hub import Hub
from companion.kit.errors import TableError
from companion.kit.numbers import whole_number
from companion.table.archive import name_key
from companion.table.archive_store import Filter

PAGE = 20
"""Games per page when a request names no ``limit``."""
MAX_PAGE = 100
"""The largest ``limit`` a request may ask for."""
MAX_OFFSET = 2**63 - 1
"""The largest ``offset``: SQLite's largest integer (a larger one would be a 500)."""


def blueprint(hub: Hub) -> Blueprint:
    """The archive routes of ``hub``."""
    archive = Blueprint("archive", __name__)
    _reading(archive, hub)
    _exports(archive, hub)
    _changes(archive, hub)
    return archive


def _reading(archive: Blueprint, hub: Hub) -> None:
    @archive.get("/api/archive")
    def listing():
        where, (limit, offset) = games_filter(), paging()
        with hub.lock:
            return jsonify(hub.archived().page(where, limit, offset))

    @archive.get("/api/archive/<game_id>")
    def game(game_id: str):
        with hub.lock:
            return jsonify(hub.archived().detail(game_id))

    @archive.get("/api/archive/players/<path:name>")
    def player(name: str):
        with hub.lock:
            return jsonify(hub.archived().player(name))


def _exports(archive: Blueprint, hub: Hub) -> None:
    @archive.get("/api/archive/plays.csv")
    def plays():
        where = games_filter()
        with hub.lock:
            text = hub.archived().plays_csv(where)
        return _download(text.encode("utf-8-sig"), "text/csv; charset=utf-8", "plays.csv")

    @archive.get("/api/archive/export.zip")
    def export():
        auth.admin_pin()
        with hub.lock:
            data = hub.archived().zip_bytes()
        return _download(data, "application/zip", "popcorn-companion-archive.zip")

    @archive.get("/api/archive/<game_id>/record")
    def record(game_id: str):
        with hub.lock:
            hub.archived().entry(game_id)
        auth.admin_pin()
        with hub.lock:
            text = hub.archived().record(game_id)
        return Response(text, mimetype="application/x-ndjson")


def _changes(archive: Blueprint, hub: Hub) -> None:
    @archive.post("/api/archive")
    def import_record():
        body = json_body()
        auth.admin_pin(body)
        text = body.get("record")
        if not isinstance(text, str) or not text.strip():
            raise TableError("BAD_REQUEST", '"record" must be the text of a game record '
                             "(JSON Lines).")
        with hub.lock:
            added = hub.archived().import_record(text)
        return jsonify(added), 201

    @archive.delete("/api/archive/<game_id>")
    def delete(game_id: str):
        body = json_object(optional=True)
        auth.admin_pin(body)  # the secret first: without it, nothing is said of the game
        with hub.lock:
            hub.archived().entry(game_id)
            hub.archived().delete(game_id)
        return jsonify({"ok": True, "deleted": game_id})


def games_filter() -> Filter:
    """The request's filters: ``game`` (a game's id) and ``player`` (a piece of a name, as
    :func:`~companion.table.archive.name_key` compares names); empty ones are none."""
    game = request.args.get("game", "").strip() or None
    player = name_key(request.args.get("player", "")) or None
    return Filter(game, player)


def paging() -> tuple[int, int]:
    """The request's ``limit`` (1 to :data:`MAX_PAGE`, :data:`PAGE` by default) and
    ``offset`` (0 to :data:`MAX_OFFSET`, 0 by default); ``BAD_REQUEST`` otherwise."""
    return (_integer("limit", PAGE, 1, MAX_PAGE), _integer("offset", 0, 0, MAX_OFFSET))


def _integer(name: str, default: int, low: int, high: int) -> int:
    text = request.args.get(name)
    if text is None or text == "":
        return default
    value = whole_number(text, high)
    if value is None or value < low:
        too_big = text.isascii() and text.isdigit()
        bound = (f"from {low} to {high}" if high < MAX_OFFSET or too_big
                 else f"of {low} or more")
        raise TableError("BAD_REQUEST", f"{name} must be a whole number {bound}",
                         params={"field": name})
    return value


def _download(data: bytes, mimetype: str, filename: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response
