"""The secrets a request may carry: a table's PIN, the hub's admin PIN, a player's token.

Checks run in the order ``docs/api.md`` gives: the table is looked up first (404), then the
secret is checked (403, or 429 when wrong PINs from this address, or at this PIN, have been
too many; see :mod:`.pin_tries`). Only a PIN that was sent and is wrong counts as a try:
a missing PIN, a player token and a right PIN never do. Player tokens are 128-bit random
strings, which no one can guess by trying, so they are not throttled.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import current_app, request

from companion.hub.hub import Hub
from companion.hub.pin_tries import PinTries
from companion.kit.errors import TableError
from companion.table.table import Table

ADMIN_MESSAGE = "This needs the hub's admin PIN (printed by serve)."


def tries() -> PinTries:
    """The app's counter of wrong PINs."""
    return current_app.extensions["pin_tries"]


def table_pin(hub: Hub, table_id: str, body: dict[str, Any] | None = None) -> Table:
    """The table, once the request has shown its PIN (header ``X-Table-Pin`` or ``"pin"``)."""
    table = hub.table(table_id)
    pin = request.headers.get("X-Table-Pin") or (body or {}).get("pin")
    if pin is None:
        raise TableError("PIN_REQUIRED", "This needs the table's PIN.", 403)
    if not tries().verify(request.remote_addr or "", f"table:{table.id}",
                          lambda: table.config.check_pin(str(pin))):
        raise TableError("WRONG_PIN", "That is not this table's PIN.", 403)
    return table


def admin_pin(body: dict[str, Any] | None = None) -> None:
    """Refuse the request unless it carries the admin PIN (``X-Admin-Pin`` or
    ``"admin_pin"``, a string)."""
    pin = request.headers.get("X-Admin-Pin") or (body or {}).get("admin_pin")
    if not check_admin(pin):
        raise TableError("WRONG_PIN", ADMIN_MESSAGE, 403)


def check_admin(pin: Any) -> bool:
    """Whether ``pin`` is the admin PIN, counting a wrong string as a try of this request's
    address (also for a Socket.IO event, whose request is the connection's)."""
    if not isinstance(pin, str):
        return False
    expected = current_app.config["admin_pin"]
    return tries().verify(request.remote_addr or "", "admin",
                          lambda: secrets.compare_digest(pin.encode(), expected.encode()))


def wants_admin(body: dict[str, Any] | None) -> bool:
    """Whether the request offers the admin PIN rather than a table's."""
    return "X-Admin-Pin" in request.headers or "admin_pin" in (body or {})


def sent_token(body: dict[str, Any] | None = None) -> Any:
    """The player token the request carries (``X-Player-Token``, ``?token=`` or ``"token"``
    in the body), or None."""
    return (request.headers.get("X-Player-Token") or request.args.get("token")
            or (body or {}).get("token"))


def token_seat(hub: Hub, table_id: str, body: dict[str, Any] | None = None) -> int | None:
    """The seat whose token the request carries (see :func:`sent_token`), or None (no
    token, or one that is no seat's)."""
    return hub.table(table_id).config.player_of_token(sent_token(body))


def phone_seat(hub: Hub, table_id: str, body: dict[str, Any] | None = None) -> int | None:
    """The seat of the phone that sent the request, or None when it carries no token (the
    tablet). A token that is no seat's of this table (mistyped, of another table, or
    replaced by a new link) is refused: ``403 WRONG_TOKEN``, never read as the tablet."""
    token = sent_token(body)
    if token is None:
        return None
    seat = hub.table(table_id).config.player_of_token(token)
    if seat is None:
        raise TableError("WRONG_TOKEN", "That is not a player token of this table: open "
                         "your own phone link again.", 403)
    return seat


def own_move(hub: Hub, table_id: str, phone: int | None, player: int | None) -> None:
    """Refuse a phone's request about another player's pieces: with a token (``phone`` its
    seat), ``player`` must be that seat (a move naming no player, a reveal, is the
    table's). Without a token (``phone`` None) there is nothing to refuse here."""
    if phone is None or player == phone:
        return
    names = hub.table(table_id).config.players
    mine = names[phone] if 0 <= phone < len(names) else "?"
    whose = (f"{names[player]}'s" if isinstance(player, int) and 0 <= player < len(names)
             else "the table's")
    raise TableError("WRONG_TOKEN", f"This phone is {mine}'s: it may only make {mine}'s "
                     f"moves, and this one is {whose}.", 403,
                     params={"phone": phone, "player": player})
