"""Reader wire protocol, versions 1 and 2: the messages, their strict parser, their encoder.

Every message is one JSON object with ``"v"`` and a ``"type"``. Over USB serial each message
is one line (UTF-8, at most :data:`MAX_MESSAGE` bytes with the newline); over MQTT it is one
message payload. The full description, with examples, is ``docs/protocol.md``.

Reader to hub: ``hello``, ``tag``, ``heartbeat``, and (MQTT only, retained) ``status``; a
cinema mat (version 2) also ``zones``: what lies on one of its zones now, in the order it
arrived. Hub to reader: ``ack``, ``feedback``, ``resync`` (always version 1).

:func:`parse` never raises on bad input: it returns a :class:`Rejection` with a stable
reason code from :data:`REASONS`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

VERSION = 1
"""The protocol version of the hub's commands and of a bag reader's messages."""
MAT_VERSION = 2
"""The protocol version of a cinema mat: version 1 and the ``zones`` message."""
VERSIONS = (VERSION, MAT_VERSION)
"""The versions the hub reads (a v1 bag reader and a v2 mat share a table)."""
MAX_ZONE = 7
"""A mat's zones are numbered 0 to this."""
MAX_ZONE_TAGS = 16
"""The most tags one ``zones`` message lists (16 ten-byte UIDs fit in 512 bytes)."""
MAX_MESSAGE = 512
"""Largest message in bytes, the serial newline included."""
MAX_SEQ = 2**32 - 1
"""Sequence numbers and boot ids are unsigned 32-bit integers."""
FEEDBACK_LEVELS = ("ok", "warn", "error")
"""What the hub can ask the reader's LED and buzzer to show."""
UID_BYTES = (4, 7, 10)
"""ISO 14443A UID lengths: single, double and triple size."""
RSSI_RANGE = (-127, 0)
"""A heartbeat's ``rssi``: the Wi-Fi signal in dBm, as the radios report it."""
SUPPLY_MV_MAX = 65535
"""A heartbeat's ``supply_mv`` is 0 to this many millivolts (no reader's supply comes near)."""
HEALTH_FIELDS = ("rssi", "supply_mv", "read_fail", "too_fast", "scan_ms")
"""The heartbeat's optional health fields (``docs/protocol.md``, "heartbeat")."""
READER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
"""Reader ids: 1 to 32 characters, letters, digits, ``_ . -``; safe in an MQTT topic."""

REASONS: dict[str, str] = {
    "TOO_LONG": "the message is longer than 512 bytes",
    "NOT_UTF8": "the bytes are not valid UTF-8",
    "NOT_JSON": "the text is not JSON",
    "NOT_OBJECT": "the JSON is not an object",
    "UNKNOWN_VERSION": "the 'v' field names a protocol version this hub does not speak "
                       "(a zones message needs 2)",
    "UNKNOWN_TYPE": "the 'type' field is not a reader-to-hub message type",
    "MISSING_FIELD": "a required field is absent",
    "BAD_FIELD": "a field has the wrong type or an out-of-range value",
    "BAD_UID": "the UID is not 4, 7 or 10 bytes of hex",
    "UNKNOWN_READER": "the reader id was not configured for this hub",
    "READER_MISMATCH": "the reader id in the message differs from the one of its topic or port",
    "RATE_LIMITED": "the reader sends faster than any person can tap",
    "BAD_ZONE": "a zones message's zone is not 0 to 7, or its tags not at most 16 UIDs, "
                "each once",
    "WRONG_KIND": "a zones message from a bag reader, or a tag from a mat",
}
"""Every rejection reason code, with its meaning."""


