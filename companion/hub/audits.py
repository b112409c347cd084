"""The audit routes: a player taps every piece of their bag, and the table mends what differs.

``POST /api/tables/<id>/audits`` starts an audit of one player's bag (``{"player": N}``) or
of every bag in turn (``{"all": true}``): it needs the table's PIN, or that player's token
(a phone audits only its own bag). While it runs, taps on that player's reader are audit
taps (:mod:`companion.table.audit`), never draws. ``GET .../audits/current`` shows the
report so far: anyone may read what the table's screen shows, and the audited player's
token adds what only their phone may see (B Movies' token values). ``POST .../done`` ends
the tapping, ``POST .../accept`` applies the fixes as one batch (ending the tapping first
if needed), ``DELETE .../current`` drops the audit; each needs the PIN or the audited
player's token.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.hub import auth
from companion.hub.bodies import json_body, json_object
from companion.hub.hub import Hub
from companion.kit.errors import TableError
from companion.table.table import Table


def blueprint(hub: Hub) -> Blueprint:
    """The audit routes of ``hub``."""
    audits = Blueprint("audits", __name__)

    @audits.post("/api/tables/<table_id>/audits")
    def start(table_id: str):
        body = json_body()
        seats = _seats(hub.table(table_id), body)
        by = _secret(hub, table_id, body, seats[0], whole=len(seats) > 1)
        hub.start_audit(table_id, seats, by)
        return _answer(hub, table_id, body, 201)

    @audits.get("/api/tables/<table_id>/audits/current")
    def current(table_id: str):
        return _answer(hub, table_id, None)

    @audits.post("/api/tables/<table_id>/audits/current/done")
    def done(table_id: str):
        body = _audited(hub, table_id)
        hub.audit_step(table_id, Table.finish_audit)
        return _answer(hub, table_id, body)

    @audits.post("/api/tables/<table_id>/audits/current/accept")
    def accept(table_id: str):
        _audited(hub, table_id)
        with hub.lock:
            run = hub.table(table_id).current_audit()
            report = hub.table(table_id).audit_report(private=False).to_dict()
        applied, following = hub.audit_step(table_id, Table.accept_audit)
        return jsonify({"audit": run.id, "player": run.player, "applied": applied,
                        "report": report,
                        "next": None if following is None else following.summary()})

    @audits.delete("/api/tables/<table_id>/audits/current")
    def drop(table_id: str):
        _audited(hub, table_id)
        hub.audit_step(table_id, Table.drop_audit)
        return jsonify({"ok": True})

    return audits


def _seats(table: Table, body: dict[str, Any]) -> list[Any]:
    """The seats to audit, in order: one player's, or every seat (``all``) from ``player``
    (default the first seat) on."""
    count = len(table.config.players)
    if body.get("all") is True:
        first = body.get("player", 0)
        if type(first) is not int or not 0 <= first < count:
            raise TableError("BAD_SEAT", f"player must be a seat number from 0 to {count - 1}")
        return [(first + i) % count for i in range(count)]
    if "player" not in body:
        raise TableError("BAD_REQUEST", 'give the "player" whose bag to audit, or "all": true')
    return [body["player"]]


def _secret(hub: Hub, table_id: str, body: dict[str, Any] | None, seat: Any,
            whole: bool = False) -> str:
    """Who may act on ``seat``'s audit: that player's phone (its token), else the table's
    PIN. A whole-table check needs the PIN. Returns ``phone`` or ``tablet``."""
    if not whole and auth.token_seat(hub, table_id, body) == seat:
        return "phone"
    auth.table_pin(hub, table_id, body)
    return "tablet"


def _audited(hub: Hub, table_id: str) -> dict[str, Any] | None:
    """The request's body, once it carried the right to act on the audit under way. With
    no audit under way, a request must still show a secret of the table (the PIN, or a
    seat's token) before it learns so (``404 NO_AUDIT``): the secret is checked first."""
    body = json_object(optional=True)
    with hub.lock:
        run = hub.table(table_id).audit
    if run is None:
        if auth.token_seat(hub, table_id, body) is None:
            auth.table_pin(hub, table_id, body)
        with hub.lock:
            run = hub.table(table_id).current_audit()  # NO_AUDIT, unless one just began
    _secret(hub, table_id, body, run.player)
    return body


def _answer(hub: Hub, table_id: str, body: dict[str, Any] | None, status: int = 200):
    """The audit under way as the asker may see it: its phone's report for the audited
    player's token, else the table screen's."""
    with hub.lock:
        table = hub.table(table_id)
        run = table.current_audit()
        private = auth.token_seat(hub, table_id, body) == run.player
        return jsonify(table.audit_view(private=private)), status
