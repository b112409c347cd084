"""The reader's health in its heartbeat: failed and too-fast reads, Wi-Fi signal, supply.

The counts come from the real driver and debouncer on the register-level RC522 fake; the
supply from the board modules on the fake ``machine``'s ADC; the signal from the fake
``network`` station. ``test_fw_on_micropython.py`` runs the same fields on MicroPython.
"""

from __future__ import annotations

import json
from pathlib import Path

import app as firmware
import board
import board_esp32
import board_picow
import config
import machine
import messages
import network
import pytest
from app import App
from debounce import Debouncer
from mfrc522 import MFRC522
from transport_mqtt import MqttTransport

from companion.readers import protocol as proto
from tests.firmware.fake_rc522 import FakeRC522, Tag
from tests.firmware.harness import Clock, MemoryStream, settings
from tests.firmware.test_fw_app import Rig, write_config
from tests.firmware.test_fw_mqtt import Recorder, mqtt_settings

NTAG = "04a1b2c3d4e5f6"


def beats(sent: list[dict]) -> list[dict]:
    """The heartbeats among the messages sent."""
    return [m for m in sent if m["type"] == "heartbeat"]


# -- read failures and taps too fast ---------------------------------------------------------


@pytest.mark.parametrize("fault", ["bad_crc", "bad_bcc"])
def test_reads_the_driver_rejects_are_counted_in_the_heartbeat(fault: str) -> None:
    """A sticker whose answers fail the driver's checks is never a tap, and each failed
    read is one more ``read_fail``; the count is since boot, so it only grows."""
    rig = Rig()
    first = beats(rig.run(5_100, step=25))
    assert first[-1]["read_fail"] == 0 and first[-1]["too_fast"] == 0
    rig.chip.place(Tag(NTAG, **{fault: True}))
    sent = rig.run(5_000, step=25)
    assert not [m for m in sent if m["type"] == "tag"]
    failed = beats(sent)[-1]["read_fail"]
    assert 20 <= failed <= rig.app.rfid.errors
    assert beats(rig.run(5_000, step=25))[-1]["read_fail"] > failed