@dataclass(frozen=True, slots=True)
class Hello:
    """A reader (re)connected: its firmware, boot id and the last seq it holds unacked."""

    reader: str
    boot: int
    fw: str
    unacked: int


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag newly placed on the pad; ``uid`` is lowercase hex."""

    reader: str
    boot: int
    seq: int
    uid: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The reader is alive; ``uptime`` in seconds since boot.

    The health fields are optional, ``None`` when the reader did not send them (an older
    firmware, a reader on a cable has no ``rssi``, a board that measures no supply):
    ``rssi`` the Wi-Fi signal in dBm, ``supply_mv`` the supply voltage in millivolts,
    ``read_fail`` the RC522 reads that failed since boot and ``too_fast`` the taps too
    quick to count since boot.
    """

    reader: str
    boot: int
    uptime: int
    rssi: int | None = None
    supply_mv: int | None = None
    read_fail: int | None = None
    too_fast: int | None = None
    scan_ms: int | None = None


@dataclass(frozen=True, slots=True)
class Zones:
    """What lies on one zone of a mat now: ``tags`` (lowercase hex UIDs) in the order they
    arrived, the first set down first. A state, not an event: the hub compares it with the
    last state it kept for that zone, so a resent or late one never plays a move twice."""

    reader: str
    boot: int
    seq: int
    zone: int
    tags: tuple[str, ...]
    count: int = -1
    """How many tags lie on the zone: more than :attr:`tags` lists when it holds more than
    :data:`MAX_ZONE_TAGS` (``tags`` is then the newest ones); -1 (not sent) is ``len(tags)``."""

    def __post_init__(self) -> None:
        if self.count < 0:
            object.__setattr__(self, "count", len(self.tags))


Event = Tag | Zones
"""What a reader numbers with ``seq`` and the hub stores, acks and applies in order."""


@dataclass(frozen=True, slots=True)
class Status:
    """Availability, published retained on MQTT; the last will says ``offline``."""

    reader: str
    state: str


