"""The table routes: create and list tables, play moves, and read a table's view, log and scores.

A table is created without a secret (``POST /api/tables``) and its answer is the one place its
PIN and its players' tokens appear. After that, every change but a move and an alert's
dismissal needs the table's PIN: undo, a pawn correction (and the tap it may ask for), seating
hints, "deal for us", closing (which the admin PIN may also do). A move
(``POST /api/tables/<id>/moves``) needs the secret its game asks for it
(:meth:`~companion.kit.game.GameKind.secret`): its player's token, the PIN, either, or
nothing; a batch (``"moves"``) is applied all or none, and a refusal names the move's
``index``. A request with a player token is that player's phone: each of its moves, and the
card it moves to another slot (``POST .../choice``), must be that seat's (``403
WRONG_TOKEN`` otherwise), and a token that is no seat's is refused, never taken for the
tablet (:func:`~companion.hub.auth.phone_seat`). The full state and the game record need
the PIN too, as they show what the public view hides; the view, the scores and the list of
tables need nothing.

Checks come in the order ``docs/api.md`` gives: the body (400: a JSON object), the table
(404) and, for a move, the move's form (400: the body decoded with its model, then each move
read by the table's game), then the secret (403, or 429 after too many wrong PINs), then the
request itself (400 or 409): its body decoded with the route's model (:mod:`.models`, a
field's type or a required one missing: ``BAD_REQUEST`` naming the field), then what the
table checks. Refusals are raised and answered by :mod:`.errors`.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from flask import Blueprint, Response, jsonify

from companion.games import GameKind
from companion.hub import auth, models
from companion.hub.bodies import decode, json_body, json_object
from companion.hub.hub import Hub, request_options
from companion.hub.phones import link_base, phone_links, secret_answer
from companion.kit.errors import TableError
from companion.kit.game import SECRET_EITHER, SECRET_PIN, SECRET_TOKEN, GameMove
from companion.table.table import Table


def blueprint(hub: Hub) -> Blueprint:
    """The table routes of ``hub``: the list and creation, moves, and the PIN-held changes
    and readings of one table."""
    tables = Blueprint("tables", __name__)
    _listing(tables, hub)
    _moves(tables, hub)
    _changes(tables, hub)
    _readings(tables, hub)
    return tables


def _listing(tables: Blueprint, hub: Hub) -> None:
    @tables.get("/api/tables")
    def list_tables():
        with hub.lock:
            return jsonify([t.info() for t in hub.tables.values()])

    @tables.post("/api/tables")
    def create():
        raw = json_body()
        body = decode(models.CreateTable, raw)
        table, pin, tokens = hub.create_table(body.players, body.readers, body.first_player,
                                              body.name, body.deal_seed, body.hints, body.game,
                                              request_options(body.options, raw), body.mats,
                                              body.play_on)
        phones = phone_links(table, dict(enumerate(tokens)), link_base())
        return secret_answer({**table.info(), "pin": pin, "tokens": tokens,
                              "phones": phones}, 201)

    @tables.get("/api/tables/<table_id>")
    def get_table(table_id: str):
        with hub.lock:
            table = hub.table(table_id)
            return jsonify({**table.info(), "view": table.view(),
                            "alerts": list(table.alerts)})


def _moves(tables: Blueprint, hub: Hub) -> None:
    @tables.post("/api/tables/<table_id>/moves")
    def post_move(table_id: str):
        raw = json_body()
        table = hub.table(table_id)
        body = move_body(raw)
        moves = parsed_moves(body, table.game)
        phone = auth.phone_seat(hub, table_id, raw)
        one = body.move is not msgspec.UNSET
        for index, move in enumerate(moves):
            authorize(hub, table_id, raw, move, None if one else index, phone)
        source = "tablet" if phone is None else "phone"
        if one and not body.forced and not body.go_on:
            hub.submit(table_id, moves[0], source)
            applied: Any = moves[0].to_dict()
        else:
            done = hub.submit_batch(table_id, moves, source, body.forced, body.go_on)
            applied = [move.to_dict() for move in done]
        with hub.lock:
            return jsonify({"applied": applied, "view": table.view()})


    @tables.post("/api/tables/<table_id>/choice")
    def rechoose(table_id: str):
        raw = json_body()  # no secret: like the move it replaces, anyone at the tablet...
        phone = auth.phone_seat(hub, table_id, raw)  # ...but a phone moves only its own card
        hub.rechoose(table_id, decode(models.ChoiceBody, raw).index, phone)
        table = hub.table(table_id)
        with hub.lock:
            return jsonify({"ok": True, "view": table.view()})


def _changes(tables: Blueprint, hub: Hub) -> None:
    @tables.post("/api/tables/<table_id>/undo")
    def undo(table_id: str):
        auth.table_pin(hub, table_id, json_object(optional=True))
        hub.undo(table_id)
        return jsonify({"ok": True, "events": hub.table(table_id).count})

    @tables.post("/api/tables/<table_id>/correct")
    def correct(table_id: str):
        raw = json_body()
        table = auth.table_pin(hub, table_id, raw)
        body = decode(models.CorrectBody, raw)
        hub.correct(table_id, {**game_correction(table, raw), "alert": body.alert})
        return jsonify({"ok": True})

    @tables.post("/api/tables/<table_id>/mats/<int:seat>/accept")
    def accept_mat(table_id: str, seat: int):
        auth.table_pin(hub, table_id, json_object(optional=True))
        handled = hub.accept_mat(table_id, seat)
        return jsonify({"ok": True, "handled": list(handled),
                        "events": hub.table(table_id).count})

    @tables.post("/api/tables/<table_id>/identify")
    def identify(table_id: str):
        raw = json_body()
        auth.table_pin(hub, table_id, raw)
        on = decode(models.IdentifyBody, raw).on
        return jsonify({"ok": True, "seconds": hub.identify(table_id, on)})

    @tables.post("/api/tables/<table_id>/alerts/<int:alert_id>/dismiss")
    def dismiss(table_id: str, alert_id: int):
        hub.dismiss_alert(table_id, alert_id)  # no PIN: like a move, anyone at the tablet
        return jsonify({"ok": True, "events": hub.table(table_id).count})

    @tables.post("/api/tables/<table_id>/hints")
    def hints(table_id: str):
        raw = json_body()
        auth.table_pin(hub, table_id, raw)
        body = decode(models.HintsBody, raw)
        play_on = None if body.play_on is msgspec.UNSET else body.play_on
        hub.set_hints(table_id, body.hints, play_on)
        table = hub.table(table_id)
        return jsonify({"ok": True, "hints": table.hints, "play_on": table.play_on})

    @tables.post("/api/tables/<table_id>/deal")
    def deal(table_id: str):
        raw = json_body()
        auth.table_pin(hub, table_id, raw)
        hub.deal(table_id, decode(models.DealBody, raw).seed)
        return jsonify({"ok": True})

    @tables.post("/api/tables/<table_id>/close")
    def close(table_id: str):
        body = json_object(optional=True)
        hub.table(table_id)
        if auth.wants_admin(body):  # a table whose PIN is lost is closed by the admin
            auth.admin_pin(body)
        else:
            auth.table_pin(hub, table_id, body)
        hub.close_table(table_id)
        return jsonify({"ok": True, "table": hub.table(table_id).info()})


def _readings(tables: Blueprint, hub: Hub) -> None:
    @tables.get("/api/tables/<table_id>/record")
    def record(table_id: str):
        auth.table_pin(hub, table_id)
        with hub.lock:
            build = hub.table(table_id).record_later()
        return Response(build(), mimetype="application/x-ndjson")

    @tables.get("/api/tables/<table_id>/state")
    def full_state(table_id: str):
        auth.table_pin(hub, table_id)
        with hub.lock:  # a live state is never changed in place: serialized outside
            table = hub.table(table_id)
            table.check_open_state()
            events, state = table.count, table.state
        return jsonify({"events": events, "state": state.to_dict()})

    @tables.get("/api/tables/<table_id>/scores")
    def scores(table_id: str):
        with hub.lock:
            return jsonify(hub.table(table_id).scores())


_BATCH_ITEM = re.compile(r"moves\[(\d+)\]")


def move_body(body: dict[str, Any]) -> models.MoveBody:
    """A move request's body decoded (:class:`~.models.MoveBody`): a field of the wrong type
    is ``BAD_MOVE`` naming it, and a batch's move that is not an object names its ``index``
    too."""
    try:
        return decode(models.MoveBody, body, code="BAD_MOVE")
    except TableError as exc:
        item = _BATCH_ITEM.match(exc.params.get("field", ""))
        exc.index = int(item[1]) if item else None
        raise


def parsed_moves(body: models.MoveBody, game: GameKind) -> list[GameMove]:
    """The body's one ``move``, or its ``moves`` (a batch): parsed, not yet checked by rules.

    A malformed move in a batch is refused with the batch's ``index`` of it.
    """
    if (body.move is msgspec.UNSET) == (body.moves is msgspec.UNSET):
        raise TableError("BAD_MOVE", 'The body needs either "move" (one move) or "moves" '
                         "(a list of moves made all or none), not both or neither.", 400)
    if body.move is not msgspec.UNSET:
        return [_parsed(game, body.move, None)]
    assert body.moves is not msgspec.UNSET
    return [_parsed(game, move, index) for index, move in enumerate(body.moves)]


def game_correction(table: Table, body: dict[str, Any]) -> dict[str, Any]:
    """The fields of a correction request that are the table's game's (all but the PIN and
    the ``alert``), decoded by the game's own model when it gives one
    (:meth:`~companion.kit.parts.Corrections.model`: a wrong type is ``BAD_REQUEST``
    naming the field); the game reads them as they came."""
    fields = {key: value for key, value in body.items() if key not in ("pin", "alert")}
    model = None if table.game.corrections is None else table.game.corrections.model()
    if model is not None:
        decode(model, fields, secrets=frozenset())
    return fields


def _parsed(game: GameKind, data: Any, index: int | None) -> GameMove:
    try:
        return game.move_from_dict(data)
    except game.violation as exc:
        where = "" if index is None else f"Move {index + 1} of the batch: "
        # GameKind.violation is typed type[Exception]; every game's has code, message, params
        raise TableError(exc.code, where + exc.message, 400, index,  # type: ignore[attr-defined]
                         exc.params) from exc  # type: ignore[attr-defined]


def authorize(hub: Hub, table_id: str, body: dict[str, Any], move: GameMove,
              index: int | None, phone: int | None = None) -> None:
    """Refuse ``move`` unless the request may make it: a phone's request (``phone``, the
    seat of its token: :func:`~companion.hub.auth.phone_seat`) only its own player's moves,
    and any request the secret its game says the move needs (:meth:`GameKind.secret`): its
    player's token, the table PIN, or either. A refusal in a batch names the move's
    ``index``."""
    table = hub.table(table_id)
    try:
        auth.own_move(hub, table_id, phone, move.player)
        secret = table.game.secret(table.state, move)
        if secret == SECRET_PIN or (secret == SECRET_EITHER and phone is None):
            auth.table_pin(hub, table_id, body)  # one person at the tablet, with the PIN
        elif secret in (SECRET_TOKEN, SECRET_EITHER) and phone != move.player:
            raise TableError("WRONG_TOKEN", "Only that player's phone may make this move.",
                             403)
    except TableError as exc:
        if index is not None and exc.index is None:
            exc.index = index
        raise
