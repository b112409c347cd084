"""The hub's web face: a Flask app factory, the REST API and Socket.IO rooms.

Every route answers JSON. Errors are ``{"code", "params", "message"}`` with a 4xx status: 400
for a malformed request, 403 for a wrong PIN or token, 404 for an unknown table, 409 for a
move the rules refuse. The ``message`` is in the request's language (``?lang=`` or
``Accept-Language``, see :mod:`.language`). ``docs/api.md`` lists every route with an example.

Socket.IO (threading mode): the rooms a screen joins and the pushes they get are in
:mod:`.sockets`; the error handlers in :mod:`.errors`.

A player's private view, phone links, their QR codes and the re-issue of a seat's token live
in :mod:`.phones`; the hub keeps tokens only as salted hashes, so the create answer is the one
place they appear.

Around the routes: bodies are bounded in size and nesting (:mod:`.bodies`), wrong PINs are
throttled (:mod:`.pin_tries`), and browsers get a strict Content Security Policy while other
sites' pages may not change anything (:mod:`.browser`).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import flask.cli
from flask import Flask, Response, jsonify, request, send_from_directory
from flask_socketio import SocketIO

from companion.assets import web_dir
from companion.cards import action_meanings
from companion.engine.moves import Move
from companion.games import DEFAULT, GameKind
from companion.games.base import SECRET_EITHER, SECRET_PIN, SECRET_TOKEN
from companion.hub.advice_route import (
    register_advice,
    register_gains,
    register_placement,
    register_suggestion,
)
from companion.table.table import MAX_BATCH, TableError
from companion.table.views import catalog_json

from . import auth, errors, phones, sockets, tags
from .bodies import MAX_BODY, json_object
from .browser import protect
from .hub import Hub
from .language import setup_language
from .phones import phone_links, secret_answer
from .pin_tries import PinTries


def quiet_server() -> None:
    """Silence the development server's banner and request log (the commands print the URL)."""
    flask.cli.show_server_banner = lambda *args, **kwargs: None
    logging.getLogger("werkzeug").setLevel(logging.ERROR)


def create_app(hub: Hub, admin_pin: str | None = None,
               lang: str | None = None) -> tuple[Flask, SocketIO]:
    """The Flask app and its Socket.IO server around a started :class:`Hub`; ``lang`` is the
    default language of requests and devices that name none (English if not given)."""
    quiet_server()
    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.config["admin_pin"] = admin_pin or f"{secrets.randbelow(10**6):06d}"
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.extensions["pin_tries"] = PinTries()
    protect(app)
    setup_language(app, lang)
    # same-origin clients only (the default); Engine.IO's own cap on a message is 1 MB
    socketio = SocketIO(app, async_mode="threading")
    app.register_blueprint(errors.blueprint())
    _routes(app, hub)
    app.register_blueprint(phones.blueprint(hub))
    app.register_blueprint(tags.blueprint(hub))
    register_advice(app, hub)
    register_placement(app, hub)
    register_gains(app, hub)
    register_suggestion(app, hub)
    sockets.register(socketio, hub)
    return app, socketio


def _body() -> dict[str, Any]:
    body = json_object()
    assert body is not None
    return body


def _parsed_moves(body: dict[str, Any], game: GameKind) -> list[Move]:
    """The body's one ``move``, or its ``moves`` (a batch): parsed, not yet checked by rules.

    A malformed move in a batch is refused with the batch's ``index`` of it.
    """
    if ("move" in body) == ("moves" in body):
        raise TableError("BAD_MOVE", 'The body needs either "move" (one move) or "moves" '
                         "(a list of moves made all or none), not both or neither.", 400)
    if "move" in body:
        return [_parsed(game, body["move"], None)]
    moves = body["moves"]
    if not isinstance(moves, list) or not 1 <= len(moves) <= MAX_BATCH:
        raise TableError("BAD_MOVE", f'"moves" must be a list of 1 to {MAX_BATCH} moves.', 400)
    return [_parsed(game, move, index) for index, move in enumerate(moves)]


def _parsed(game: GameKind, data: Any, index: int | None) -> Move:
    try:
        return game.move_from_dict(data)
    except game.violation as exc:
        where = "" if index is None else f"Move {index + 1} of the batch: "
        raise TableError(exc.code, where + exc.message, 400, index, exc.params) from exc


def _authorize(hub: Hub, table_id: str, body: dict[str, Any], move: Move,
               index: int | None) -> None:
    """The secret a move needs (its game says which, :meth:`GameKind.secret`): its player's
    token, the table PIN, or either; a refusal in a batch names the move's index."""
    table = hub.table(table_id)
    try:
        secret = table.game.secret(table.state, move)
        seat = auth.token_seat(hub, table_id, body) if secret else None
        if secret == SECRET_PIN or (secret == SECRET_EITHER and seat is None):
            auth.table_pin(hub, table_id, body)  # one person at the tablet, with the PIN
        elif secret in (SECRET_TOKEN, SECRET_EITHER) and seat != move.player:
            raise TableError("WRONG_TOKEN", "Only that player's phone may make this move.",
                             403)
    except TableError as exc:
        if index is not None and exc.index is None:
            exc.index = index
        raise


