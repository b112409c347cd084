"""Reader link speed: accepted events per second, and latency from the reader's write to the
hub's callback, over serial (pseudo-terminals) and MQTT (a private Mosquitto), for 4 and 400
virtual readers.

Run ``python bench/readers.py [--paths serial mqtt] [--readers 4 400]``. For each case two
figures are taken:

* *throughput*: every reader taps as fast as it can; accepted events per second, from the
  first write to the last callback;
* *latency*: taps paced at ``--pace`` events per second over all readers; p50 and p99 of
  the time from the reader's write to the hub's ``on_event`` callback (the event is then
  stored, committed with a synchronous SQLite commit, and acked).

The per-reader rate limit is lifted for the throughput run (it exists to stop a broken
reader, not to slow a benchmark). Figures go to stdout.
"""

from __future__ import annotations

import argparse
import logging
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.readers.broker import Broker
from companion.readers.ingest import Ingest, TagEvent
from companion.readers.mqtt_link import MqttLink
from companion.readers.serial_link import SerialLink
from companion.readers.store import DedupStore
from companion.readers.virtual import MqttBank, SerialBank, VirtualReader


class Clock:
    """Write and callback times of every event, keyed by (reader, seq)."""

    def __init__(self) -> None:
        self.written: dict[tuple[str, int], float] = {}
        self.seen: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()

    def on_event(self, event: TagEvent) -> None:
        now = time.perf_counter()
        with self.lock:
            self.seen[(event.reader, event.seq)] = now

    def tap(self, bank, reader: str, uid: str) -> None:
        stamp = time.perf_counter()
        seq = bank.readers[reader].seq + 1
        with self.lock:
            self.written[(reader, seq)] = stamp
        bank.tap(reader, uid)


def build(path: str, count: int, tmp: Path, broker: Broker | None):
    """A hub link and a bank of ``count`` virtual readers on one transport."""
    names = [f"r{i}" for i in range(count)]
    clock = Clock()
    store = DedupStore(tmp / f"{path}-{count}.sqlite")
    ingest = Ingest(store, names, on_event=clock.on_event, rate=1e9, burst=1e9).start()
    readers = [VirtualReader(n, resend_interval=5.0) for n in names]
    if path == "serial":
        bank = SerialBank(readers, tmp / f"dev-{count}").start()
        link = SerialLink(ingest, [bank.path(n) for n in names]).start()
    else:
        assert broker is not None
        table = f"bench{count}"
        link = MqttLink(ingest, broker.url, table).start()
        link.connected.wait(10)
        bank = MqttBank(readers, broker.url, table).start()
        bank.wait_connected(60)
    deadline = time.monotonic() + 60
    while any(r.acks == 0 for r in readers) and time.monotonic() < deadline:
        time.sleep(0.05)  # every reader has said hello and been acked
    return names, clock, ingest, bank, link


def run(names, clock: Clock, bank, events: int, pace: float | None) -> None:
    """Tap ``events`` times round-robin, paced or flat out, and wait for every callback."""
    start = time.perf_counter()
    for i in range(events):
        if pace:
            delay = start + i / pace - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        clock.tap(bank, names[i % len(names)], f"04{i:012x}")
    deadline = time.monotonic() + 120
    while len(clock.seen) < len(clock.written) and time.monotonic() < deadline:
        time.sleep(0.01)


def measure(path: str, count: int, args: argparse.Namespace, tmp: Path,
            broker: Broker | None) -> None:
    """Print the throughput and latency lines of one case."""
    names, clock, ingest, bank, link = build(path, count, tmp, broker)
    try:
        events = max(args.events, count)
        run(names, clock, bank, events, None)
        first = min(clock.written.values())
        last = max(clock.seen.values())
        lost = len(clock.written) - len(clock.seen)
        rate = len(clock.seen) / (last - first)
        clock.written.clear()
        clock.seen.clear()
        run(names, clock, bank, min(events, int(args.pace * 5)), args.pace)
        lat = sorted(1000 * (clock.seen[k] - clock.written[k]) for k in clock.seen)
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
        print(f"{path:6} {count:4} readers: {rate:8.0f} events/s flat out "
              f"({events} taps{f', {lost} missing' if lost else ''}); at {args.pace:.0f}/s "
              f"latency p50 {statistics.median(lat):6.2f} ms  p99 {p99:6.2f} ms", flush=True)
    finally:
        bank.stop()
        link.stop()
        ingest.stop()
        ingest.store.close()


def main() -> None:
    """Parse the options and run every case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", nargs="+", default=["serial", "mqtt"],
                        choices=["serial", "mqtt"])
    parser.add_argument("--readers", nargs="+", type=int, default=[4, 400])
    parser.add_argument("--events", type=int, default=4000, help="taps in the throughput run")
    parser.add_argument("--pace", type=float, default=200.0, help="taps/s in the latency run")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 400 ptys need ~3,000 files
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
