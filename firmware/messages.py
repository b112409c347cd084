"""Protocol v1 as the reader speaks it: the messages it sends and the commands it accepts.

The hub's side and the full description are in ``docs/protocol.md``. The reader sends
``hello``, ``tag``, ``heartbeat`` and (MQTT only) ``status``, each one JSON object of at most
:data:`MAX_MESSAGE` bytes. It accepts ``ack``, ``feedback`` and ``resync``.

:func:`parse_command` is the only door for bytes coming from the hub: it never raises, and it
returns ``None`` for anything that is not a well-formed command addressed to this reader, so a
garbled line can never stop the firmware.
"""

try:
    import json
except ImportError:  # older MicroPython builds
    import ujson as json

VERSION = 1
"""The protocol version this firmware speaks."""
MAX_MESSAGE = 512
"""Largest message in bytes; over serial the newline counts."""
MAX_U32 = 0xFFFFFFFF
"""Boot ids and seqs are unsigned 32-bit integers."""
LEVELS = ("ok", "warn", "error")
"""The feedback levels the hub may ask for."""


def encode(obj):
    """A message as compact UTF-8 JSON bytes, without a newline."""
    return json.dumps(obj).encode()


def hello(reader, boot, fw, unacked):
    """The greeting after each (re)connection and each ``resync``.

    ``unacked`` is the highest seq still waiting for an ack (0 if none).
    """
    return encode({"v": VERSION, "type": "hello", "reader": reader, "boot": boot, "fw": fw,
                   "unacked": unacked})


def tag(reader, boot, seq, uid):
    """A tag newly placed on the pad; ``uid`` is lowercase hex."""
    return encode({"v": VERSION, "type": "tag", "reader": reader, "boot": boot, "seq": seq,
                   "uid": uid})


def heartbeat(reader, boot, uptime):
    """Alive; ``uptime`` in whole seconds since boot."""
    return encode({"v": VERSION, "type": "heartbeat", "reader": reader, "boot": boot,
                   "uptime": uptime})


def status(reader, state):
    """``online`` or ``offline``, for the retained MQTT status topic and the last will."""
    return encode({"v": VERSION, "type": "status", "reader": reader, "state": state})


def _u32(value):
    return type(value) is int and 0 <= value <= MAX_U32


def parse_command(data, reader):
    """A hub-to-reader command as a small dict, or ``None``; never raises.

    Accepted shapes (``reader``, when present, must be this reader's id):

    * ``{"type": "ack", "boot": B, "seq": S}``
    * ``{"type": "feedback", "level": "ok" | "warn" | "error", "seq": S or None}``
    * ``{"type": "resync"}``
    """
    try:
        if len(data) > MAX_MESSAGE:
            return None
        obj = json.loads(bytes(data).decode())
        if not isinstance(obj, dict) or obj.get("v") != VERSION or type(obj["v"]) is not int:
            return None
        if "reader" in obj and obj["reader"] != reader:
            return None
        kind = obj.get("type")
        if kind == "ack":
            boot, seq = obj.get("boot"), obj.get("seq")
            if _u32(boot) and _u32(seq):
                return {"type": "ack", "boot": boot, "seq": seq}
        elif kind == "feedback":
            level, seq = obj.get("level"), obj.get("seq")
            if level in LEVELS and (seq is None or _u32(seq)):
                return {"type": "feedback", "level": level, "seq": seq}
        elif kind == "resync":
            return {"type": "resync"}
    except Exception:  # noqa: BLE001 - bad bytes, bad JSON, deep nesting, no memory: ignore
        return None
    return None
