"""The board modules build a working reader on the fake ``machine``: pins, SPI, LED, buzzer."""

from __future__ import annotations

import board
import board_esp32
import board_picow
import machine
import pytest
from mfrc522 import MFRC522, hexlify

from tests.firmware.fake_rc522 import FakeRC522, Tag


@pytest.mark.parametrize(("name", "target"), [("esp32", board_esp32), ("picow", board_picow)])
def test_the_rc522_answers_on_each_targets_default_pins(name: str, target) -> None:
    """Wire the fake chip where the target says; the driver reads a tag through it."""
    chip = FakeRC522()
    machine.attach(chip, target.SPI_ID, target.PINS["cs"])
    chip.place(Tag("04a1b2c3d4e5f6"))
    hw = board.load(name)
    assert hw.name == name
    assert hw.spi.baudrate <= 10_000_000 and hw.spi.polarity == 0 and hw.spi.phase == 0
    driver = MFRC522(hw.spi, hw.cs, hw.rst)
    driver.init()
    assert [hexlify(u) for u in driver.scan()] == ["04a1b2c3d4e5f6"]
    assert machine.pins[target.PINS["rst"]].level == 1, "RST must be high to run the chip"


def test_the_config_can_move_pins() -> None:
    """``pins`` overrides a default; an unknown pin name is an error."""
    chip = FakeRC522()
    machine.attach(chip, board_esp32.SPI_ID, 15)
    hw = board.load("esp32", {"cs": 15})
    assert MFRC522(hw.spi, hw.cs).init() == 0x92
    with pytest.raises(ValueError, match="led"):
        board.load("esp32", {"led": 3})
    with pytest.raises(ValueError):
        board.load("arduino")


def test_the_board_is_detected_from_sys_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    """rp2 means a Pico W, anything else the ESP32."""
    monkeypatch.setattr(board.sys, "platform", "rp2")
    assert board.load().name == "picow"
    monkeypatch.setattr(board.sys, "platform", "esp32")
    assert board.load().name == "esp32"


def test_led_colors_and_buzzer() -> None:
    """show() drives the three pins; the buzzer is PWM at half duty when on."""
    hw = board.load("esp32")
    hw.led.show((1, 1, 0))
    pins = board_esp32.PINS
    assert [machine.pins[pins[c]].level for c in ("red", "green", "blue")] == [1, 1, 0]
    hw.buzzer.on()
    assert hw.buzzer.pwm.duty_u16() == 32768
    hw.buzzer.off()
    assert hw.buzzer.pwm.duty_u16() == 0


def test_a_common_anode_led_is_driven_low() -> None:
    """active_low inverts every channel."""
    pins = [machine.Pin(n, machine.Pin.OUT) for n in (1, 2, 3)]
    led = board.RgbLed(*pins, active_low=True)
    led.show((1, 0, 0))
    assert [p.level for p in pins] == [0, 1, 1]


def test_safe_mode_is_the_boot_button_held_at_start() -> None:
    """GPIO0 low on the ESP32 (the BOOT button)."""
    assert not board.load("esp32").safe_mode()
    machine.inputs[board_esp32.PINS["safe"]] = 0
    assert board.load("esp32").safe_mode()


def test_the_picow_safe_pin_can_be_a_gpio() -> None:
    """Without rp2 (as here) BOOTSEL reads as released; a configured pin works."""
    assert not board.load("picow").safe_mode()
    machine.inputs[21] = 0
    assert board.load("picow", {"safe": 21}).safe_mode()


def test_the_watchdog_and_keeping_it_fed_after_ctrl_c() -> None:
    """watchdog() starts machine.WDT; keep_fed() feeds it from a periodic timer."""
    hw = board.load("esp32")
    assert hw.watchdog(0) is None
    wdt = hw.watchdog(8000)
    assert machine.watchdogs == [wdt] and wdt.timeout == 8000
    hw.keep_fed(wdt)
    timer = machine.timers[-1]
    assert timer.mode == machine.Timer.PERIODIC and timer.id == 0
    timer.fire()
    timer.fire()
    assert wdt.feeds == 2
