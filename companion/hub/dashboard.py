"""What a screen loads before it opens a table: the page, its files, and the hub-wide facts.

``GET /``, ``/setup``, ``/table/<id>``, ``/table/<id>/replay``, ``/phone/<id>/<seat>``,
``/archive``, ``/archive/<id>`` and ``/archive/player/<name>`` all answer the one page
(``web/index.html``), which picks its screen from the address; ``GET /web/<name>`` serves its
modules and styles, and ``GET /games/<id>/<name>`` a game's own screens (from the game's
package), with ``max_age=0``: a browser checks again each time, so a hub that was updated
serves its new dashboard at once.

The JSON routes here are about the hub as a whole, not one table: the card catalog
(``/api/catalog``), the games it hosts (``/api/games``), whether it is up and how many tables
it holds (``/api/health``), and its readers (``/api/readers``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, send_from_directory

from companion.assets import web_dir
from companion.hub.hub import Hub
from companion.kit.game import GameKind


def blueprint(hub: Hub) -> Blueprint:
    """The page, its files and the hub-wide routes of ``hub``. The dashboard's folder is
    found here, once: a broken install fails at start, not on a request."""
    dashboard = Blueprint("dashboard", __name__)
    web = web_dir()

    @dashboard.get("/")
    @dashboard.get("/setup")
    @dashboard.get("/table/<table_id>")
    @dashboard.get("/table/<table_id>/replay")
    @dashboard.get("/phone/<table_id>/<int:seat>")
    @dashboard.get("/archive")
    @dashboard.get("/archive/<game_id>")
    @dashboard.get("/archive/player/<path:name>")
    def index(**_: Any):
        return send_from_directory(web, "index.html", max_age=0)

    @dashboard.get("/web/<path:name>")
    def web_file(name: str):
        return send_from_directory(web, name, max_age=0)

    @dashboard.get("/games/<game_id>/<path:name>")
    def game_file(game_id: str, name: str):
        game = hub.games.get(game_id)
        if game is None or game.screens is None:
            abort(404)
        return send_from_directory(game.screens.folder, name, max_age=0)

    @dashboard.get("/api/games")
    def games():
        return jsonify([game_info(g) for g in hub.games.values()])

    @dashboard.get("/api/health")
    def health():
        return jsonify({"ok": True, "tables": len(hub.tables)})

    @dashboard.get("/api/readers")
    def readers():
        with hub.lock:
            return jsonify(hub.reader_status())

    return dashboard


def game_info(game: GameKind[Any, Any]) -> dict[str, Any]:
    """What a screen needs of a hosted game: its ``id``, ``title`` (English, marked for the
    catalogs), player range, table ``options`` (a JSON Schema the setup form is built from),
    ``features`` (the optional parts its tables offer), ``words`` (the form's words for
    them: ``deal``, ``deal_manual``, ``hints``) and ``screens`` (where its own
    modules and styles are served, :class:`~companion.kit.screens.Screens`; none: the
    dashboard's generic screens)."""
    screens = {"styles": []} if game.screens is None else game.screens.urls(game.id)
    return {"id": game.id, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players, "options": game.options.schema,
            "features": game.features(), "words": _setup_words(game), "screens": screens}


def _setup_words(game: GameKind[Any, Any]) -> dict[str, str]:
    """The setup form's words of a game's optional parts (English, in the catalogs): "deal
    for us" and the table's own deal, and the hints option."""
    words = {}
    if game.dealing is not None and game.dealing.optional:
        words["deal"], words["deal_manual"] = game.dealing.description, game.dealing.manual
    if game.hints is not None:
        words["hints"] = game.hints.description
    return words
