"""Protocols v1 and v2 as a reader speaks them: the messages it sends and the commands it accepts.

The hub's side and the full description are in ``docs/protocol.md``. A bag reader speaks
v1: it sends ``hello``, ``tag``, ``heartbeat`` and (MQTT only) ``status``, each one JSON
object of at most :data:`MAX_MESSAGE` bytes. A cinema mat speaks v2 (:data:`MAT_VERSION`):
the same ``hello``, ``heartbeat`` and ``status`` with ``"v": 2``, and ``zones`` (what lies
on one zone, in arrival order) instead of ``tag``. Both accept ``ack``, ``feedback`` and
``resync``, which the hub sends as v1 commands.

:func:`parse_command` is the only door for bytes coming from the hub: it never raises, and it
returns ``None`` for anything that is not a well-formed command addressed to this reader, so a
garbled line can never stop the firmware, nor be obeyed.

"Well-formed" is checked here, not left to ``json.loads``: MicroPython's is lenient. It
reads ``,`` and ``:`` as blanks, takes an unknown escape (a backslash before ``a``, say) as
the letter itself, and stops at a NUL byte, so ``{"v":1 "type":"resync"}``, a trailing
comma, or a NUL with noise after it all load as valid commands. :func:`flat_members`
checks the bytes against the JSON grammar first. Every command the hub sends is one
**flat** object (strings, numbers, ``true``, ``false``, ``null``; no nested object or
array), so that is all it accepts: one pass over at most :data:`MAX_MESSAGE` bytes, no
recursion, nothing kept.
"""

try:
    import json
except ImportError:  # older MicroPython builds
    import ujson as json

VERSION = 1
"""The protocol version of a bag reader, and of the hub's commands."""
MAT_VERSION = 2
"""The protocol version of a cinema mat."""
MAX_ZONE_TAGS = 16
"""A ``zones`` message lists at most this many tags."""
MAX_MESSAGE = 512
"""Largest message in bytes; over serial the newline counts."""
MAX_U32 = 0xFFFFFFFF
"""Boot ids and seqs are unsigned 32-bit integers."""
LEVELS = ("ok", "warn", "error")
"""The feedback levels the hub may ask for."""


def encode(obj):
    """A message as compact UTF-8 JSON bytes, without a newline."""
    return json.dumps(obj).encode()


def hello(reader, boot, fw, unacked, v=VERSION):
    """The greeting after each (re)connection and each ``resync``.

    ``unacked`` is the highest seq still waiting for an ack (0 if none); ``v`` the
    protocol version (2 for a mat).
    """
    return encode({"v": v, "type": "hello", "reader": reader, "boot": boot, "fw": fw,
                   "unacked": unacked})


def tag(reader, boot, seq, uid):
    """A tag newly placed on the pad; ``uid`` is lowercase hex."""
    return encode({"v": VERSION, "type": "tag", "reader": reader, "boot": boot, "seq": seq,
                   "uid": uid})


def encode_compact(obj):
    """A message as UTF-8 JSON bytes without a blank after ``,`` and ``:`` (the longest
    ``zones`` message needs the room: 16 ten-byte UIDs take 23 bytes each)."""
    try:
        return json.dumps(obj, separators=(",", ":")).encode()
    except TypeError:  # a json without separators: take the blanks out of its output
        return _unblank(json.dumps(obj)).encode()


def _unblank(text):
    """``text`` (JSON from ``json.dumps``) without the blanks outside its strings."""
    out = []
    quoted = escaped = False
    for c in text:
        if quoted:
            out.append(c)
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
        elif c != " ":
            out.append(c)
            quoted = c == '"'
    return "".join(out)


def zones(reader, boot, seq, zone, tags):
    """What lies on one zone of a mat now (protocol v2): ``tags`` are lowercase hex UIDs in
    the order they arrived; ``[]`` for an empty zone. A zone holding more than
    :data:`MAX_ZONE_TAGS` sends the newest ones and their ``count``: every change a hand
    makes is among them. Encoded compactly (:func:`encode_compact`): at its longest it is
    under 512 bytes."""
    msg = {"v": MAT_VERSION, "type": "zones", "reader": reader, "boot": boot, "seq": seq,
           "zone": zone, "tags": list(tags[-MAX_ZONE_TAGS:])}
    if len(tags) > MAX_ZONE_TAGS:
        msg["count"] = len(tags)
    return encode_compact(msg)


HEALTH_FIELDS = ("rssi", "supply_mv", "read_fail", "too_fast", "scan_ms")
"""The heartbeat's optional health fields, each sent only when the reader knows it:
``rssi`` (the Wi-Fi signal in dBm), ``supply_mv`` (the supply in millivolts), ``read_fail``
(RC522 reads that failed since boot), ``too_fast`` (taps too quick to count since boot) and,
from a mat only, ``scan_ms`` (how long its last full scan of every zone took)."""
MAX_SCAN_MS = 65535
"""``scan_ms`` is capped here, as protocol v2 says."""


def heartbeat(reader, boot, uptime, health=None, v=VERSION):
    """Alive; ``uptime`` in whole seconds since boot.

    ``health`` maps some of :data:`HEALTH_FIELDS` to integers; a field that is absent or
    ``None`` is left out (a reader on a cable has no ``rssi``), a count is capped at
    :data:`MAX_U32` and ``scan_ms`` at :data:`MAX_SCAN_MS`.
    """
    msg = {"v": v, "type": "heartbeat", "reader": reader, "boot": boot, "uptime": uptime}
    if health:
        for name in HEALTH_FIELDS:
            value = health.get(name)
            if type(value) is int:
                msg[name] = min(value, MAX_SCAN_MS if name == "scan_ms" else MAX_U32)
    return encode(msg)