def _routes(app: Flask, hub: Hub) -> None:
    web = web_dir()  # found once: a broken install fails at start, not on a request

    @app.get("/")
    @app.get("/setup")
    @app.get("/table/<table_id>")
    @app.get("/phone/<table_id>/<int:seat>")
    def index(**_: Any):
        return send_from_directory(web, "index.html", max_age=0)

    @app.get("/web/<path:name>")
    def web_file(name: str):
        return send_from_directory(web, name, max_age=0)

    @app.get("/api/catalog")
    def catalog():
        return jsonify(catalog_json(hub.catalog, action_meanings()))

    @app.get("/api/games")
    def games():
        return jsonify([{"id": g.id, "title": g.title, "min_players": g.min_players,
                         "max_players": g.max_players} for g in hub.games.values()])

    @app.get("/api/health")
    def health():
        return jsonify({"ok": True, "tables": len(hub.tables)})

    @app.get("/api/tables")
    def tables():
        with hub.lock:
            return jsonify([t.info() for t in hub.tables.values()])

    @app.post("/api/tables")
    def create():
        body = _body()
        table, pin, tokens = hub.create_table(body.get("players"), body.get("readers"),
                                              body.get("first_player", 0), body.get("name"),
                                              body.get("deal_seed"), body.get("hints", True),
                                              body.get("game", DEFAULT), body)
        phones = phone_links(table, dict(enumerate(tokens)), request.host_url)
        return secret_answer({**table.info(), "pin": pin, "tokens": tokens,
                              "phones": phones}, 201)

    @app.get("/api/tables/<table_id>")
    def get_table(table_id: str):
        with hub.lock:
            table = hub.table(table_id)
            return jsonify({**table.info(), "view": table.view(),
                            "alerts": list(table.alerts)})

    @app.post("/api/tables/<table_id>/moves")
    def post_move(table_id: str):
        body = _body()
        table = hub.table(table_id)
        moves = _parsed_moves(body, table.game)
        for index, move in enumerate(moves):
            _authorize(hub, table_id, body, move, None if "move" in body else index)
        if "move" in body:
            hub.submit(table_id, moves[0])
            applied: Any = moves[0].to_dict()
        else:
            hub.submit_batch(table_id, moves)
            applied = [move.to_dict() for move in moves]
        with hub.lock:
            return jsonify({"applied": applied, "view": table.view()})

    @app.post("/api/tables/<table_id>/undo")
    def undo(table_id: str):
        auth.table_pin(hub, table_id, json_object(optional=True))
        hub.undo(table_id)
        return jsonify({"ok": True, "events": hub.table(table_id).count})

    @app.post("/api/tables/<table_id>/correct")
    def correct(table_id: str):
        body = _body()
        auth.table_pin(hub, table_id, body)
        hub.correct(table_id, body.get("pawn"), body.get("zone"), body.get("player"))
        return jsonify({"ok": True})

    @app.post("/api/tables/<table_id>/hints")
    def hints(table_id: str):
        body = _body()
        auth.table_pin(hub, table_id, body)
        hub.set_hints(table_id, body.get("hints"))
        return jsonify({"ok": True, "hints": hub.table(table_id).hints})

    @app.post("/api/tables/<table_id>/deal")
    def deal(table_id: str):
        body = _body()
        auth.table_pin(hub, table_id, body)
        hub.deal(table_id, body.get("seed"))
        return jsonify({"ok": True})

    @app.post("/api/tables/<table_id>/close")
    def close(table_id: str):
        body = json_object(optional=True)
        hub.table(table_id)
        if auth.wants_admin(body):  # a table whose PIN is lost is closed by the admin
            auth.admin_pin(body)
        else:
            auth.table_pin(hub, table_id, body)
        hub.close_table(table_id)
        return jsonify({"ok": True, "table": hub.table(table_id).info()})

    @app.get("/api/tables/<table_id>/record")
    def record(table_id: str):
        auth.table_pin(hub, table_id)
        with hub.lock:
            text = hub.table(table_id).record_text()
        return Response(text, mimetype="application/x-ndjson")

    @app.get("/api/tables/<table_id>/state")
    def full_state(table_id: str):
        auth.table_pin(hub, table_id)
        with hub.lock:
            table = hub.table(table_id)
            table.check_open_state()
            return jsonify({"events": table.count, "state": table.state.to_dict()})

    @app.get("/api/tables/<table_id>/scores")
    def scores(table_id: str):
        with hub.lock:
            return jsonify(hub.table(table_id).scores())

    @app.get("/api/readers")
    def readers():
        with hub.lock:
            return jsonify(hub.reader_status())

