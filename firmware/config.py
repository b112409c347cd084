"""The reader's settings: ``config.json`` in flash, checked strictly at start.

``config.example.json`` lists every field. Unknown fields are refused (a typo must not be
silently ignored), as are wrong types and out-of-range values; keys starting with ``_`` are
comments and skipped. :func:`load` returns a complete dict: the file's values over
:data:`DEFAULTS`. ``docs/firmware.md`` describes each field.
"""

try:
    import json
except ImportError:
    import ujson as json

DEFAULTS = {
    "reader": None,
    "table": "demo",
    "transport": "serial",
    "board": None,
    "pins": None,
    "wifi_ssid": None,
    "wifi_password": "",
    "mqtt_host": None,
    "mqtt_port": 1883,
    "mqtt_user": None,
    "mqtt_password": None,
    "poll_ms": 25,
    "dwell_ms": 40,
    "gone_ms": 300,
    "resend_ms": 500,
    "hello_ms": 3000,
    "heartbeat_ms": 5000,
    "watchdog_ms": 8000,
    "buffer": 64,
    "buzzer": True,
    "supply_divider": None,
    "kind": "bag",
    "zones": 4,
    "spi_baud": None,
    "rx_timeout_us": 400,
    "startup_us": 1000,
    "guard_us": 1000,
}
"""Every field and its default (``None``: required, or unset). ``kind`` is ``bag`` (a bag
reader) or ``mat`` (a cinema mat); ``zones``, ``spi_baud`` (``None``: the board's own),
``rx_timeout_us``, ``startup_us`` and ``guard_us`` are the mat's alone (see ``mat.py``)."""

_INTS = {
    "mqtt_port": (1, 65535),
    "poll_ms": (5, 1000),
    "dwell_ms": (0, 2000),
    "gone_ms": (50, 10000),
    "resend_ms": (100, 60000),
    "hello_ms": (500, 60000),
    "heartbeat_ms": (1000, 60000),
    "watchdog_ms": (0, 8000),
    "buffer": (1, 512),
    "zones": (1, 8),
    "rx_timeout_us": (200, 10000),
    "startup_us": (50, 100000),
    "guard_us": (0, 10000),
}
MAT_DEFAULT_ZONES = 4
"""A mat's zones 0 to 3 have default pins (``board_esp32.MAT_PINS``); more need theirs."""
_BAUD = (100000, 10000000)
"""The range of ``spi_baud``: the MFRC522 takes up to 10 Mbit/s."""
_DIVIDER = (1, 20)
"""The range of ``supply_divider``: 1 (the pin sees the supply itself) to 20."""
_STRINGS = ("wifi_ssid", "wifi_password", "mqtt_host", "mqtt_user", "mqtt_password")
_ID_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_ID_CHARS = _ID_FIRST + "_.-"


class ConfigError(ValueError):
    """The configuration cannot be used; the message names the field and why."""


def valid_id(text):
    """A reader or table id: 1 to 32 letters, digits, ``_ . -``, starting alphanumeric.

    The same rule as the hub's; such an id is safe inside an MQTT topic.
    """
    if not isinstance(text, str) or not 1 <= len(text) <= 32 or text[0] not in _ID_FIRST:
        return False
    return all(c in _ID_CHARS for c in text)


def check(raw):
    """The complete settings from the dict ``raw``; raises :class:`ConfigError`."""
    if not isinstance(raw, dict):
        raise ConfigError("config: not a JSON object")
    cfg = dict(DEFAULTS)
    for key, value in raw.items():
        if not isinstance(key, str) or key.startswith("_"):
            continue
        if key not in DEFAULTS:
            raise ConfigError("config: unknown field " + repr(key))
        cfg[key] = value
    for key in ("reader", "table"):
        if not valid_id(cfg[key]):
            raise ConfigError("config: " + key + " must be 1-32 letters, digits, _ . -")
    if cfg["transport"] not in ("serial", "mqtt"):
        raise ConfigError("config: transport must be serial or mqtt")
    if cfg["board"] not in (None, "esp32", "picow"):
        raise ConfigError("config: board must be esp32 or picow")
    if cfg["kind"] not in ("bag", "mat"):
        raise ConfigError("config: kind must be bag or mat")
    if cfg["kind"] == "mat" and cfg["board"] not in (None, "esp32"):
        raise ConfigError("config: board must be esp32 for a mat")
    baud = cfg["spi_baud"]
    if baud is not None and (type(baud) is not int or not _BAUD[0] <= baud <= _BAUD[1]):
        raise ConfigError("config: spi_baud must be an integer from " + str(_BAUD[0]) + " to "
                          + str(_BAUD[1]) + " (or null: the board's own)")
    if cfg["pins"] is not None and not (
            isinstance(cfg["pins"], dict)
            and all(v is None or type(v) is int or isinstance(v, str)
                    for v in cfg["pins"].values())):
        raise ConfigError("config: pins must map names to pin numbers (null: not wired)")
    for key, (low, high) in _INTS.items():
        value = cfg[key]
        if type(value) is not int or not low <= value <= high:
            raise ConfigError("config: " + key + " must be an integer from " + str(low)
                              + " to " + str(high))
    for key in _STRINGS:
        if cfg[key] is not None and not isinstance(cfg[key], str):
            raise ConfigError("config: " + key + " must be a string")
    if type(cfg["buzzer"]) is not bool:
        raise ConfigError("config: buzzer must be true or false")
    divider = cfg["supply_divider"]
    if divider is not None and (type(divider) not in (int, float)
                                or not _DIVIDER[0] <= divider <= _DIVIDER[1]):
        raise ConfigError("config: supply_divider must be a number from " + str(_DIVIDER[0])
                          + " to " + str(_DIVIDER[1]) + " (or null: the board's own)")
    if cfg["kind"] == "mat":
        given = cfg["pins"] or {}
        for zone in range(MAT_DEFAULT_ZONES, cfg["zones"]):
            for name in ("cs" + str(zone), "rst" + str(zone)):
                if given.get(name) is None:
                    raise ConfigError("config: pins must give " + name + " for zone "
                                      + str(zone) + " (the defaults cover zones 0 to "
                                      + str(MAT_DEFAULT_ZONES - 1) + ")")
    if cfg["transport"] == "mqtt":
        for key in ("wifi_ssid", "mqtt_host"):
            if not cfg[key]:
                raise ConfigError("config: " + key + " is required with the mqtt transport")
    return cfg


def load(path="config.json"):
    """Read and check the settings file; raises :class:`ConfigError` (also if unreadable)."""
    try:
        with open(path) as f:
            raw = json.load(f)
    except OSError:
        raise ConfigError("config: cannot read " + path) from None
    except ValueError:
        raise ConfigError("config: " + path + " is not valid JSON") from None
    return check(raw)