def status(reader, state, v=VERSION):
    """``online`` or ``offline``, for the retained MQTT status topic and the last will."""
    return encode({"v": v, "type": "status", "reader": reader, "state": state})


def _u32(value):
    return type(value) is int and 0 <= value <= MAX_U32


# -- the strict shape of a command: one flat JSON object, byte by byte ---------------------

_BLANKS = (0x20, 0x09, 0x0A, 0x0D)  # the only whitespace JSON allows: space, tab, LF, CR
_ESCAPES = (0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74)  # after a backslash: " \ / b f n r t
_WORDS = (b"true", b"false", b"null")


def _at(data, i):
    """The byte at ``i``, or -1 past the end (so no caller needs its own bounds check)."""
    return data[i] if 0 <= i < len(data) else -1


def _skip(data, i):
    """The index of the first non-blank byte at or after ``i``."""
    while _at(data, i) in _BLANKS:
        i += 1
    return i


def _digit(c):
    return 0x30 <= c <= 0x39


def _hex(c):
    return _digit(c) or 0x61 <= c <= 0x66 or 0x41 <= c <= 0x46


def _some_digits(data, i):
    """The index after the digits that start at ``i``, or -1 if there is not even one."""
    end = i
    while _digit(_at(data, end)):
        end += 1
    return end if end > i else -1


def _string(data, i):
    """The index after the JSON string that starts at ``i``, or -1.

    A raw control byte (below 0x20) is refused, and so is a backslash before anything but
    JSON's eight escape letters (:data:`_ESCAPES`) or a ``u`` and four hex digits. Bytes from
    0x80 up pass; the caller's UTF-8 decoding judges them.
    """
    if _at(data, i) != 0x22:
        return -1
    i += 1
    end = len(data)
    while i < end:  # the bulk of a command's bytes: index directly, no call per byte
        c = data[i]
        if c == 0x22:
            return i + 1
        if c < 0x20:
            return -1
        if c == 0x5C:
            i += 1
            if _at(data, i) == 0x75:  # \u and four hex digits
                for _ in range(4):
                    i += 1
                    if not _hex(_at(data, i)):
                        return -1
            elif _at(data, i) not in _ESCAPES:
                return -1
        i += 1
    return -1  # no closing quote


def _number(data, i):
    """The index after the JSON number that starts at ``i``, or -1.

    ``-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?``: no leading zero, no ``+``,
    no bare ``.`` or ``e``, as JSON says and as MicroPython does not check.
    """
    if _at(data, i) == 0x2D:
        i += 1
    i = i + 1 if _at(data, i) == 0x30 else _some_digits(data, i)
    if i > 0 and _at(data, i) == 0x2E:
        i = _some_digits(data, i + 1)
    if i > 0 and _at(data, i) in (0x65, 0x45):
        i += 1
        if _at(data, i) in (0x2B, 0x2D):
            i += 1
        i = _some_digits(data, i)
    return i


def _scalar(data, i):
    """The index after the string, number, ``true``, ``false`` or ``null`` at ``i``, or -1.

    An object or an array is -1 too: no command of the hub holds one.
    """
    c = _at(data, i)
    if c == 0x22:
        return _string(data, i)
    if c == 0x2D or _digit(c):
        return _number(data, i)
    for word in _WORDS:
        if data[i:i + len(word)] == word:
            return i + len(word)
    return -1


def flat_members(data):
    """How many members ``data`` holds if it is exactly one flat JSON object, else -1.

    ``data`` is the bytes of a line or payload. It must be ``{``, then zero or more
    ``"key": value`` pairs separated by single commas, then ``}``, with only JSON's blanks
    around them and nothing after. Each value is a string, number, ``true``, ``false`` or
    ``null`` (see :func:`_scalar`). A trailing or missing comma, a missing colon, an
    unbalanced brace, a bad escape, a NUL or any other trailing byte gives -1. The count lets
    the caller see a repeated key, which ``json.loads`` would silently merge.
    """
    i = _skip(data, 0)
    if _at(data, i) != 0x7B:
        return -1
    i = _skip(data, i + 1)
    count = 0
    if _at(data, i) != 0x7D:
        while True:
            i = _string(data, i)
            if i < 0 or _at(data, _skip(data, i)) != 0x3A:
                return -1
            i = _scalar(data, _skip(data, _skip(data, i) + 1))
            if i < 0:
                return -1
            count += 1
            i = _skip(data, i)
            if _at(data, i) != 0x2C:
                break
            i = _skip(data, i + 1)
        if _at(data, i) != 0x7D:
            return -1
    return count if _skip(data, i + 1) == len(data) else -1


def parse_command(data, reader):
    """A hub-to-reader command as a small dict, or ``None``; never raises.

    ``data`` must first be one flat JSON object with no repeated key (:func:`flat_members`);
    only then is it decoded. Accepted shapes (``reader``, when present, must be this
    reader's id):

    * ``{"type": "ack", "boot": B, "seq": S}``
    * ``{"type": "feedback", "level": "ok" | "warn" | "error", "seq": S or None}``
    * ``{"type": "resync"}``
    """
    try:
        if len(data) > MAX_MESSAGE:
            return None
        data = bytes(data)
        members = flat_members(data)
        if members < 0:
            return None
        obj = json.loads(data.decode())
        if not isinstance(obj, dict) or len(obj) != members:
            return None
        if obj.get("v") != VERSION or type(obj["v"]) is not int:
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
