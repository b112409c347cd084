"""Reader link speed: accepted events per second, and latency from the reader's write to the
hub's callback, over serial (pseudo-terminals) and MQTT (a private Mosquitto), for 4 and 400
virtual readers. It measures the hub alone: its link, ingest and store (and the broker).

Run ``python bench/readers.py [--paths serial mqtt] [--readers 4 400]``. For each case two
figures are taken:

* *throughput*: every reader taps as fast as it can; accepted events per second, from the
  first write to the last callback;
* *latency*: taps paced at ``--pace`` events per second over all readers; p50, p99 and max
  of the time from the reader's write to the hub's ``on_event`` callback (the event is then
  stored, committed with a synchronous SQLite commit, and acked).

What makes it the hub alone:

* the virtual readers run in a process of their own (this file with ``--bank``), as real
  readers are boards of their own. In the hub's process, 400 paho clients and their network
  thread took the interpreter's lock from the hub's threads, and that was most of the tail
  this bench used to print. Both processes stamp with the system's monotonic clock;
* a run ends only when every reader holds nothing unacked and the hub's ingest is idle, so the
  latency run does not start while the throughput run's acks are still on their way;
* each reader sends its heartbeat at its own phase (:class:`~companion.readers.virtual.MqttBank`),
  as readers started at different moments do, not 400 in the same instant.

With each run it prints how many taps the readers resent (a reader resends an unacked tap
after 5 s, so a message lost on the way shows up there, and as seconds of tail), how many
taps the order rule held behind a gap (``HOLD_SECONDS``, companion/readers/ordering.py) and for
how long, how many taps were lost (written, never stored) or doubled (stored twice), and how
long after the last write every tap was acked (the backlog of acks a run leaves).
The per-reader rate limit is lifted (it exists to stop a broken reader, not to slow a
benchmark). Figures go to stdout.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

from companion.readers.broker import Broker
from companion.readers.ingest import Ingest, TagEvent
from companion.readers.mqtt_link import MqttLink
from companion.readers.mqtt_url import parse_mqtt_url
from companion.readers.serial_link import SerialLink
from companion.readers.store import DedupStore
from companion.readers.virtual import MqttBank, SerialBank, VirtualReader

RESEND_SECONDS = 5.0
"""How long a virtual reader waits for an ack before it sends a tap again."""

Key = tuple[str, int]


class Clock:
    """The hub's side: when each event's callback ran, and how often, keyed by (reader, seq)."""

    def __init__(self) -> None:
        self.seen: dict[Key, float] = {}
        self.calls: Counter[Key] = Counter()
        self.lock = threading.Lock()

    def on_event(self, event: TagEvent) -> None:
        """The hub's ``on_event``: stamp the first call, count every call."""
        now = time.monotonic()
        key = (event.reader, event.seq)
        with self.lock:
            self.seen.setdefault(key, now)
            self.calls[key] += 1

    def doubled(self) -> int:
        """Events whose callback ran more than once (stored twice)."""
        with self.lock:
            return sum(1 for n in self.calls.values() if n > 1)


# -- the readers' process ------------------------------------------------------------------


