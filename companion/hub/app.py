"""The hub's web face: the Flask app factory that wires the Blueprints and Socket.IO.

:func:`create_app` is the one entry point (``serve``, ``demo`` and the tests call it). Each
job is a Blueprint of its own module:

- :mod:`.dashboard`: the page, its files, and the hub-wide facts (catalog, games, health,
  readers);
- :mod:`.tables`: create and list tables, moves, undo, corrections, hints, "deal for us",
  closing, and a table's view, full state, record and scores;
- :mod:`.audits`: a player's bag audit, from its start to its fixes;
- :mod:`.phones`: a player's private view, and phone links with their QR codes;
- :mod:`.tags`: the tag registry and enrollment;
- :mod:`.archive`: the archive of finished games, its players' pages, imports and exports;
- :mod:`.replay`: the replay board's reads (an archived game, or a live table's moves so
  far), position by position, with the game's charts;
- :mod:`.analyses`: a finished game's analysis (a game with an advisor), run once as a job
  and kept;
- :mod:`.errors`: every refusal as JSON ``{"code", "params", "message"}`` with a 4xx status:
  400 for a malformed request, 403 for a wrong PIN or token, 404 for an unknown table, 409
  for a move the rules refuse;
- :mod:`.advice_route`: the seating advisor and the table screen's shortcuts (Popcorn);
- :mod:`.openapi`: ``GET /api/openapi.json``, the API's OpenAPI 3.1 document, built from
  each route's contract (:mod:`.operations`, :mod:`.models`, and each game's);
- :mod:`.sockets`: the Socket.IO rooms and the pushes they get (threading mode).

:mod:`.server` runs the app on gunicorn (``serve``, ``demo``).

``docs/api.md`` lists every route and event with an example. Around the routes: bodies are
bounded in size and nesting (:mod:`.bodies`), wrong PINs are throttled (:mod:`.pin_tries`),
browsers get a strict Content Security Policy while other sites' pages may not change
anything (:mod:`.browser`), and messages are in the request's language (:mod:`.language`).
"""

from __future__ import annotations

import secrets

from flask import Flask
from flask_socketio import SocketIO

from companion.hub import (
    analyses,
    archive,
    audits,
    dashboard,
    errors,
    openapi,
    phones,
    replay,
    sockets,
    tables,
    tags,
)
from companion.hub.bodies import MAX_BODY
from companion.hub.browser import protect
from companion.hub.hub import Hub
from companion.hub.language import setup_language
from companion.hub.pin_tries import PinTries
from companion.i18n.texts import TextBook


def create_app(hub: Hub, admin_pin: str | None = None, lang: str | None = None,
               host: str | None = None, async_mode: str = "threading",
               ) -> tuple[Flask, SocketIO]:
    """The Flask app and its Socket.IO server around a started :class:`Hub`; ``lang`` is the
    default language of requests and devices that name none (English if not given);
    ``host`` is the address the server listens on (``0.0.0.0``: every interface), from
    which phone links take the machine's network address (:func:`.network.link_base`);
    ``async_mode`` is Flask-SocketIO's, after the server (:func:`.server.async_mode`)."""
    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.config["admin_pin"] = admin_pin or f"{secrets.randbelow(10**6):06d}"
    app.config["listen_host"] = host
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.extensions["pin_tries"] = PinTries()
    protect(app)
    setup_language(app, lang, TextBook.of({gid: game.texts for gid, game in hub.games.items()}))
    app.extensions["game_of_table"] = lambda table_id: (
        hub.tables[table_id].game.id if table_id in hub.tables else None)
    # same-origin clients only (the default); Engine.IO's own cap on a message is 1 MB
    socketio = SocketIO(app, async_mode=async_mode, serializer=sockets.TextPacket)
    app.register_blueprint(dashboard.blueprint(hub))
    dashboard.compress(app)
    app.register_blueprint(errors.blueprint())
    app.register_blueprint(tables.blueprint(hub))
    app.register_blueprint(audits.blueprint(hub))
    app.register_blueprint(phones.blueprint(hub))
    app.register_blueprint(tags.blueprint(hub))
    app.register_blueprint(archive.blueprint(hub))
    app.register_blueprint(replay.blueprint(hub))
    app.register_blueprint(analyses.blueprint(hub))
    for game in hub.games.values():  # each game's own routes (Popcorn's advisor, catalog)
        if game.routes is not None:
            app.register_blueprint(game.routes.blueprint(hub))
    app.register_blueprint(openapi.blueprint(hub))
    sockets.register(socketio, hub)

    @app.after_request
    def durable_first(response):  # nothing is told before it is durable (readers/store.py)
        hub.store.sync()
        return response

    return app, socketio