def test_a_failing_spi_bus_counts_as_failed_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A poll whose transfer raises (a loose wire) is a failed read too."""
    rig = Rig()
    rig.run(100)

    def broken(*_args) -> None:
        raise OSError("SPI bus error")
    monkeypatch.setattr(rig.app.rfid, "scan", broken)
    sent = rig.run(5_000, step=25)
    assert beats(sent)[-1]["read_fail"] == rig.app.scan_failures >= 1


def test_a_tag_gone_before_its_dwell_is_too_fast() -> None:
    """Read once and gone: no tap, one ``too_fast``; a tap that dwells is not counted."""
    debouncer = Debouncer(dwell_ms=40, gone_ms=300)
    assert debouncer.update([b"a"], 0) == []
    assert debouncer.update([], 400) == [] and debouncer.too_fast == 1
    debouncer.update([b"b"], 1000)
    assert debouncer.update([b"b"], 1050) == [b"b"]
    debouncer.update([], 1500)
    assert debouncer.too_fast == 1
    quick = Debouncer(dwell_ms=0)
    assert quick.update([b"c"], 0) == [b"c"]
    quick.update([], 1000)
    assert quick.too_fast == 0, "without a dwell no tap is too fast"


def test_a_pawn_swept_past_the_pad_shows_in_the_heartbeat() -> None:
    """On the whole reader: a pawn in the field for one poll sends no tag, and the next
    heartbeat counts it as too fast."""
    rig = Rig()
    rig.run(20)
    tag = rig.chip.place(Tag(NTAG))
    rig.run(25)
    rig.chip.lift(tag)
    sent = rig.run(5_000)
    assert not [m for m in sent if m["type"] == "tag"]
    assert beats(sent)[-1]["too_fast"] == 1


# -- the Wi-Fi signal ------------------------------------------------------------------------


def test_a_wifi_reader_sends_its_signal_and_a_cabled_one_none(recorder) -> None:
    """Over MQTT the heartbeat has the station's ``rssi``; it follows the signal; over
    serial there is none."""
    network.ACCESS_POINTS["popcorn"] = "pw"
    clock = Clock()
    wlan = network.WLAN(network.STA_IF)
    wlan.rssi = -71
    cfg = mqtt_settings()
    reader = App(cfg, MFRC522(FakeRC522().spi, FakeRC522().cs), MqttTransport(cfg, wlan, recorder),
                 boot=7, ticks=clock)
    reader.start()

    def published(ms: int) -> list[dict]:
        client_calls = len(recorder.made[-1].calls) if recorder.made else 0
        for _ in range(ms // 25):
            reader.step()
            clock.advance(25)
        return [json.loads(c[2]) for c in recorder.made[-1].calls[client_calls:]
                if c[0] == "publish" and c[1].endswith(b"/event")]
    assert beats(published(5_100))[-1]["rssi"] == -71
    wlan.rssi = -88
    assert beats(published(5_000))[-1]["rssi"] == -88
    assert "rssi" not in beats(Rig().run(5_100, step=25))[-1]


def test_no_signal_is_sent_off_the_network_or_out_of_range(recorder) -> None:
    """A station that is not joined, or a value no radio gives, is no ``rssi``."""
    wlan = network.WLAN(network.STA_IF)
    transport = MqttTransport(mqtt_settings(), wlan, recorder)
    assert transport.rssi() is None  # not joined: a real station raises, here too
    network.ACCESS_POINTS["popcorn"] = "pw"
    wlan.active(True)
    wlan.connect("popcorn", "pw")
    wlan.rssi = 31
    assert transport.rssi() is None
    wlan.rssi = -60
    assert transport.rssi() == -60


# -- the supply voltage ----------------------------------------------------------------------


def test_an_esp32_measures_nothing_unless_a_divider_is_wired() -> None:
    """No ``supply`` pin by default: no ADC is made and the heartbeat has no voltage."""
    hw = board.load("esp32")
    assert hw.supply is None and hw.supply_mv() is None and machine.adcs == []


def test_an_esp32_divider_on_an_adc1_pin() -> None:
    """Two equal resistors halve a 3.9 V battery: 1.95 V at GPIO35, read at 11 dB."""
    machine.analog[35] = 1.95
    hw = board.load("esp32", {"supply": 35})
    assert hw.supply_mv() == 3900
    assert machine.adcs[0].attenuation == machine.ADC.ATTN_11DB
    machine.analog[35] = 1.3
    assert board.load("esp32", {"supply": 35}, divider=3).supply_mv() == 3900


@pytest.mark.parametrize("pin", [0, 4, 25, 26, 27])
def test_an_esp32_supply_pin_must_be_on_adc1(pin: int) -> None:
    """ADC2 (and pins without an ADC) would read nothing while Wi-Fi is on: refused."""
    with pytest.raises(ValueError, match="GPIO32 to GPIO39"):
        board.load("esp32", {"supply": pin})


def test_a_pico_w_measures_vsys_and_gives_the_pin_back() -> None:
    """VSYS/3 on GP29 by default; the wireless clock's function and pad registers are
    the same after the reading, which ran with interrupts off."""
    ctrl, pad = board_picow.Vsys().ctrl, board_picow.Vsys().pad
    machine.mem32[ctrl], machine.mem32[pad] = 0x07, 0x56  # the CYW43 bus's settings
    machine.analog[29] = 1.6  # 4.8 V from USB
    hw = board.load("picow")
    assert abs(hw.supply_mv() - 4800) <= 2
    assert (machine.mem32[ctrl], machine.mem32[pad]) == (0x07, 0x56)
    assert machine.irq_enabled and machine.irq_log[:2] == ["off", "on"]
    assert len(machine.irq_log) == 2 * len(machine.adcs) == 16  # eight samples a reading


def test_a_pico_w_can_measure_its_own_divider_or_nothing() -> None:
    """GP26 with a divider of yours (2 unless set); ``null`` measures nothing; a pin
    without an ADC is refused."""
    machine.analog[26] = 1.8
    assert board.load("picow", {"supply": 26}).supply_mv() == 3600
    assert machine.irq_log == [], "only GP29 is shared with the wireless chip"
    assert board.load("picow", {"supply": None}).supply_mv() is None
    with pytest.raises(ValueError, match="GP26 to GP29"):
        board.load("picow", {"supply": 22})


def test_a_failing_adc_leaves_the_voltage_out() -> None:
    """An ADC that raises gives no voltage, never a stopped reader."""
    class Broken:
        def read_u16(self) -> int:
            raise OSError("ADC timeout")
    hw = board.load("esp32")
    hw.supply = board.Supply(Broken())
    assert hw.supply_mv() is None
    assert b"supply_mv" not in messages.heartbeat("bag-1", 1, 5, {"supply_mv": hw.supply_mv()})


@pytest.mark.parametrize("value", [0, 0.5, 21, "2", True, [2]])
def test_the_config_checks_the_divider(value) -> None:
    """``supply_divider`` is a number from 1 to 20, or null."""
    with pytest.raises(config.ConfigError, match="supply_divider"):
        settings(supply_divider=value)
    assert settings(supply_divider=2.5)["supply_divider"] == 2.5
    assert settings()["supply_divider"] is None


def test_main_sends_the_supply_of_the_configured_divider(tmp_path: Path) -> None:
    """config.json's ``pins.supply`` and ``supply_divider`` reach the heartbeat."""
    chip = FakeRC522()
    machine.attach(chip, board_esp32.SPI_ID, board_esp32.PINS["cs"])
    machine.analog[34] = 1.2
    stream = MemoryStream()
    path = write_config(tmp_path, pins={"supply": 34}, supply_divider=3, heartbeat_ms=1000)

    def stop() -> bool:
        return b'"heartbeat"' in stream.written
    firmware.main(path, str(tmp_path / "state.json"), stream=stream, stop=stop,
                  safe_window_ms=20)
    (beat,) = beats([json.loads(line) for line in stream.lines()])
    assert beat["supply_mv"] == 3600 and beat["read_fail"] == 0


# -- the message -----------------------------------------------------------------------------


def test_the_heartbeat_leaves_out_what_is_unknown_and_the_hub_reads_it() -> None:
    """Only integer health fields go out, counts capped at 2^32-1; the hub's parser takes
    both the full and the bare heartbeat."""
    full = messages.heartbeat("bag-1", 3, 60, {"rssi": -70, "supply_mv": 3700,
                                               "read_fail": 2**33, "too_fast": 2,
                                               "other": 1})
    parsed = proto.parse(full)
    assert parsed == proto.Heartbeat("bag-1", 3, 60, rssi=-70, supply_mv=3700,
                                     read_fail=proto.MAX_SEQ, too_fast=2)
    bare = messages.heartbeat("bag-1", 3, 60, {"rssi": None, "supply_mv": True})
    assert json.loads(bare) == {"v": 1, "type": "heartbeat", "reader": "bag-1", "boot": 3,
                                "uptime": 60}


@pytest.fixture
def recorder():
    """A recording MQTT client class (as in test_fw_mqtt.py)."""
    Recorder.made, Recorder.refuse = [], False
    yield Recorder