Message = Hello | Tag | Zones | Heartbeat | Status


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why a message was refused: a code from :data:`REASONS` and a detail for the log."""

    code: str
    detail: str
    reader: str | None = None


def parse(data: bytes, *, max_size: int = MAX_MESSAGE) -> Message | Rejection:
    """Parse one message (without its newline). Never raises."""
    if len(data) > max_size:
        return Rejection("TOO_LONG", f"{len(data)} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Rejection("NOT_UTF8", str(exc))
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return Rejection("NOT_JSON", str(exc)[:80])
    if not isinstance(obj, dict):
        return Rejection("NOT_OBJECT", type(obj).__name__)
    reader = obj.get("reader") if isinstance(obj.get("reader"), str) else None
    version = obj.get("v")
    kind = obj.get("type")
    if version not in VERSIONS or type(version) is not int or (
            kind == "zones" and version != MAT_VERSION):
        return Rejection("UNKNOWN_VERSION", f"v={version!r}", reader)
    builder = _BUILDERS.get(kind) if isinstance(kind, str) else None
    if builder is None:
        return Rejection("UNKNOWN_TYPE", f"type={kind!r}", reader)
    try:
        return builder(obj)
    except _FieldError as exc:
        return Rejection(exc.code, exc.detail, reader)


class _FieldError(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def _field(obj: dict[str, Any], name: str, kind: type) -> Any:
    if name not in obj:
        raise _FieldError("MISSING_FIELD", name)
    value = obj[name]
    if type(value) is not kind:
        raise _FieldError("BAD_FIELD", f"{name} must be {kind.__name__}")
    return value


def _count(obj: dict[str, Any], name: str, low: int = 0) -> int:
    value = _field(obj, name, int)
    if not low <= value <= MAX_SEQ:
        raise _FieldError("BAD_FIELD", f"{name} out of range")
    return value


def _reader(obj: dict[str, Any]) -> str:
    value = _field(obj, "reader", str)
    if not READER_ID.match(value):
        raise _FieldError("BAD_FIELD", "reader id")
    return value


def _only(obj: dict[str, Any], allowed: set[str]) -> None:
    extra = set(obj) - allowed - {"v", "type"}
    if extra:
        raise _FieldError("BAD_FIELD", f"unexpected field {sorted(extra)[0]!r}")


def normalize_uid(value: Any) -> str:
    """A UID as lowercase hex without separators; raises ``ValueError`` if it is not one."""
    if not isinstance(value, str):
        raise ValueError("uid must be a string")
    text = value.replace(":", "").replace("-", "").lower()
    if len(text) not in tuple(2 * n for n in UID_BYTES) or not all(
            c in "0123456789abcdef" for c in text):
        raise ValueError(f"uid {value!r} is not 4, 7 or 10 bytes of hex")
    return text


def _tag(obj: dict[str, Any]) -> Tag:
    _only(obj, {"reader", "boot", "seq", "uid"})
    reader, boot, seq = _reader(obj), _count(obj, "boot"), _count(obj, "seq", 1)
    try:
        uid = normalize_uid(_field(obj, "uid", str))
    except ValueError as exc:
        raise _FieldError("BAD_UID", str(exc)) from exc
    return Tag(reader, boot, seq, uid)


def _hello(obj: dict[str, Any]) -> Hello:
    _only(obj, {"reader", "boot", "fw", "unacked"})
    fw = _field(obj, "fw", str)
    if len(fw) > 32:
        raise _FieldError("BAD_FIELD", "fw too long")
    return Hello(_reader(obj), _count(obj, "boot"), fw, _count(obj, "unacked"))


def _optional(obj: dict[str, Any], name: str, low: int, high: int) -> int | None:
    if name not in obj:
        return None
    value = _field(obj, name, int)
    if not low <= value <= high:
        raise _FieldError("BAD_FIELD", f"{name} must be from {low} to {high}")
    return value


def _heartbeat(obj: dict[str, Any]) -> Heartbeat:
    _only(obj, {"reader", "boot", "uptime", *HEALTH_FIELDS})
    return Heartbeat(_reader(obj), _count(obj, "boot"), _count(obj, "uptime"),
                     rssi=_optional(obj, "rssi", *RSSI_RANGE),
                     supply_mv=_optional(obj, "supply_mv", 0, SUPPLY_MV_MAX),
                     read_fail=_optional(obj, "read_fail", 0, MAX_SEQ),
                     too_fast=_optional(obj, "too_fast", 0, MAX_SEQ),
                     scan_ms=_optional(obj, "scan_ms", 0, SUPPLY_MV_MAX))


def _zones(obj: dict[str, Any]) -> Zones:
    _only(obj, {"reader", "boot", "seq", "zone", "tags", "count"})
    reader, boot, seq = _reader(obj), _count(obj, "boot"), _count(obj, "seq", 1)
    zone, tags = _field(obj, "zone", int), _field(obj, "tags", list)
    if not 0 <= zone <= MAX_ZONE:
        raise _FieldError("BAD_ZONE", f"zone {zone} is not 0 to {MAX_ZONE}")
    if len(tags) > MAX_ZONE_TAGS:
        raise _FieldError("BAD_ZONE", f"{len(tags)} tags, more than {MAX_ZONE_TAGS}")
    try:
        uids = tuple(normalize_uid(uid) for uid in tags)
    except ValueError as exc:
        raise _FieldError("BAD_UID", str(exc)) from exc
    if len(set(uids)) != len(uids):
        raise _FieldError("BAD_ZONE", "a UID listed twice")
    count = _optional(obj, "count", 0, MAX_SEQ)
    if count is not None and (count < len(uids) or
                              (count > len(uids) and len(uids) < MAX_ZONE_TAGS)):
        raise _FieldError("BAD_ZONE", f"count {count} with {len(uids)} tags listed")
    return Zones(reader, boot, seq, zone, uids, len(uids) if count is None else count)


def _status(obj: dict[str, Any]) -> Status:
    _only(obj, {"reader", "state"})
    state = _field(obj, "state", str)
    if state not in ("online", "offline"):
        raise _FieldError("BAD_FIELD", "state must be online or offline")
    return Status(_reader(obj), state)


_BUILDERS: dict[str, Callable[[dict[str, Any]], Message]] = {
    "tag": _tag, "zones": _zones, "hello": _hello, "heartbeat": _heartbeat, "status": _status}


# -- encoding ------------------------------------------------------------------------------


def encode(obj: dict[str, Any]) -> bytes:
    """Compact JSON bytes of a message, without a newline."""
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


def ack(reader: str, boot: int, seq: int) -> dict[str, Any]:
    """Hub to reader: every seq up to ``seq`` of this boot is stored; forget them."""
    return {"v": VERSION, "type": "ack", "reader": reader, "boot": boot, "seq": seq}


def feedback(reader: str, level: str, seq: int | None = None) -> dict[str, Any]:
    """Hub to reader: show ``ok``, ``warn`` or ``error`` (LED and beep) for a tap."""
    if level not in FEEDBACK_LEVELS:
        raise ValueError(f"feedback level must be one of {FEEDBACK_LEVELS}")
    msg: dict[str, Any] = {"v": VERSION, "type": "feedback", "reader": reader, "level": level}
    if seq is not None:
        msg["seq"] = seq
    return msg


def resync(reader: str | None = None) -> dict[str, Any]:
    """Hub to reader: send ``hello`` again, then every unacked event."""
    msg: dict[str, Any] = {"v": VERSION, "type": "resync"}
    if reader is not None:
        msg["reader"] = reader
    return msg


def tag(reader: str, boot: int, seq: int, uid: str) -> dict[str, Any]:
    """Reader to hub: a tag event (used by virtual readers and tests)."""
    return {"v": VERSION, "type": "tag", "reader": reader, "boot": boot, "seq": seq, "uid": uid}


def zones(reader: str, boot: int, seq: int, zone: int, tags: list[str]) -> dict[str, Any]:
    """Mat to hub: what lies on ``zone`` now, in the order it arrived (version 2): the
    newest :data:`MAX_ZONE_TAGS` of ``tags``, and their ``count`` when there are more."""
    msg = {"v": MAT_VERSION, "type": "zones", "reader": reader, "boot": boot, "seq": seq,
           "zone": zone, "tags": list(tags)[-MAX_ZONE_TAGS:]}
    if len(tags) > MAX_ZONE_TAGS:
        msg["count"] = len(tags)
    return msg


def hello(reader: str, boot: int, fw: str, unacked: int,
          version: int = VERSION) -> dict[str, Any]:
    """Reader to hub: the greeting after (re)connecting or a ``resync`` (a mat's is
    ``version`` 2)."""
    return {"v": version, "type": "hello", "reader": reader, "boot": boot, "fw": fw,
            "unacked": unacked}


def heartbeat(reader: str, boot: int, uptime: int, **health: int | None) -> dict[str, Any]:
    """Reader to hub: alive, with any of the health fields (:data:`HEALTH_FIELDS`) given
    and not ``None``."""
    unknown = set(health) - set(HEALTH_FIELDS)
    if unknown:
        raise ValueError(f"not a heartbeat field: {sorted(unknown)[0]}")
    msg: dict[str, Any] = {"v": VERSION, "type": "heartbeat", "reader": reader, "boot": boot,
                           "uptime": uptime}
    msg.update({name: value for name, value in health.items() if value is not None})
    return msg


def status(reader: str, state: str) -> dict[str, Any]:
    """Reader availability for the retained MQTT status topic (and its last will)."""
    return {"v": VERSION, "type": "status", "reader": reader, "state": state}


def parse_command(data: bytes) -> dict[str, Any] | None:
    """Parse a hub-to-reader message on the reader side; None if it is not a valid v1 one."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        return None
    return obj if obj.get("type") in ("ack", "feedback", "resync") else None
