"""What a screen loads before it opens a table: the page, its files, and the hub-wide facts.

``GET /``, ``/setup``, ``/table/<id>``, ``/table/<id>/replay``, ``/phone/<id>/<seat>``,
``/archive``, ``/archive/<id>`` and ``/archive/player/<name>`` all answer the one page
(``web/index.html``), which picks its screen from the address. The page is answered
``no-cache`` (with an ``ETag``) and names its modules and styles under the hub's version:
``GET /v/<version>/web/<name>`` serves them, and ``GET /v/<version>/games/<id>/<name>`` a game's
own screens (from the game's package), cached for a year (:mod:`.webfiles`). The unversioned
``/web/<name>`` and ``/games/<id>/<name>`` still answer, with ``max_age=0``, for whatever names
them. Text responses are compressed when the browser accepts it (:func:`compress`).

The JSON routes here are about the hub as a whole, not one table: the card catalog
(``/api/catalog``), the games it hosts (``/api/games``), whether it is up and how many tables
it holds (``/api/health``), and its readers (``/api/readers``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, jsonify, request, send_from_directory
from flask_compress import Compress

from companion.assets import web_dir
from companion.hub.hub import Hub
from companion.hub.webfiles import IMMUTABLE, Folders, Page
from companion.kit.game import GameKind

COMPRESSED = ["text/html", "text/css", "text/javascript", "application/javascript",
              "application/json", "image/svg+xml"]
"""The types of response compressed: the dashboard's text and the API's JSON."""
COMPRESS_MIN_SIZE = 512
"""Below this many bytes a response goes as it is: compressing would save less than a packet."""


def compress(app: Flask) -> None:
    """Compress ``app``'s text and JSON responses of at least :data:`COMPRESS_MIN_SIZE` bytes
    with gzip (or brotli, which browsers ask for over HTTPS only) when the request accepts
    it. Socket.IO's own responses never reach Flask (Engine.IO answers them, and compresses
    its long-polling itself)."""
    app.config.update(COMPRESS_MIMETYPES=COMPRESSED, COMPRESS_MIN_SIZE=COMPRESS_MIN_SIZE,
                      COMPRESS_ALGORITHM=["br", "gzip"], COMPRESS_STREAMS=False,
                      COMPRESS_LEVEL=6, COMPRESS_BR_LEVEL=4)
    Compress(app)


def blueprint(hub: Hub) -> Blueprint:
    """The page, its files and the hub-wide routes of ``hub``. The dashboard's folder is
    found here, once, and the version of its files and the games' hashed: a broken install
    fails at start, not on a request."""
    dashboard = Blueprint("dashboard", __name__)
    folders = hosted_folders(hub)
    page = Page(folders, lambda path: first_screen(hub, folders, path))

    @dashboard.get("/")
    @dashboard.get("/setup")
    @dashboard.get("/table/<table_id>")
    @dashboard.get("/table/<table_id>/replay")
    @dashboard.get("/phone/<table_id>/<int:seat>")
    @dashboard.get("/archive")
    @dashboard.get("/archive/<game_id>")
    @dashboard.get("/archive/player/<path:name>")
    def index(**_: Any):
        response = Response(page.html(request.path), mimetype="text/html")
        response.cache_control.no_cache = True
        response.add_etag()
        return response.make_conditional(request)

    @dashboard.get("/web/<path:name>")
    def web_file(name: str):
        return whole(send_from_directory(folders.web, name, max_age=0))

    @dashboard.get("/games/<game_id>/<path:name>")
    def game_file(game_id: str, name: str):
        return whole(send_from_directory(game_folder(folders, game_id), name, max_age=0))

    @dashboard.get("/v/<version>/web/<path:name>")
    def versioned_web_file(version: str, name: str):
        return versioned(folders, version, folders.web, name)

    @dashboard.get("/v/<version>/games/<game_id>/<path:name>")
    def versioned_game_file(version: str, game_id: str, name: str):
        return versioned(folders, version, game_folder(folders, game_id), name)

    @dashboard.get("/api/games")
    def games():
        return jsonify([game_info(g, folders.game_base(g.id)) for g in hub.games.values()])

    @dashboard.get("/api/health")
    def health():
        return jsonify({"ok": True, "tables": len(hub.tables)})

    @dashboard.get("/api/readers")
    def readers():
        with hub.lock:
            return jsonify(hub.reader_status())

    return dashboard


def hosted_folders(hub: Hub) -> Folders:
    """The dashboard's folder and the folders of the hosted games that bring screens."""
    return Folders.of(web_dir(), {gid: game.screens.folder for gid, game in hub.games.items()
                                  if game.screens is not None})


def game_folder(folders: Folders, game_id: str) -> Path:
    """The folder of a game's screens; 404 for a game without any."""
    if game_id not in folders.games:
        abort(404)
    return folders.games[game_id]


def versioned(folders: Folders, version: str, folder: Path, name: str) -> Response:
    """A file under a version: kept a year when it is the hub's version; an older page's
    version gets today's file with no such promise (its bytes may differ from that
    version's)."""
    response = send_from_directory(folder, name, max_age=0)
    if version == folders.version and response.status_code == 200:
        response.headers["Cache-Control"] = IMMUTABLE
        del response.headers["Expires"]
    return whole(response)


def whole(response: Response) -> Response:
    """A file's response read into memory, so it can be compressed (Flask-Compress leaves a
    streamed file alone; the dashboard's files are small)."""
    response.direct_passthrough = False
    response.make_sequence()
    return response


def first_screen(hub: Hub, folders: Folders, path: str) -> tuple[list[str], list[str]]:
    """The game modules and styles the screen at ``path`` starts with: a table's or a
    phone's screen of its game, if the game brings one (versioned addresses)."""
    parts = path.strip("/").split("/")
    role = {"table": "table", "phone": "phone"}.get(parts[0]) if len(parts) in (2, 3) else None
    if role is None or (role == "table" and len(parts) == 3):
        return [], []
    table = hub.tables.get(parts[1])
    screens = None if table is None else table.game.screens
    if table is None or screens is None:
        return [], []
    urls = screens.urls(table.game.id, folders.game_base(table.game.id))
    return ([urls[role]] if role in urls else []), list(urls["styles"])


def game_info(game: GameKind[Any, Any], base: str | None = None) -> dict[str, Any]:
    """What a screen needs of a hosted game: its ``id``, ``title`` (English, marked for the
    catalogs), player range, table ``options`` (a JSON Schema the setup form is built from),
    ``features`` (the optional parts its tables offer), ``words`` (the form's words for
    them: ``deal``, ``deal_manual``, ``hints``, ``play_on``) and ``screens`` (where its own
    modules and styles are served, under ``base`` (the hub's versioned folder of the game;
    default ``/games/<id>/``), :class:`~companion.kit.screens.Screens`; none: the
    dashboard's generic screens)."""
    screens = {"styles": []} if game.screens is None else game.screens.urls(game.id, base)
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
        if game.hints.play_on_description:
            words["play_on"] = game.hints.play_on_description
    return words