def say(message: dict[str, Any]) -> None:
    """Tell the hub's process something: one JSON line on stdout."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tap_run(bank: SerialBank | MqttBank, names: list[str], events: int, pace: float | None,
            first: int) -> list[tuple[str, int, float]]:
    """Tap ``events`` times round-robin, paced or flat out; (reader, seq, write time) each."""
    written = []
    start = time.monotonic()
    for i in range(events):
        if pace:
            delay = start + i / pace - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        reader = names[i % len(names)]
        stamp = time.monotonic()
        seq = bank.tap(reader, f"04{first + i:012x}")
        written.append((reader, seq, stamp))
    return written


def bank_main(config: dict[str, Any]) -> None:
    """The readers' process: start the bank, wait until every reader is greeted, then run
    what the hub's process asks on stdin and answer each run once every tap is acked."""
    logging.basicConfig(level=logging.ERROR)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 400 ptys need ~3,000 files
    names = config["names"]
    readers = [VirtualReader(n, resend_interval=RESEND_SECONDS) for n in names]
    bank: SerialBank | MqttBank
    if config["path"] == "serial":
        bank = SerialBank(readers, config["dir"]).start()
    else:
        bank = MqttBank(readers, parse_mqtt_url(config["url"]), config["table"]).start()
    say({"plugged": True})
    if isinstance(bank, MqttBank):
        bank.wait_connected(60)
    deadline = time.monotonic() + 60
    while any(r.acks == 0 for r in readers) and time.monotonic() < deadline:
        time.sleep(0.05)  # every reader has said hello and been acked
    say({"ready": all(r.acks for r in readers), "resent": bank.resent()})
    try:
        for line in sys.stdin:
            command = json.loads(line)
            if command.get("stop"):
                break
            before = bank.resent()
            written = tap_run(bank, names, command["events"], command["pace"],
                              command["first"])
            acked = bank.wait_acked(120)
            drained = time.monotonic() - written[-1][2] if written else 0.0
            say({"written": written, "acked": acked, "resent": bank.resent() - before,
                 "drained": drained})
    finally:
        bank.stop()


# -- the hub's process ---------------------------------------------------------------------


