"""The main loop on a hand-driven clock: taps, acks, feedback, resync, bad hub input, faults."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import app as firmware
import board_esp32
import machine
import micropython
import pytest
import transport_serial
from app import App
from feedback import Player
from mfrc522 import MFRC522
from transport_serial import SerialTransport

from companion.readers import protocol as proto
from tests.firmware.fake_rc522 import FakeRC522, Tag
from tests.firmware.harness import GARBLED, Clock, MemoryStream, settings

NTAG = "04a1b2c3d4e5f6"


class Rig:
    """A reader on a fake chip and an in-memory serial line, stepped by hand."""

    def __init__(self, **options) -> None:
        self.clock = Clock()
        self.chip = FakeRC522()
        self.stream = MemoryStream()
        self.player = Player()
        self.wdt = machine.WDT(timeout=8000)
        cfg = settings(**options)
        self.app = App(cfg, MFRC522(self.chip.spi, self.chip.cs), SerialTransport(self.stream),
                       boot=42, player=self.player, wdt=self.wdt, ticks=self.clock)
        self.app.start()

    def run(self, ms: int, step: int = 5) -> list[dict]:
        """Turn the loop for ``ms`` milliseconds; the messages sent meanwhile."""
        for _ in range(ms // step):
            try:
                self.app.step()
            except KeyboardInterrupt:  # from MemoryStream: a 0x03 byte while Ctrl-C is on
                pytest.fail("a Ctrl-C byte on the line stopped the reader")
            self.clock.advance(step)
        return [json.loads(line) for line in self.stream.lines()]

    def hub(self, message: dict | bytes) -> None:
        """A line from the hub."""
        data = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.stream.feed(data + b"\n")


def tags(sent: list[dict]) -> list[tuple[int, str]]:
    return [(m["seq"], m["uid"]) for m in sent if m["type"] == "tag"]


def test_hello_at_boot_then_one_event_per_tap() -> None:
    """The first turn greets; a pawn resting for a second is one tag event."""
    rig = Rig()
    sent = rig.run(50)
    assert sent[0] == {"v": 1, "type": "hello", "reader": "bag-1", "boot": 42,
                       "fw": firmware.FW_VERSION, "unacked": 0}
    tag = rig.chip.place(Tag(NTAG))
    assert tags(rig.run(1000)) == [(1, NTAG)] + [(1, NTAG)]  # sent, resent once (no ack)
    rig.hub({"v": 1, "type": "ack", "reader": "bag-1", "boot": 42, "seq": 1})
    assert tags(rig.run(2000)) == []
    rig.chip.lift(tag)
    rig.run(500)
    rig.chip.place(tag)
    assert tags(rig.run(200)) == [(2, NTAG)]


def test_the_watchdog_is_fed_every_turn() -> None:
    """One feed per step."""
    rig = Rig()
    rig.run(100)
    assert rig.wdt.feeds == 20


def test_feedback_plays_and_resync_says_hello_and_resends() -> None:
    """feedback starts its pattern; resync: hello with unacked, then the events."""
    rig = Rig()
    rig.run(20)
    rig.chip.place(Tag(NTAG))
    rig.chip.place(Tag("a1b2c3d4"))
    rig.run(100)
    rig.hub({"v": 1, "type": "ack", "reader": "bag-1", "boot": 42, "seq": 1})
    rig.hub({"v": 1, "type": "feedback", "reader": "bag-1", "level": "warn", "seq": 1})
    rig.hub({"v": 1, "type": "resync"})
    sent = rig.run(10)
    assert rig.player.played[-1] == "warn"
    assert [m["type"] for m in sent] == ["hello", "tag"]
    assert sent[0]["unacked"] == 2 and sent[1]["seq"] == 2


def test_heartbeats_carry_the_uptime() -> None:
    """Every 5 s by default, uptime in seconds."""
    rig = Rig()
    sent = rig.run(16_000, step=50)
    assert [m["uptime"] for m in sent if m["type"] == "heartbeat"] == [5, 10, 15]


BAD_LINES = [
    b"garbage", b"\xff\xfe\xfd", b"{", b"[]", b"null", b'{"v":1}', b'{"v":9,"type":"ack"}',
    b'{"v":1,"type":"ack","boot":"42","seq":1}', b'{"v":1,"type":"ack","boot":42,"seq":-5}',
    b'{"v":1,"type":"feedback","level":"disco"}', b'{"v":1,"type":"resync","reader":"bag-9"}',
    b"[" * 300 + b"]" * 300, b"\x00" * 100, b"\r", b"   ",
    b'{"v":1,"type":"ack","boot":42,"seq":99}' + b"x" * 600,
]


def test_malformed_hub_lines_are_ignored_and_the_reader_goes_on() -> None:
    """Garbage, wrong types, other readers, over-long lines: counted, nothing breaks."""
    rig = Rig()
    rig.run(20)
    for line in BAD_LINES:
        rig.hub(line)
    rig.stream.feed(b"A" * 5000)  # a very long line without its newline yet
    rig.run(50)
    rig.stream.feed(b"\n")
    rig.chip.place(Tag(NTAG))
    sent = rig.run(200)
    assert rig.app.step_errors == 0
    # blank lines are skipped; the three lines over 512 bytes are dropped by the transport
    assert rig.app.ignored == len(BAD_LINES) - 2 - 2
    assert rig.app.transport.dropped == 3
    assert tags(sent) == [(1, NTAG)]
    assert rig.app.delivery.pending == 1, "the over-long ack must not have been applied"
    rig.hub({"v": 1, "type": "ack", "reader": "bag-1", "boot": 42, "seq": 1})
    rig.run(20)
    assert rig.app.delivery.pending == 0


def obeyed(rig: Rig, line: bytes) -> list[str]:
    """What the reader did about one line from the hub, with a tap (seq 1) waiting for its
    ack and nothing played: ``resync`` sends hello, ``ack`` empties the ring, ``feedback``
    plays a pattern."""
    played = len(rig.player.played)
    rig.hub(line)
    sent = rig.run(10)
    done = ["resync"] if any(m["type"] == "hello" for m in sent) else []
    done += ["ack"] if rig.app.delivery.pending == 0 else []
    return done + (["feedback"] if len(rig.player.played) > played else [])


def waiting_rig() -> Rig:
    """A reader whose first tap (seq 1 of boot 42) waits for its ack."""
    rig = Rig()
    rig.chip.place(Tag(NTAG))
    rig.run(100)
    assert rig.app.delivery.pending == 1
    return rig


@pytest.mark.usefixtures("board_json")
@pytest.mark.parametrize("line", GARBLED, ids=repr)
def test_a_garbled_command_is_ignored_and_counted_on_a_board(line: bytes) -> None:
    """With MicroPython's lenient json.loads, a garbled resync, ack or feedback line over
    serial is not obeyed, and the reader counts it as ignored."""
    rig = waiting_rig()
    assert obeyed(rig, line) == []
    assert rig.app.ignored == 1 and rig.app.step_errors == 0


@pytest.mark.usefixtures("board_json")
@pytest.mark.parametrize(("message", "effect"), [
    (proto.ack("bag-1", 42, 1), "ack"), (proto.feedback("bag-1", "warn", 1), "feedback"),
    (proto.feedback("bag-1", "ok"), "feedback"), (proto.resync(), "resync"),
    (proto.resync("bag-1"), "resync")])
def test_the_hubs_commands_are_obeyed_on_a_board(message: dict, effect: str) -> None:
    """The same path, the board's json.loads: every command from the hub's encoder works."""
    rig = waiting_rig()
    assert obeyed(rig, proto.encode(message)) == [effect]
    assert rig.app.ignored == 0


def test_random_bytes_from_the_hub() -> None:
    """Ten kilobytes of noise in odd-sized chunks, then a valid ack that still works."""
    import random

    rng = random.Random(5)
    rig = Rig()
    rig.chip.place(Tag(NTAG))
    rig.run(200)
    for _ in range(100):
        rig.stream.feed(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))))
        rig.run(10)
    rig.hub(b"")
    rig.hub({"v": 1, "type": "ack", "reader": "bag-1", "boot": 42, "seq": 1})
    rig.run(20)
    assert rig.app.step_errors == 0 and rig.app.delivery.pending == 0


def test_a_broken_stream_does_not_stop_the_loop() -> None:
    """Reads and writes that raise OSError: taps wait in the ring and go out later."""
    rig = Rig()
    rig.run(20)
    rig.stream.broken = True
    rig.chip.place(Tag(NTAG))
    rig.run(300)
    assert rig.app.taps == 1 and rig.app.step_errors == 0
    rig.stream.broken = False
    assert tags(rig.run(600)) == [(1, NTAG)]


def test_a_missing_chip_is_retried_while_the_link_stays_up() -> None:
    """No RC522 at start: heartbeats still go out; once it answers, taps work."""
    rig = Rig()
    rig.chip.dead = True
    rig.app.rfid_ok = False
    rig.app.rfid.timeout_ms = 1
    sent = rig.run(6000, step=50)
    assert any(m["type"] == "heartbeat" for m in sent) and not rig.app.rfid_ok
    rig.chip.dead = False
    rig.chip.place(Tag(NTAG))
    assert tags(rig.run(3000, step=50))[:1] == [(1, NTAG)]


def test_a_full_ring_plays_the_full_pattern() -> None:
    """With nobody acking, the tap after ``buffer`` taps is refused out loud."""
    rig = Rig(buffer=2)
    for uid in ("a1b2c3d1", "a1b2c3d2", "a1b2c3d3"):
        tag = rig.chip.place(Tag(uid))
        rig.run(100)
        rig.chip.lift(tag)
        rig.run(400)
    assert rig.app.taps == 2 and rig.app.delivery.refused == 1
    assert "full" in rig.player.played


def test_an_exception_in_a_turn_is_survived(monkeypatch: pytest.MonkeyPatch) -> None:
    """run() counts a failing turn and keeps turning."""
    rig = Rig()
    turns = {"n": 0}
    real = rig.app.transport.poll

    def flaky(now: int) -> list[bytes]:
        turns["n"] += 1
        if turns["n"] == 2:
            raise RuntimeError("boom")
        return real(now)

    monkeypatch.setattr(rig.app.transport, "poll", flaky)
    rig.app.run(stop=lambda: turns["n"] >= 5, idle_ms=0)
    assert rig.app.step_errors == 1 and turns["n"] == 5


# -- main(): the whole firmware from config.json --------------------------------------------


def write_config(tmp_path: Path, **fields) -> str:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"reader": "bag-1", "transport": "serial", **fields}))
    return str(path)


def test_main_builds_the_reader_from_the_config(tmp_path: Path) -> None:
    """main() on the fake ESP32: boot id stored, watchdog started, a tap sent."""
    chip = FakeRC522()
    machine.attach(chip, board_esp32.SPI_ID, board_esp32.PINS["cs"])
    chip.place(Tag(NTAG))
    stream = MemoryStream()
    state = str(tmp_path / "state.json")
    turns = {"n": 0}

    def stop() -> bool:
        turns["n"] += 1
        return bool(stream.written.count(b'"type": "tag"')) or turns["n"] > 2000

    reader = firmware.main(write_config(tmp_path), state, stream=stream, stop=stop,
                           safe_window_ms=50)
    assert reader is firmware.current
    lines = [json.loads(line) for line in stream.lines()]
    boot = json.loads(Path(state).read_text())["boot"]
    assert lines[0]["type"] == "hello" and lines[0]["boot"] == boot
    assert [(m["boot"], m["seq"], m["uid"]) for m in lines if m["type"] == "tag"] == [
        (boot, 1, NTAG)]
    assert machine.watchdogs and machine.watchdogs[0].feeds > 0


def test_main_in_safe_mode_does_nothing(tmp_path: Path) -> None:
    """The BOOT button held: no boot id used, no watchdog, the LED blue, Ctrl-C left on
    (the REPL must stay reachable)."""
    machine.inputs[board_esp32.PINS["safe"]] = 0
    assert firmware.main(write_config(tmp_path), str(tmp_path / "s.json")) is None
    assert not machine.watchdogs and not (tmp_path / "s.json").exists()
    assert machine.pins[board_esp32.PINS["blue"]].level == 1
    assert micropython.calls == [] and micropython.interrupt_char == micropython.CTRL_C


def test_the_safe_mode_button_may_be_pressed_after_power_up(tmp_path: Path) -> None:
    """Pressed while the LED is blue (not necessarily at the first instant): safe mode."""
    press = threading.Timer(0.05, machine.inputs.__setitem__, (board_esp32.PINS["safe"], 0))
    press.start()
    try:
        assert firmware.main(write_config(tmp_path), str(tmp_path / "s.json"),
                             safe_window_ms=30_000) is None
    finally:
        press.cancel()
    assert not machine.watchdogs


def test_main_with_a_bad_config_lights_red_and_raises(tmp_path: Path) -> None:
    """The error names the field; the red LED says something is wrong."""
    from config import ConfigError

    with pytest.raises(ConfigError, match="transport"):
        firmware.main(write_config(tmp_path, transport="carrier pigeon"))
    assert machine.pins[board_esp32.PINS["red"]].level == 1
    assert not machine.watchdogs


def test_ctrl_c_leaves_the_watchdog_fed_by_a_timer(tmp_path: Path) -> None:
    """KeyboardInterrupt ends the loop; a timer then feeds the watchdog for the REPL."""
    def interrupt() -> bool:
        raise KeyboardInterrupt

    firmware.main(write_config(tmp_path), str(tmp_path / "s.json"), stream=MemoryStream(),
                  stop=interrupt, safe_window_ms=0)
    wdt = machine.watchdogs[0]
    before = wdt.feeds
    machine.timers[-1].fire()
    assert wdt.feeds == before + 1


# -- Ctrl-C on the serial line --------------------------------------------------------------


def run_serial_main(tmp_path: Path, stream: MemoryStream, turns: int) -> tuple[Any, list[int]]:
    """main() in serial mode on ``stream`` for at most ``turns`` loop turns; the reader it
    returns, and the Ctrl-C byte in force (``kbd_intr``) each time the loop asked whether to
    stop: before each turn, and once more when it ends by itself."""
    seen: list[int] = []

    def stop() -> bool:
        seen.append(micropython.interrupt_char)
        return len(seen) > turns

    reader = firmware.main(write_config(tmp_path), str(tmp_path / "s.json"), stream=stream,
                           stop=stop, safe_window_ms=0)
    return reader, seen


def test_the_serial_transport_turns_ctrl_c_off_while_it_owns_the_line(tmp_path: Path) -> None:
    """kbd_intr(-1) before the first turn, kbd_intr(3) again once the reader closes."""
    _, seen = run_serial_main(tmp_path, MemoryStream(), turns=5)
    assert seen == [-1] * 6
    assert micropython.calls == [-1, 3] and micropython.interrupt_char == micropython.CTRL_C


def ctrl_c_traffic() -> MemoryStream:
    """Ctrl-C bytes on the line: alone, inside a command, and before the hub's resync."""
    stream = MemoryStream()
    stream.feed(b"\x03\n" + b'{"v":1,"type":"re\x03sync"}\n' + b"\x03\x03")
    stream.feed(b"\n" + proto.encode(proto.resync()) + b"\n")
    return stream


