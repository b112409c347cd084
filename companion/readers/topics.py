"""MQTT topic names of the reader protocol: ``popcorn/<table>/reader/<reader>/<kind>``."""

from __future__ import annotations

PREFIX = "popcorn"
"""First level of every topic."""
KINDS = ("event", "status", "cmd")
"""``event`` (reader to hub, QoS 1), ``status`` (retained, last will), ``cmd`` (hub to reader)."""


def topic(table: str, reader: str, kind: str) -> str:
    """The topic of one reader's ``event``, ``status`` or ``cmd`` messages."""
    if kind not in KINDS:
        raise ValueError(f"unknown topic kind {kind!r}")
    return f"{PREFIX}/{table}/reader/{reader}/{kind}"


def subscription(table: str, kind: str) -> str:
    """The wildcard topic for one kind of message from every reader of a table."""
    return topic(table, "+", kind)


def split(name: str) -> tuple[str, str, str] | None:
    """``(table, reader, kind)`` of a protocol topic, or None if it is not one."""
    parts = name.split("/")
    if len(parts) != 5 or parts[0] != PREFIX or parts[2] != "reader" or parts[4] not in KINDS:
        return None
    return parts[1], parts[3], parts[4]
