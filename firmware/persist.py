"""The boot id: a counter in a small flash file that changes at every start.

Protocol v1 names every tag event by ``(reader, boot, seq)``, with seq starting again at 1 in
each boot, and the hub drops an event whose name it already stored. So a boot id must never
come back: :func:`next_boot` reads the last one, adds one, and writes the new value **before**
the firmware sends anything with it.

The write is safe against a power cut: the new value goes to ``<file>.tmp``, which is then
renamed over the old file (an atomic replace on LittleFS, the file system of the ESP32 and
Pico W ports). A cut before the rename leaves the old file, whose next value was never used,
so using it again is harmless. If neither file can be read (first start, or a damaged
flash), the boot id starts from a random 32-bit number instead of 1, so that a reader whose
file was lost does not repeat the ids the hub already knows.
"""

import os

try:
    import json
except ImportError:
    import ujson as json

MASK = 0xFFFFFFFF
"""Boot ids are unsigned 32-bit integers and wrap around."""


def _random32():
    try:
        raw = os.urandom(4)
        return raw[0] | raw[1] << 8 | raw[2] << 16 | raw[3] << 24
    except (AttributeError, NotImplementedError):
        import random

        return random.getrandbits(32)


def read_boot(path):
    """The boot id stored at ``path`` (or its temp file), or ``None`` if none is readable."""
    for name in (path, path + ".tmp"):
        try:
            with open(name) as f:
                value = json.load(f).get("boot")
            if type(value) is int and 0 <= value <= MASK:
                return value
        except Exception:  # noqa: BLE001 - missing, half written, not JSON: try the next
            continue
    return None


def write_boot(path, boot):
    """Store ``boot`` at ``path``: write a temp file, then rename it over the old one."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps({"boot": boot}))
    try:
        os.rename(tmp, path)
    except OSError:  # a file system whose rename does not replace (FAT): remove, then rename
        _remove(path)
        os.rename(tmp, path)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        return False
    return True


def next_boot(path="state.json"):
    """The boot id of this start, already stored; call once, before sending anything."""
    last = read_boot(path)
    boot = _random32() if last is None else (last + 1) & MASK
    write_boot(path, boot)
    return boot