def test_a_ctrl_c_byte_on_the_serial_line_does_not_stop_the_reader(tmp_path: Path) -> None:
    """The loop turns to its end; the 0x03 lines are ignored and the resync after them is
    obeyed (a second hello); the Ctrl-C path (watchdog fed by a timer) never ran."""
    stream = ctrl_c_traffic()
    reader, seen = run_serial_main(tmp_path, stream, turns=50)
    assert len(seen) == 51, "the loop did not turn to its end"
    assert reader.ignored == 3 and reader.step_errors == 0
    assert [json.loads(line)["type"] for line in stream.lines()].count("hello") == 2
    assert not machine.timers


def test_with_ctrl_c_left_on_the_same_byte_stops_the_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: if the transport left Ctrl-C on, the fake line interrupts
    the loop at its first turn, as a board would, and main() leaves the watchdog to a timer."""
    monkeypatch.setattr(transport_serial, "kbd_intr", lambda _char: None)
    _, seen = run_serial_main(tmp_path, ctrl_c_traffic(), turns=50)
    assert len(seen) == 1, "the first turn should have been interrupted"
    assert machine.timers, "main() did not take the Ctrl-C path"


def test_a_tools_request_for_the_repl_hands_the_line_back(tmp_path: Path) -> None:
    """mpremote's Ctrl-C then Ctrl-A (here split across reads by line ends) stops a serial
    reader as a Ctrl-C would: the loop ends early, Ctrl-C is on again, a timer feeds the
    watchdog for the REPL."""
    stream = MemoryStream()
    stream.feed(b"\r\x03" + b"\r" * 200 + b"\x01")
    _, seen = run_serial_main(tmp_path, stream, turns=50)
    assert len(seen) < 51, "the reader kept running"
    assert micropython.interrupt_char == micropython.CTRL_C
    assert machine.timers, "main() did not take the Ctrl-C path"


@pytest.mark.parametrize("noise", [b"\x01\n", b"\x03x\x01\n", b"\x01\x03\n",
                                   b'{"v":1,"type":"\x03ack"}\x01\n'])
def test_ctrl_a_without_a_ctrl_c_right_before_it_is_noise(tmp_path: Path, noise: bytes) -> None:
    """Only the exact pair stops the reader: other orders and bytes between are garbled lines."""
    stream = MemoryStream()
    stream.feed(noise)
    _, seen = run_serial_main(tmp_path, stream, turns=20)
    assert len(seen) == 21, "the reader stopped on noise"
    assert not machine.timers
