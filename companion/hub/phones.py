"""Phones: each player's private screen, its link and QR code, and the routes a phone uses.

``GET /api/tables/<table>/players/<seat>/private`` is a player's private view (what only that
player may see; its game says what, :meth:`~companion.kit.game.GameKind.private_view`), and
needs that seat's token.

A phone link is ``<hub>/phone/<table>/<seat>#token=<token>``: the token rides in the
fragment, which a browser never sends, so it appears in no request line and no log. The hub
keeps only the tokens' salted hashes (:func:`companion.table.table.hash_token`) on disk, so a
link is shown in the answer that makes its token: the table's creation, and
``POST /api/tables/<id>/players/<seat>/token``, which gives a seat a new token (with the
table's PIN) and so ends the old link. The running hub also remembers the tokens it made
(:attr:`~companion.hub.hub.Hub.phone_tokens`, memory only), so
``POST /api/tables/<id>/players/<seat>/link`` (with the table's PIN) shows a seat's current
link again without ending it, until the hub restarts (then ``409 LINK_NOT_KEPT``: make a new
one). Every such answer carries the link's QR code as SVG text, drawn here with
:mod:`segno`, and ``Cache-Control: no-store``: the tablet shows the code as a ``data:``
image, so the token is never in a URL the hub serves either.

A link starts with the address the tablet opened, or with the machine's address on the
network when the tablet opened a loopback one and the hub listens on the network
(:func:`link_base`): a ``127.0.0.1`` link would open the phone itself.

The SVG is two ``<path>`` elements with presentation attributes: no ``style`` and no script,
so it shows under the hub's Content Security Policy, served or inlined.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import quote

import segno
from flask import Blueprint, Response, current_app, jsonify, request

from companion.hub import auth
from companion.hub.bodies import json_object
from companion.hub.hub import Hub
from companion.hub.network import link_base as network_base
from companion.kit.errors import TableError
from companion.kit.numbers import whole_number
from companion.table.table import Table

QR_ERROR_LEVEL = "m"
"""Reed-Solomon level M: 15 % of the code may be smudged or glared and still read."""
QR_BORDER = 4
"""The quiet zone, in modules: the four the QR standard asks for."""


def phone_url(base: str, table_id: str, seat: int, token: str) -> str:
    """The link that opens a player's private screen (``base`` is the hub's address)."""
    return (f"{base.rstrip('/')}/phone/{quote(table_id, safe='')}/{seat}"
            f"#token={quote(token, safe='')}")


def qr_svg(text: str) -> str:
    """``text`` as a QR code in SVG: black on a white square, one unit per module, with no
    ``style`` attribute (the page sizes it)."""
    buffer = io.BytesIO()
    segno.make(text, error=QR_ERROR_LEVEL).save(
        buffer, kind="svg", xmldecl=False, border=QR_BORDER, dark="#000", light="#fff")
    return buffer.getvalue().decode()


def phone_links(table: Table, tokens: dict[int, str], base: str) -> list[dict[str, Any]]:
    """One ``{"seat", "name", "url", "qr_svg"}`` per seat in ``tokens``."""
    out = []
    for seat, token in sorted(tokens.items()):
        url = phone_url(base, table.id, seat, token)
        out.append({"seat": seat, "name": table.config.players[seat], "url": url,
                    "qr_svg": qr_svg(url)})
    return out


def link_base() -> str:
    """The start of the phone links of this request's answer: the address the device
    opened, or the machine's network address for a loopback one when the hub listens on
    the network (:func:`companion.hub.network.link_base`)."""
    return network_base(request.host_url, current_app.config.get("listen_host"))


def secret_answer(body: dict[str, Any], status: int = 200) -> tuple[Response, int]:
    """A JSON answer holding a PIN or tokens: no browser or proxy may keep a copy."""
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response, status


def parse_seat(text: str, table: Table) -> int:
    """A seat number from a URL, or a 400 ``BAD_SEAT`` error naming the seats there are."""
    last = len(table.config.players) - 1
    seat = whole_number(text, last)  # not "²" or "٣", nor 5,000 digits
    if seat is None:
        raise TableError("BAD_SEAT", f"{text[:20]!r} is not a seat of this table: seats are "
                         f"numbered 0 to {last}, in the order the players were given.")
    return seat


def blueprint(hub: Hub) -> Blueprint:
    """The phone routes of ``hub``: a player's private view, a seat's new token, and a
    seat's current link shown again."""
    phones = Blueprint("phones", __name__)

    @phones.get("/api/tables/<table_id>/players/<int:seat>/private")
    def private(table_id: str, seat: int):
        if auth.token_seat(hub, table_id) != seat:
            raise TableError("WRONG_TOKEN", "That is not this player's token.", 403)
        with hub.lock:
            return jsonify(hub.table(table_id).private(seat))

    @phones.post("/api/tables/<table_id>/players/<seat>/token")
    def reissue(table_id: str, seat: str):
        table = hub.table(table_id)  # 404 before the PIN is looked at
        body = json_object(optional=True)
        number = parse_seat(seat, table)
        auth.table_pin(hub, table_id, body)
        token = hub.reissue_token(table_id, number)
        (link,) = phone_links(table, {number: token}, link_base())
        return secret_answer({**link, "token": token})

    @phones.post("/api/tables/<table_id>/players/<seat>/link")
    def show_again(table_id: str, seat: str):
        table = hub.table(table_id)  # 404 before the PIN is looked at
        body = json_object(optional=True)
        number = parse_seat(seat, table)
        auth.table_pin(hub, table_id, body)
        token = hub.phone_token(table_id, number)
        (link,) = phone_links(table, {number: token}, link_base())
        return secret_answer(link)

    return phones