class Bank:
    """The readers' process, seen from the hub's: start it, ask for runs, stop it."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--bank", json.dumps(config)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def expect(self, field: str) -> dict[str, Any]:
        """The next message of the readers' process, which must carry ``field``."""
        out: IO[str] = self.process.stdout  # type: ignore[assignment]
        line = out.readline()
        if not line:
            raise RuntimeError(f"the readers' process ended (waiting for {field!r})")
        message = json.loads(line)
        if field not in message:
            raise RuntimeError(f"the readers' process said {message!r}, not {field!r}")
        return message

    def run(self, events: int, pace: float | None, first: int) -> dict[str, Any]:
        """Tap ``events`` times and wait until every tap is acked."""
        stdin: IO[str] = self.process.stdin  # type: ignore[assignment]
        stdin.write(json.dumps({"events": events, "pace": pace, "first": first}) + "\n")
        stdin.flush()
        return self.expect("written")

    def stop(self) -> None:
        """Ask the readers' process to disconnect every reader and end."""
        if self.process.poll() is None:
            stdin: IO[str] = self.process.stdin  # type: ignore[assignment]
            stdin.write(json.dumps({"stop": True}) + "\n")
            stdin.flush()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Hub:
    """The hub's side of one case: store, ingest and link, and the readers' process."""

    def __init__(self, path: str, count: int, tmp: Path, broker: Broker | None) -> None:
        self.names = [f"r{i}" for i in range(count)]
        self.clock = Clock()
        store = DedupStore(tmp / f"{path}-{count}.sqlite")
        self.ingest = Ingest(store, self.names, on_event=self.clock.on_event, rate=1e9,
                             burst=1e9).start()
        config: dict[str, Any] = {"path": path, "names": self.names}
        self.link: SerialLink | MqttLink | None = None
        if path == "mqtt":
            assert broker is not None
            config.update(url=str(broker.url), table=f"bench{count}")
            self.link = MqttLink(self.ingest, broker.url, config["table"]).start()
            self.link.connected.wait(10)
        else:
            config["dir"] = str(tmp / f"dev-{count}")
        self.bank = Bank(config)
        self.bank.expect("plugged")
        if path == "serial":
            self.link = SerialLink(self.ingest, [f"{config['dir']}/{n}"
                                                 for n in self.names]).start()
        self.ready = self.bank.expect("ready")

    def run(self, events: int, pace: float | None, first: int) -> dict[str, Any]:
        """One run: taps written, latencies (ms), resends, held taps, lost and doubled."""
        stats = self.ingest.stats()
        doubled = self.clock.doubled()
        reply = self.bank.run(events, pace, first)
        deadline = time.monotonic() + 30
        while not self.ingest.idle() and time.monotonic() < deadline:
            time.sleep(0.01)
        written = {(r, seq): stamp for r, seq, stamp in reply["written"]}
        with self.clock.lock:
            seen = {k: self.clock.seen[k] for k in written if k in self.clock.seen}
        after = self.ingest.stats()
        return {
            "written": written, "seen": seen, "acked": reply["acked"],
            "latency": sorted(1000 * (seen[k] - written[k]) for k in seen),
            "resent": reply["resent"], "lost": len(written) - len(seen),
            "drained_ms": 1000 * reply["drained"],
            "doubled": self.clock.doubled() - doubled,
            "held": after["released"] - stats["released"],
            "held_ms": 1000 * (after["held_seconds"]["total"]
                               - stats["held_seconds"]["total"]),
            "held_longest_ms": 1000 * after["held_seconds"]["longest"],
        }

    def stop(self) -> None:
        """Stop the readers' process, then the hub's link, ingest and store."""
        self.bank.stop()
        if self.link:
            self.link.stop()
        self.ingest.stop()
        self.ingest.store.close()


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank)."""
    return values[min(len(values) - 1, int(share * len(values)))]


def checks(run: dict[str, Any]) -> str:
    """Resent, held, lost and doubled taps of one run, as printed."""
    held = f"held {run['held']}"
    if run["held"]:
        held += f" ({run['held_ms']:.0f} ms in all, longest {run['held_longest_ms']:.0f} ms)"
    return (f"resent {run['resent']}, {held}, lost {run['lost']}, doubled {run['doubled']}, "
            f"all acked {run['drained_ms']:.0f} ms after the last write"
            + ("" if run["acked"] else " (NOT ALL ACKED)"))


def measure(path: str, count: int, args: argparse.Namespace, tmp: Path,
            broker: Broker | None) -> None:
    """Print the throughput and latency lines of one case."""
    hub = Hub(path, count, tmp, broker)
    try:
        events = max(args.events, count)
        flat = hub.run(events, None, 0)
        rate = len(flat["seen"]) / (max(flat["seen"].values()) - min(flat["written"].values()))
        paced = hub.run(min(events, int(args.pace * 5)), args.pace, events)
        lat = paced["latency"]
        print(f"{path:6} {count:4} readers: {rate:8.0f} events/s flat out ({events} taps); "
              f"at {args.pace:.0f}/s latency p50 {statistics.median(lat):6.2f} ms  "
              f"p99 {percentile(lat, 0.99):6.2f} ms  max {lat[-1]:7.2f} ms", flush=True)
        print(f"{'':19} flat out: {checks(flat)}", flush=True)
        print(f"{'':19} at {args.pace:.0f}/s: {checks(paced)}", flush=True)
    finally:
        hub.stop()


def main() -> None:
    """Parse the options and run every case (or, with ``--bank``, be the readers)."""
    if len(sys.argv) == 3 and sys.argv[1] == "--bank":
        bank_main(json.loads(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", nargs="+", default=["serial", "mqtt"],
                        choices=["serial", "mqtt"])
    parser.add_argument("--readers", nargs="+", type=int, default=[4, 400])
    parser.add_argument("--events", type=int, default=4000, help="taps in the throughput run")
    parser.add_argument("--pace", type=float, default=200.0, help="taps/s in the latency run")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 400 ports need ~1,000 files
    with tempfile.TemporaryDirectory(prefix="popcorn-bench-") as tmp:
        broker = Broker(workdir=Path(tmp) / "broker").start() if "mqtt" in args.paths else None
        try:
            for path in args.paths:
                for count in args.readers:
                    measure(path, count, args, Path(tmp), broker)
        finally:
            if broker:
                broker.close()


if __name__ == "__main__":
    main()
