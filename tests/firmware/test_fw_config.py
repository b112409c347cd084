"""config.json: the example is valid, mistakes are refused with the field's name."""

from __future__ import annotations

import json
from pathlib import Path

import config
import pytest

EXAMPLE = Path(__file__).parents[2] / "firmware" / "config.example.json"


def test_the_example_config_is_valid(tmp_path: Path) -> None:
    """config.example.json loads, for serial and for MQTT."""
    cfg = config.load(str(EXAMPLE))
    assert cfg["reader"] == "bag-1" and cfg["transport"] == "serial"
    raw = json.loads(EXAMPLE.read_text())
    raw["transport"] = "mqtt"
    assert config.check(raw)["mqtt_port"] == 1883


def test_defaults_fill_the_rest() -> None:
    """Only the reader id is required for serial."""
    cfg = config.check({"reader": "bag-2"})
    assert cfg["table"] == "demo" and cfg["poll_ms"] == 25 and cfg["watchdog_ms"] == 8000


@pytest.mark.parametrize(("raw", "field"), [
    ({}, "reader"),
    ({"reader": ""}, "reader"),
    ({"reader": "-bag"}, "reader"),
    ({"reader": "bag/1"}, "reader"),
    ({"reader": "b" * 33}, "reader"),
    ({"reader": "bag-1", "table": "a+b"}, "table"),
    ({"reader": "bag-1", "transport": "usb"}, "transport"),
    ({"reader": "bag-1", "readr": "x"}, "readr"),
    ({"reader": "bag-1", "poll_ms": "25"}, "poll_ms"),
    ({"reader": "bag-1", "poll_ms": 0}, "poll_ms"),
    ({"reader": "bag-1", "watchdog_ms": 9000}, "watchdog_ms"),
    ({"reader": "bag-1", "buffer": True}, "buffer"),
    ({"reader": "bag-1", "buzzer": 1}, "buzzer"),
    ({"reader": "bag-1", "board": "arduino"}, "board"),
    ({"reader": "bag-1", "pins": [1, 2]}, "pins"),
    ({"reader": "bag-1", "transport": "mqtt", "mqtt_host": "h"}, "wifi_ssid"),
    ({"reader": "bag-1", "transport": "mqtt", "wifi_ssid": "w"}, "mqtt_host"),
    ({"reader": "bag-1", "mqtt_password": 5}, "mqtt_password"),
])
def test_mistakes_are_refused(raw: dict, field: str) -> None:
    """Each error message names the field at fault."""
    with pytest.raises(config.ConfigError, match=field):
        config.check(raw)


def test_a_pin_can_be_left_unwired() -> None:
    """``null`` in ``pins`` says a part is not wired (a single LED instead of an RGB one)."""
    cfg = config.check({"reader": "bag-1", "pins": {"red": None, "blue": None, "green": 2}})
    assert cfg["pins"] == {"red": None, "blue": None, "green": 2}


def test_comments_are_allowed() -> None:
    """Keys starting with an underscore are skipped."""
    assert config.check({"reader": "bag-1", "_note": "top shelf"})["reader"] == "bag-1"


def test_unreadable_files(tmp_path: Path) -> None:
    """A missing file and a file that is not JSON are ConfigErrors too."""
    with pytest.raises(config.ConfigError, match="cannot read"):
        config.load(str(tmp_path / "missing.json"))
    bad = tmp_path / "config.json"
    bad.write_text("{reader: bag-1}")
    with pytest.raises(config.ConfigError, match="not valid JSON"):
        config.load(str(bad))
    bad.write_text("[1]")
    with pytest.raises(config.ConfigError, match="object"):
        config.load(str(bad))
