"""End to end latency: a virtual reader writes a tag; a Socket.IO client receives the new state.

Run ``python bench/e2e.py [--tables 1 50] [--taps 30] [--delay 0.3]``. For each case the hub
runs as at a real table: ``popcorn-companion serve`` in its own process on loopback. This
process plays the rest of the room: two virtual bag readers per table on pseudo-terminals
(the bags' USB cables), one python-socketio client per table joined to its room (the
tablet), and scripted players per table who decide over the REST API, one action every
``--delay`` seconds, all tables at once. Each draw is tapped on its virtual reader and timed
until that table's client receives a ``state`` push that includes it. p50 and p99 go to
stdout.
"""

from __future__ import annotations

import argparse
import logging
import random
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path

import socketio

from companion.games.popcorn.demo import ScriptedPlayers
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.tags import random_uid
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
        before = self.table.count  # committed events; the tap's push carries more
        start = time.perf_counter()
        self.bank.tap(reader, self.uids[move.pawn])
        if self.watcher.wait_past(before):
            self.latencies.append(time.perf_counter() - start)
        if len(self.latencies) >= self.taps:
            self.stop.set()


def run_case(tables: int, taps: int, tmp: Path, delay: float) -> list[float]:
    """Play ``tables`` tables at once on a fresh hub; return every tap's latency (s)."""
    readers = [f"t{t}-{s}" for t in range(tables) for s in (1, 2)]
    bank = SerialBank([VirtualReader(r, resend_interval=1.0) for r in readers],
                      tmp / f"dev{tables}").start()
    server = ServeProcess(tmp / f"hub{tables}.sqlite", serial=[bank.path(r) for r in readers],
                          readers=readers).start()
    uids = {pawn: random_uid(random.Random(pawn)) for pawn in range(60)}
    server.import_tags(uids)
    catalog = load_catalog()
    players = []
    for t in range(tables):
        info = server.create_table({"players": ["Ana", "Bob"], "readers": readers[2 * t:2 * t + 2],
                                    "deal_seed": t + 1})
        table = RemoteTable(server.base, info, catalog)
        table.keep_first_awards()
        watcher = Watcher(server.base, table.id)
        players.append(table.players(bank, uids, t, delay=delay, kind=TimedPlayers,
                                     watcher=watcher, taps=taps))
    for p in players:
        p.start()
    for p in players:
        assert p.thread is not None
        p.thread.join(600)
    for p in players:
        p.watcher.client.disconnect()
    server.stop()
    bank.stop()
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
            if not lat:
                print(f"{tables:3} table(s): no tap was timed (see the serve log)")
                continue
            p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
            slow = sum(1 for x in lat if x > 1000)
            print(f"{tables:3} table(s) at once: tag written -> Socket.IO state received: "
                  f"p50 {statistics.median(lat):6.2f} ms  p99 {p99:6.2f} ms  max "
                  f"{lat[-1]:.0f} ms  ({len(lat)} taps, {slow} over 1 s)", flush=True)


if __name__ == "__main__":
    main()
