"""The hub's Socket.IO packets are text: an event is encoded as the default packet encodes
it, without the default's walk through the data for bytes (:class:`sockets.TextPacket`)."""

from __future__ import annotations

from pathlib import Path

from socketio import packet

from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.hub.sockets import TextPacket
from tests.hub.client import READERS


def test_an_event_is_encoded_as_the_default_packet_encodes_it() -> None:
    data = ["state", {"table": "t1", "events": 3, "view": {"cinemas": [{"bag": [1, 2]}],
                                                         "title": "Café ★"}}]
    ours, theirs = TextPacket(packet.EVENT, data=data), packet.Packet(packet.EVENT, data=data)
    assert ours.packet_type == theirs.packet_type == packet.EVENT
    assert ours.encode() == theirs.encode()


def test_data_is_never_walked_for_bytes() -> None:
    """The default packet finds the bytes and turns the event into a binary one; ours keeps
    it a text event (the hub sends no bytes)."""
    data = ["state", {"view": {"deep": [[b"\x00"]]}}]
    assert packet.Packet(packet.EVENT, data=data).packet_type == packet.BINARY_EVENT
    assert TextPacket(packet.EVENT, data=data).packet_type == packet.EVENT


def test_the_hub_serves_text_packets(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub.sqlite", readers=READERS).start()
    try:
        _, socketio = create_app(hub, "246810")
        assert socketio.server.packet_class is TextPacket
    finally:
        hub.stop()
