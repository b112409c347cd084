"""The Socket.IO side of the hub: the rooms a screen joins, and the pushes each room gets.

A client emits ``join`` with a table id to get that table's ``state`` pushes (the public
view), its ``alert`` pushes, ``handled`` (an alert dismissed or corrected: no screen shows it
again), ``identify`` (a tap the correction dialog asked for) and ``reader_health`` (one of
its readers has a new problem: a low battery, a weak signal, many failed reads);
``join_private`` with a player's token adds that player's ``private`` pushes (room
``<table>/p<seat>``); ``join_admin`` with the admin PIN adds the ``enroll`` pushes (room
:data:`ADMIN_ROOM`), which carry tag UIDs. Every client gets the ``readers`` pushes.
Nothing private is ever sent to a table's room. A refused join is an ``error`` event
``{"code", "params", "message"}`` and joins nothing.

The pushes come from the hub's notifier thread (:mod:`.pushes`): :func:`register` makes this
module the hub's listener.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask_socketio import SocketIO, emit, join_room
from socketio.packet import Packet

from companion.hub import auth
from companion.hub.hub import Hub
from companion.hub.pin_tries import TooManyTries
from companion.hub.pushes import Listener
from companion.table.table import Table

ADMIN_ROOM = "admin"
"""The Socket.IO room of clients that joined with the admin PIN: they get ``enroll`` pushes."""


class TextPacket(Packet):
    """A Socket.IO packet that is always text (JSON), the serializer the hub's server uses.

    The default packet walks every list and dict of an event's data to look for bytes
    before it encodes, so that it can send them as binary attachments. The hub never sends
    bytes, and a table's view is a tree of some thousand values: a py-spy profile of the
    hub at 400 tables caught the interpreter in that walk in 19% of its samples. Data
    holding bytes would now fail to encode as JSON instead of going out as an attachment."""

    uses_binary_events = False


PrivateRooms = set[tuple[str, int]]
"""The ``(table id, seat)`` pairs with a phone in their private room: only those get
``private`` pushes built."""


def register(socketio: SocketIO, hub: Hub) -> None:
    """Add the ``join``, ``join_private`` and ``join_admin`` handlers to ``socketio`` and
    tell it every push of ``hub`` from now on."""
    private_rooms: PrivateRooms = set()
    _table_joins(socketio, hub, private_rooms)
    _admin_join(socketio, hub)
    hub.listeners.append(pusher(socketio, hub, private_rooms))


def _table_joins(socketio: SocketIO, hub: Hub, private_rooms: PrivateRooms) -> None:
    @socketio.on("join")
    def join(data: Any):
        table_id = data.get("table") if isinstance(data, dict) else None
        table = hub.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            emit("error", {"code": "TABLE_NOT_FOUND", "params": {}, "message": "No such table."})
            return
        join_room(table.id)
        with hub.lock:
            state = {"table": table.id, "events": table.count, "view": table.view()}
        hub.store.sync()  # nothing is shown before it is durable (companion.readers.store)
        emit("state", state)

    @socketio.on("join_private")
    def join_private(data: Any):
        data = data if isinstance(data, dict) else {}
        table_id = data.get("table")
        table = hub.tables.get(table_id) if isinstance(table_id, str) else None
        seat = table.config.player_of_token(data.get("token")) if table else None
        if table is None or seat is None or seat != data.get("player"):
            emit("error", {"code": "WRONG_TOKEN", "params": {},
                           "message": "That is not this player's token."})
            return
        join_room(f"{table.id}/p{seat}")
        private_rooms.add((table.id, seat))
        with hub.lock:
            private = {"table": table.id, "view": table.private(seat)}
        hub.store.sync()
        emit("private", private)


def _admin_join(socketio: SocketIO, hub: Hub) -> None:
    @socketio.on("join_admin")
    def join_admin(data: Any):
        pin = data.get("admin_pin") if isinstance(data, dict) else None
        try:
            if not auth.check_admin(pin):
                emit("error", {"code": "WRONG_PIN", "params": {}, "message": auth.ADMIN_MESSAGE})
                return
        except TooManyTries as exc:
            emit("error", {**exc.to_dict(), "retry_after": exc.retry_after})
            return
        # Under the hub's lock, as a table's join sends its state: a tap taken after these
        # counts pushes its own after them, so a stale status never lands after a newer push.
        with hub.lock:
            join_room(ADMIN_ROOM)
            emit("admin", {**hub.enrollment.status(admin=True), "last": hub.enrollment.last})


def pusher(socketio: SocketIO, hub: Hub, private_rooms: PrivateRooms) -> Listener:
    """The hub listener that turns a notification into Socket.IO events: a table's view to
    its room and each private view to its seat's room (``state``), an ``alert``, a
    ``handled`` alert's id, an ``identify`` tap, a ``reader_health`` notice and a mat's
    ``mat_zones`` to the table's room, a replaced token's
    ``error`` (closing that seat's room), ``enroll`` to the admin room and ``readers`` to
    everyone."""
    def push(table_id: str, kind: str, payload: Any) -> Callable[[], None] | None:
        if kind == "state":
            table = hub.tables.get(table_id)
            return None if table is None else _state_push(socketio, hub, table, private_rooms)
        if kind in ("alert", "handled"):
            return lambda: socketio.emit(kind, {"table": table_id, "alert": payload},
                                         to=table_id)
        if kind in ("identify", "reader_health", "mat_zones"):
            return lambda: socketio.emit(kind, {"table": table_id, **payload}, to=table_id)
        if kind == "token":  # a seat's old token no longer opens its private pushes
            return lambda: _close_seat(socketio, table_id, payload, private_rooms)
        if kind == "enroll":  # a UID lets its holder forge taps: the admin room only
            return lambda: socketio.emit(kind, payload, to=ADMIN_ROOM)
        if kind == "readers":
            return lambda: socketio.emit(kind, payload)
        return None
    return push


def _state_push(socketio: SocketIO, hub: Hub, table: Table,
                private_rooms: PrivateRooms) -> Callable[[], None]:
    """Build a table's views now (its public view, each watched seat's private one); what
    sends them once they are durable (the notifier syncs the round first)."""
    started = time.monotonic()
    # under the lock: a tap's new state is in place before its batch commits, and a batch
    # that rolls back puts the old one back; no screen may see the one in between
    with hub.lock:
        events, view = table.count, table.view()
        privates = {seat: table.private(seat) for seat in range(len(table.config.players))
                    if (table.id, seat) in private_rooms}
    viewed = time.monotonic()

    def send() -> None:
        socketio.emit("state", {"table": table.id, "events": events, "view": view},
                      to=table.id)
        if hub.timing.on:
            hub.timing.push(table.id, events, started, viewed)
        for seat, private in privates.items():
            socketio.emit("private", {"table": table.id, "view": private},
                          to=f"{table.id}/p{seat}")
    return send


def _close_seat(socketio: SocketIO, table_id: str, seat: int,
                private_rooms: PrivateRooms) -> None:
    room = f"{table_id}/p{seat}"
    socketio.emit("error", {"code": "WRONG_TOKEN", "params": {}, "message": "This phone "
                            "link was replaced: scan the new QR code."}, to=room)
    socketio.close_room(room)
    private_rooms.discard((table_id, seat))

