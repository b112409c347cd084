"""``readers tail`` and ``readers simulate`` as real processes, including SIGKILL restarts."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.kit.tags import random_uid
from companion.readers.store import DedupStore
from companion.readers.virtual import MqttBank, SerialBank, VirtualReader
from tests.waiting import wait_for

READERS = ["bag-1", "bag-2"]


class Tail:
    """A ``readers tail`` process whose stdout accumulates across restarts."""

    def __init__(self, tmp: Path, transport: list[str], table: str | None = None) -> None:
        self.args = [sys.executable, "-m", "companion", "readers", "tail", *transport,
                     "--state", str(tmp / "tail.sqlite")]
        self.args += [a for r in READERS for a in ("--reader", r)]
        if table:
            self.args += ["--table", table]
        self.out_path, self.err_path = tmp / "tail.out", tmp / "tail.err"
        self.proc: subprocess.Popen[bytes] | None = None
        self.state = tmp / "tail.sqlite"

    def start(self) -> None:
        with open(self.out_path, "ab") as out, open(self.err_path, "ab") as err:
            self.proc = subprocess.Popen(self.args, stdout=out, stderr=err)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=20)

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.out_path.read_text().splitlines() if line]

    def errors(self) -> str:
        return self.err_path.read_text()


def stream_with_kills(bank, tail: Tail, taps: int, kills: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    kill_at = set(rng.sample(range(20, taps - 20), kills))
    sent = []
    for i in range(taps):
        reader = READERS[i % 2]
        sent.append((reader, bank.readers[reader].boot, bank.tap(reader, random_uid(rng))))
        time.sleep(0.004)
        if i in kill_at:
            tail.kill()
            time.sleep(rng.uniform(0.05, 0.3))
            tail.start()
    return sent


def check_exactly_once(tail: Tail, sent: list[tuple], kills: int) -> None:
    stored = [(r, b, s) for r, b, s, _, _ in DedupStore(tail.state).events()]
    assert sorted(stored) == sorted(sent), "the store lost or doubled a tap"
    printed = [(e["reader"], e["boot"], e["seq"]) for e in tail.lines()]
    assert set(printed) == set(sent), "a tap was never printed"
    assert len(printed) - len(set(printed)) <= kills  # a kill between print and commit


def test_tail_killed_and_restarted_over_serial(tmp_path: Path) -> None:
    """SIGKILL the tail three times during 200 serial taps: each tap stored exactly once."""
    bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                      tmp_path / "dev").start()
    tail = Tail(tmp_path, ["--serial", *(bank.path(r) for r in READERS)])
    try:
        tail.start()
        sent = stream_with_kills(bank, tail, 200, 3, seed=11)
        assert bank.wait_acked(40), f"unacked: {bank.pending()}; {tail.errors()[-500:]}"
        assert tail.stop() == 0
        check_exactly_once(tail, sent, 3)
    finally:
        bank.stop()


def test_tail_killed_and_restarted_over_mqtt(tmp_path: Path, broker) -> None:
    """SIGKILL the tail three times during 200 MQTT taps: each tap stored exactly once."""
    table = f"tail-{random.randrange(10**6)}"
    bank = MqttBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                    broker.url, table).start()
    tail = Tail(tmp_path, ["--mqtt", str(broker.url)], table)
    try:
        assert bank.wait_connected(10)
        tail.start()
        sent = stream_with_kills(bank, tail, 200, 3, seed=12)
        assert bank.wait_acked(60), f"unacked: {bank.pending()}; {tail.errors()[-500:]}"
        assert tail.stop() == 0
        check_exactly_once(tail, sent, 3)
    finally:
        bank.stop()


def test_tail_prints_rejections_on_stderr_with_the_reason(tmp_path: Path) -> None:
    """One stderr line per rejected message, naming the reason code."""
    bank = SerialBank([VirtualReader(r) for r in [*READERS, "bag-9"]], tmp_path / "dev").start()
    tail = Tail(tmp_path, ["--serial", *(bank.path(r) for r in [*READERS, "bag-9"])])
    try:
        tail.start()
        assert wait_for(lambda: bank.readers["bag-1"].acks > 0)
        bank.raw("bag-1", b"\xff\xfe not utf-8\n")
        bank.raw("bag-1", b'{"v": 7, "type": "tag"}\n')
        bank.tap("bag-9", "04a1b2c3")
        bank.tap("bag-1", "04a1b2c4")
        assert wait_for(lambda: all(code in tail.errors() for code in
                                    ("NOT_UTF8", "UNKNOWN_VERSION", "UNKNOWN_READER")))
        assert wait_for(lambda: len(tail.lines()) == 1)
        assert tail.lines()[0]["transport"] == "serial"
        assert tail.stop() == 0
        assert "Traceback" not in tail.errors()
    finally:
        bank.stop()


def test_simulate_prints_device_paths_and_delivers_to_tail(tmp_path: Path) -> None:
    """``readers simulate --serial`` prints one stable path per reader; tail receives all."""
    sim = subprocess.Popen([sys.executable, "-m", "companion", "readers", "simulate",
                            "--serial", "--readers", "2", "--taps", "5", "--interval", "0.02",
                            "--dir", str(tmp_path / "dev")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert sim.stdout is not None
    paths = [sim.stdout.readline().split()[1] for _ in READERS]
    assert [Path(p).name for p in paths] == READERS and all(os.path.islink(p) for p in paths)
    tail = Tail(tmp_path, ["--serial", *paths])
    tail.start()
    try:
        assert sim.wait(timeout=60) == 0, sim.stderr.read() if sim.stderr else ""
        assert len({(e["reader"], e["seq"]) for e in tail.lines()}) == 10
    finally:
        tail.stop()


def test_simulate_stops_on_sigterm_while_no_hub_acks(tmp_path: Path) -> None:
    """Readers nobody acks (no hub, or a hub that refuses them) wait for acks up to
    ``--timeout``; SIGTERM still stops them at once, with exit 0 and a summary."""
    sim = subprocess.Popen([sys.executable, "-m", "companion", "readers", "simulate",
                            "--serial", "--readers", "2", "--taps", "2", "--interval", "0.01",
                            "--timeout", "300", "--hold", "--dir", str(tmp_path / "dev")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert sim.stdout is not None and sim.stderr is not None
    for _ in READERS:
        sim.stdout.readline()
    time.sleep(0.5)  # the taps are written; nothing will ever ack them
    sim.send_signal(signal.SIGTERM)
    assert sim.wait(timeout=10) == 0
    assert "4 taps, 4 unacked" in sim.stderr.read()


@pytest.mark.broker
def test_tail_with_mqtt_and_no_url_starts_a_private_broker(tmp_path: Path) -> None:
    """``--mqtt`` without a URL runs Mosquitto with a password and says where."""
    tail = Tail(tmp_path, ["--mqtt"])
    tail.start()
    try:
        assert wait_for(lambda: "started a private broker: mqtt://_hub:" in tail.errors())
    finally:
        assert tail.stop() == 0


@pytest.mark.parametrize("args, message", [
    (["readers", "tail", "--serial", "x"], "--reader"),
    (["readers", "tail", "--mqtt", "http://nope", "--reader", "bag-1"], "mqtt://"),
    (["readers", "tail", "--serial", "x", "--reader", "bad id"], "not a valid reader id"),
    (["readers", "simulate"], "one of the arguments --serial --mqtt is required"),
])
def test_bad_command_lines_are_usage_errors(args: list[str], message: str) -> None:
    """Mistakes in options exit 2 with a message, never a traceback."""
    run = subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr
