"""End to end latency: a virtual reader writes a tag; a Socket.IO client receives the new state.

Run ``python bench/e2e.py [--tables 1 50] [--taps 40]``. For each case, a hub is started in
this process on loopback (real HTTP and WebSocket), with two virtual bag readers per table
on pseudo-terminals and one python-socketio client per table joined to its room. Every table
is played at once by scripted players, one action every ``--delay`` seconds; each draw is
tapped on the virtual reader and timed until that table's client receives a ``state`` push
that includes it. p50 and p99 go to stdout.
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

import socketio

from companion.cards import load_catalog
from companion.hub.app import create_app
from companion.hub.demo import ScriptedPlayers, enroll_box
from companion.hub.hub import Hub
from companion.readers.broker import free_port
from companion.readers.virtual import SerialBank, VirtualReader


class Watcher:
    """A Socket.IO client on one table's room: the last event count pushed, and when."""

    def __init__(self, url: str, table_id: str) -> None:
        self.events = -1
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self._state)
        self.client.connect(url, transports=["websocket"])
        self.client.emit("join", {"table": table_id})

    def _state(self, data: dict) -> None:
        with self.changed:
            self.events = max(self.events, data["events"])
            self.changed.notify_all()

    def wait_past(self, count: int, timeout: float = 10.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.events > count, timeout)


class TimedPlayers(ScriptedPlayers):
    """Scripted players that time each tap until the Socket.IO client sees its effect."""

    def __init__(self, *args, watcher: Watcher, taps: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.watcher, self.taps, self.latencies = watcher, taps, []

    def _do(self, how, move) -> None:
        if how != "tap":
            super()._do(how, move)
            return
        reader = self.table.config.readers[self._bag_of(move)]
        before = self.table.count
        start = time.perf_counter()
        self.bank.tap(reader, self.uids[move.pawn])
        if self.watcher.wait_past(before):
            self.latencies.append(time.perf_counter() - start)
        if len(self.latencies) >= self.taps:
            self.stop.set()


def run_case(tables: int, taps: int, tmp: Path, args_delay: float) -> list[float]:
    """Play ``tables`` tables at once; return every tap's latency in seconds."""
    readers = [f"t{t}-{s}" for t in range(tables) for s in (1, 2)]
    bank = SerialBank([VirtualReader(r, resend_interval=1.0) for r in readers],
                      tmp / f"dev{tables}").start()
    hub = Hub(tmp / f"hub{tables}.sqlite", load_catalog()).start(
        serial=[bank.path(r) for r in readers])
    uids = enroll_box(hub, 1)
    app, sio = create_app(hub)
    port = free_port()
    threading.Thread(target=sio.run, args=(app,), daemon=True, kwargs={
        "host": "127.0.0.1", "port": port, "allow_unsafe_werkzeug": True,
        "log_output": False}).start()
    time.sleep(0.5)
    players = []
    for t in range(tables):
        table, _ = hub.create_table(["Ana", "Bob"], [f"t{t}-1", f"t{t}-2"], 0, f"T{t}", t + 1)
        for seat in range(2):  # keep the first award drawn, as a phone would
            for move in table.state.legal_moves(seat):
                if move.kind == "keep_award":
                    hub.submit(table.id, move)
                    break
        watcher = Watcher(f"http://127.0.0.1:{port}", table.id)
        players.append(TimedPlayers(hub, table, bank, uids, delay=args_delay, seed=t,
                                    watcher=watcher, taps=taps))
    for p in players:
        p.start()
    for p in players:
        assert p.thread is not None
        p.thread.join(600)
    for p in players:
        p.watcher.client.disconnect()
    bank.stop()
    hub.stop()
    return [lat for p in players for lat in p.latencies]


def main() -> None:
    """Parse options, run each case, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", nargs="+", type=int, default=[1, 50])
    parser.add_argument("--taps", type=int, default=30, help="timed taps per table")
    parser.add_argument("--delay", type=float, default=0.3,
                        help="seconds between two actions at one table (a brisk real table)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="popcorn-e2e-") as tmp:
        for tables in args.tables:
            lat = sorted(1000 * x for x in run_case(tables, args.taps, Path(tmp), args.delay))
            p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
            slow = sum(1 for x in lat if x > 1000)
            print(f"{tables:3} table(s) at once: tag written -> Socket.IO state received: "
                  f"p50 {statistics.median(lat):6.2f} ms  p99 {p99:6.2f} ms  max "
                  f"{lat[-1]:.0f} ms  ({len(lat)} taps, {slow} over 1 s)", flush=True)


if __name__ == "__main__":
    main()
