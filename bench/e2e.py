"""End to end latency: a virtual reader writes a tag; a Socket.IO client receives the new state.

Run ``python bench/e2e.py [--tables 1 50] [--taps 30] [--delay 0.3] [--servers gunicorn]``.
For each case the hub runs as at a real table: ``popcorn-companion serve`` in its own process
on loopback. This process plays the rest of the room: two virtual bag readers per table on
pseudo-terminals (the bags' USB cables), one python-socketio client per table joined to its
room (the tablet), and scripted players per table who decide over the REST API (one kept
connection per table, as its tablet's browser keeps one: :class:`Session`), one action
every ``--delay`` seconds, all tables at once (each starting at a moment drawn within its
first ``--delay``: the tables of a room do not act in step). Each draw is tapped on its
virtual reader and timed until that table's client receives a ``state`` push that includes
it.

The players see each table's whole position (the bags' contents included, which they need
to draw as a real bag would) the way people at a real table do: without asking the hub.
This process reads the table's new events from the hub's SQLite file, read only, and replays
them on its own copy (:class:`FileTable`). ``--look http`` has them GET the state at each
change instead (:class:`CachedTable`), as the bench did until then: one request per action
that no real room makes, and a third of the hub's CPU per action at 500 tables (3.6 to 3.9
ms against 2.4, side by side in one run).

Per case it prints p50, p99 and max, then where a tap's time goes (p50 and p99 of each
stage, from the hub's own stamps: ``POPCORN_TIMING``, :mod:`companion.hub.timing`):

- ``link``: the tag written on the pseudo-terminal until the hub's serial link hands it over;
- ``queue``: waiting in the ingest's queue for its batch;
- ``lock``: the batch waiting for the hub's lock (another batch or a request holds it);
- ``play``: the table playing and logging it (under the lock);
- ``commit``: the rest of the batch and its SQLite commit (under the lock);
- ``notify``: the committed push waiting for the notifier thread;
- ``view``: building the table's view;
- ``send``: Socket.IO sending it;
- ``client``: until this process's client has it in hand.

The case's tail ratio is its p99 over the first case's (the goal: at most 3 at 50 tables).
The first case times ``--first-taps`` taps (200, in as many games as it takes): with 30,
its p99 would be its slowest tap, and one hiccup of a shared machine would move every ratio.

``--baseline REV`` also runs every case, first, on the hub of commit REV (before and after in
one run). ``--servers gunicorn gevent werkzeug`` runs every case on each server in turn, in
one run, so that the comparison is a ratio on the same machine state (gevent must be
installed; Werkzeug's development server is the hub's server before issue 26, kept only to
compare).

``--capacity`` raises the number of tables at one action per table every 3 s (the pace of a
real table) until the p99 passes 100 ms, and prints the last count under it with the hub's
memory per table (the resident size of ``serve``'s worker). With ``--baseline`` each step
runs on the baseline's hub first; the count is this hub's.

``--hub-env NAME=VALUE[,NAME=VALUE] ...`` runs every case in each of these environments of
the hub (``-``: the default), side by side in one run: ``--hub-env POPCORN_GC=python -``
compares Python's own garbage collector with the hub's (:mod:`companion.hub.collector`).
This process uses the hub's collector too: its own pauses, with hundreds of clients in
it, would otherwise count as the hub's.

``--players N`` seats N players at each table (2; one bag reader each). ``--mats`` (issue 40)
also puts a virtual cinema mat under each player's board (``m<table>-<seat>``, on
pseudo-terminals beside the bags, trusted by ``serve --mat`` and bound per seat as ``demo
--mats`` binds them): the players seat their guests, send them to the exit zone and end
their activations by setting pawns down on the mats instead of on the tablet, and after each
action move on the mats what the rules moved (:class:`ScriptedPlayers`' own hands). A
baseline (``--baseline``) always runs without mats: a hub before issue 40 has none.
``--mats off on`` runs this hub both ways in turn. With ``--mats`` the players put every
guest in the seat a mat would give it (:func:`companion.games.popcorn.mats.seat_for`), with
or without mats, so that the runs play the same games, and each case prints its hub's CPU
per action against the baseline's (or the first way's) as a ratio. The games part ways only
where the hub deals a card ("deal for us" draws with the table's event count in its seed,
and a mat's report that plays no move is a logged event): the ratio is per action. An
**action** is one move of the players': a draw tapped on a bag, a decision on the tablet,
or a guest set down or carried on a mat (the mats' tidying reports, which play no move,
are not actions; the table events the hub logged are printed beside them).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import itertools
import json
import logging
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import socketio

from companion.games import build as build_games
from companion.games.popcorn.demo import ScriptedPlayers
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.mats import seat_for
from companion.games.popcorn.remote import RemoteTable
from companion.hub.collector import Collector
from companion.hub.remote import ServeProcess
from companion.hub.timing import ENV as TIMING_ENV
from companion.kit.http import Session
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader
from companion.table.table import Table, TableConfig

REPO = Path(__file__).resolve().parents[1]

CASES = itertools.count()
"""Numbers each case's files apart (a case played again gets a fresh hub)."""

STAGES = ("link", "queue", "lock", "play", "commit", "notify", "view", "send", "client")
"""The stages of a tap's way, in order (see the module's docstring)."""


class Watcher:
    """A Socket.IO client on one table's room: the last event count pushed, and when each
    count first arrived; how many ``readers`` pushes came (every screen gets them), and when
    the connection was lost, if it was."""

    def __init__(self, url: str, table_id: str) -> None:
        self.events = -1
        self.arrivals: list[tuple[int, float]] = []
        self.readers = 0
        self.listed = 0
        """The most readers a ``readers`` push listed."""
        self.lost: float | None = None
        self.closing = False
        self.changed = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self._state)
        self.client.on("readers", self._readers)
        self.client.on("disconnect", self._lost)
        self.client.connect(url, transports=["websocket"])
        self.client.emit("join", {"table": table_id})

    def _state(self, data: dict) -> None:
        now = time.monotonic()
        with self.changed:
            if data["events"] > self.events:
                self.arrivals.append((data["events"], now))
            self.events = max(self.events, data["events"])
            self.changed.notify_all()

    def _readers(self, data: list) -> None:
        self.readers += 1
        self.listed = max(self.listed, len(data))

    def _lost(self, *reason: Any) -> None:
        with self.changed:
            if not self.closing:
                self.lost = time.monotonic()
            self.changed.notify_all()

    def wait_past(self, count: int, timeout: float = 10.0) -> bool:
        """Wait until a push carries more than ``count`` events (False: none came in
        ``timeout`` s, or the connection is lost)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.events > count or self.lost is not None,
                                         timeout) \
                and self.lost is None

    def close(self) -> None:
        """Disconnect (the case is over)."""
        self.closing = True
        self.client.disconnect()


class CachedTable(RemoteTable):
    """A remote table whose players re-read the hub's state once per change (a push, or
    their own action) instead of at every look (two GETs of the whole state and record,
    three or four times per action): the players stand for people looking at the table,
    not for a client that polls the hub. Before issue 26 the bench polled, and that load
    on the hub and on this process was part of what it measured (``--look http``)."""

    watcher: Watcher

    @property
    def state(self):  # type: ignore[override]
        seen = self.watcher.events
        if getattr(self, "_seen", None) != seen:
            self._state_cache = self._look()
            self._seen = seen
        return self._state_cache

    def _look(self) -> Any:
        """The table's whole position, as the hub has it now: one GET of ``/state``."""
        return RemoteTable.state.fget(self)  # type: ignore[attr-defined]


class FileTable(CachedTable):
    """A remote table whose players see its position without asking the hub: this process
    reads the new events of the table's log from the hub's SQLite file (read only: WAL lets
    a reader look while the hub writes) and replays them on its own copy of the table
    (:meth:`companion.table.table.Table.replay`, the hub's own code for a restart).

    The players stand for people at a real table, who see the pawns, bags and cards on the
    board: the hub never serves them the whole hidden position. Asking for it over HTTP at
    every change (:class:`CachedTable`, ``--look http``) was one request per action that no
    real room makes, a third of the hub's CPU at 500 tables."""

    def watch_file(self, db: sqlite3.Connection, games: dict[str, Any]) -> None:
        """Look at the table through ``db``: a read-only connection of this table's own,
        which only its players' thread uses once they play (closed by :meth:`unwatch`)."""
        row = db.execute("SELECT config FROM hub_tables WHERE id=?", (self.id,)).fetchone()
        config = TableConfig.from_dict(json.loads(row[0]))
        self.db, self.copy = db, Table(config, games[config.game], None)  # type: ignore[arg-type]

    def unwatch(self) -> None:
        """Close the connection to the hub's file (the case is over)."""
        self.db.close()

    def _look(self) -> Any:
        rows = self.db.execute("SELECT n, kind, body FROM table_events WHERE table_id=? AND "
                               "n>? ORDER BY n", (self.id, self.copy.count)).fetchall()
        self.copy.replay([(n, kind, json.loads(body)) for n, kind, body in rows])
        return self.copy.state


class TimedPlayers(ScriptedPlayers):
    """Scripted players that time each tap until the Socket.IO client sees its effect.

    With ``mat_seats`` they put each guest they seat in the seat a mat would give it
    (:func:`seat_for`), with or without mats, so that a run with mats and one without play
    the same games (as far as the hub deals the same cards)."""

    def __init__(self, *args, watcher: Watcher, taps: int, mat_seats: bool = False,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.watcher, self.taps, self.mat_seats = watcher, taps, mat_seats
        self.latencies: list[float] = []
        self.written: list[tuple[int, float, float]] = []
        """Each timed tap: the count before it, when it was written, when it was seen."""

    def run(self) -> None:
        """Play, from a moment drawn at random within the first ``delay``: the tables of a
        room do not act in step (all starting at once, they would tap in bursts of every
        table, which no real room makes)."""
        if self.stop.wait(random.Random(self.table.id).uniform(0, self.delay)):
            return
        super().run()

    def _choose(self) -> tuple[str, Any] | None:
        step = super()._choose()
        if step is None or not self.mat_seats or step[1].kind != "place":
            return step
        return step[0], self.mat_seat(step[1])

    def mat_seat(self, move: Any) -> Any:
        """``move`` (a ``place``) in the seat a mat's report would give the guest, when
        that is a legal move; else ``move`` itself."""
        state = self.table.state
        seated = dataclasses.replace(move, seat=seat_for(state, move.player, move.slot))
        return seated if seated in state.legal_moves(move.player) else move

    def _on_mat(self, move: Any) -> None:
        """A move on a mat, then wait for its push: the next look must see it (a zone's
        report is acked before its state is pushed)."""
        before = self.watcher.events
        super()._on_mat(move)
        self.watcher.wait_past(before)
        self.table._seen = None

    def _do(self, how, move) -> None:
        if self.watcher.lost:  # the tablet is gone: the case is over for this table
            self.stop.set()
            return
        self.table._seen = None  # their own action: look again afterwards
        if how != "tap":
            super()._do(how, move)
            return
        reader = self.table.config.readers[self._bag_of(move)]
        before = self.watcher.events  # the tap's push carries more
        start = time.monotonic()
        self.bank.tap(reader, self.uids[move.pawn])
        if self.watcher.wait_past(before):
            seen = time.monotonic()
            self.latencies.append(seen - start)
            self.written.append((before, start, seen))
        if len(self.latencies) >= self.taps or self.watcher.lost:
            self.stop.set()  # enough taps, or the tablet lost its connection


@dataclasses.dataclass(frozen=True)
class Room:
    """What each table of a case has: ``players`` seats (a bag reader each), and a cinema
    mat under each player's board with ``mats``; ``mat_seats``: the players seat guests
    where a mat would (see :class:`TimedPlayers`)."""

    players: int = 2
    mats: bool = False
    mat_seats: bool = False

    def readers(self, tables: int) -> list[str]:
        """The bag readers of ``tables`` tables, table by table."""
        return [f"t{t}-{s}" for t in range(tables) for s in range(1, self.players + 1)]

    def mat_ids(self, tables: int) -> list[str]:
        """The mats of ``tables`` tables, table by table (none without :attr:`mats`)."""
        return [f"m{t}-{s}" for t in range(tables)
                for s in range(1, self.players + 1)] if self.mats else []

    def seats(self, ids: list[str], table: int) -> list[str]:
        """Table ``table``'s share of ``ids`` (its readers, or its mats)."""
        return ids[self.players * table:self.players * (table + 1)]


def run_case(tables: int, taps: int, tmp: Path, delay: float, server: str,
             seconds: float | None = None, variant: str | None = None,
             code: Path | None = None, look: str = "file",
             room: Room = Room()) -> dict[str, Any]:
    """Play ``tables`` tables at once on a fresh hub run by ``server``; every tap's latency
    (s), the stages of each, and the hub's memory. ``look``: how the players see each
    table's position (``file``: :class:`FileTable`; ``http``: :class:`CachedTable`);
    ``room``: the seats and mats of each table."""
    name = f"{server}-{tables}-{code.name if code else 'current'}-{next(CASES)}"
    readers, mats = room.readers(tables), room.mat_ids(tables)
    bank = SerialBank([VirtualReader(r, resend_interval=1.0) for r in readers]
                      + [VirtualMat(m, resend_interval=1.0) for m in mats],
                      tmp / f"dev-{name}").start()
    stamps, db = tmp / f"timing-{name}.jsonl", tmp / f"hub-{name}.sqlite"
    try:
        hub = _start_hub(db, bank, [*readers, *mats], stamps, server, variant, code, room)
        try:
            return _play_case(hub, bank, tables, stamps, delay, taps, seconds,
                              db if look == "file" else None, room)
        finally:
            hub.stop()  # a case that failed leaves no hub behind it
    finally:
        bank.stop()


def _start_hub(db: Path, bank: SerialBank, readers: list[str], stamps: Path, server: str,
               variant: str | None, code: Path | None, room: Room = Room()) -> ServeProcess:
    """A ``serve`` process on ``bank``'s readers (the bags, then the mats of ``room``),
    stamping taps into ``stamps``, in the environment ``variant`` (``NAME=VALUE,...``), on
    the hub of ``code`` (None: this one)."""
    os.environ[TIMING_ENV], os.environ["POPCORN_SERVER"] = str(stamps), server
    settings = dict(item.split("=", 1) for item in (variant or "").split(",") if item)
    os.environ.update(settings)
    mats = [r for r in readers if isinstance(bank.readers[r], VirtualMat)]
    try:
        return ServeProcess(db, serial=[bank.path(r) for r in readers],
                            readers=[r for r in readers if r not in mats], mats=mats,
                            cwd=code).start(timeout=120)
    finally:
        del os.environ[TIMING_ENV], os.environ["POPCORN_SERVER"]
        for key in settings:
            del os.environ[key]


PLAYER_NAMES = ("Ana", "Bob", "Chloe", "Dev", "Eve")
"""The players' names, as many as a table seats."""


def _play_case(hub: ServeProcess, bank: SerialBank, tables: int, stamps: Path,
               delay: float, taps: int, seconds: float | None,
               db: Path | None, room: Room = Room()) -> dict[str, Any]:
    """Make ``tables`` tables of ``room`` (on ``bank``'s readers and mats) on ``hub``, play
    them all (:func:`_play_here`), and gather the case's figures."""
    uids = {pawn: random_uid(random.Random(pawn)) for pawn in range(60)}
    hub.import_tags(uids)
    readers, mats = room.readers(tables), room.mat_ids(tables)
    infos = []
    for t in range(tables):
        body: dict[str, Any] = {"players": list(PLAYER_NAMES[:room.players]),
                                "readers": room.seats(readers, t), "deal_seed": t + 1}
        if mats:
            body["mats"] = room.seats(mats, t)
        infos.append(hub.create_table(body))
    for info in infos:
        RemoteTable(hub.base, info, load_catalog()).keep_first_awards()
    bench_cpu, hub_cpu, start = _own_cpu(), _cpu(hub), time.monotonic()
    results = _play_here(hub.base, infos, bank, delay, taps, seconds, db, room)
    rss, cpu = _rss(hub), _cpu(hub)
    lost = [r["lost"] - start for r in results.values() if r["lost"] is not None]
    reports = sum(r.seq for r in bank.readers.values() if isinstance(r, VirtualMat))
    listed = max(r["listed"] for r in results.values())
    return {"taps": timed(results, stamps), "rss": rss, "cpu": cpu, "reports": reports,
            "listed": listed,
            "bench_cpu": _own_cpu() - bench_cpu, "play_cpu": cpu - hub_cpu,
            **{k: sum(r[k] for r in results.values()) for k in ("actions", "events", "readers")},
            "lost": lost}


def _play_here(base: str, infos: list[dict[str, Any]], bank: SerialBank, delay: float,
               taps: int, seconds: float | None, db: Path | None,
               room: Room = Room()) -> dict[str, Any]:
    """Play every table here until its game ends or ``seconds`` pass; with ``db`` (the
    hub's file) the players look at it (:class:`FileTable`), else they GET the state."""
    mats = room.mat_ids(len(infos))
    players = [_players_of(base, info, n, bank, delay, taps, db, room, room.seats(mats, n))
               for n, info in enumerate(infos)]
    for p in players:
        p.start()
    deadline = time.monotonic() + (seconds or 600)
    for p in players:  # until every game ends or the time is up (never a wait past it)
        assert p.thread is not None
        left = deadline - time.monotonic()
        if left <= 0:
            break
        p.thread.join(left)
    for p in players:
        p.stop.set()
    for p in players:
        assert p.thread is not None
        p.thread.join(10)
        p.watcher.close()
        if isinstance(p.table, FileTable):
            p.table.unwatch()
    return {p.table.id: {"written": p.written, "arrivals": p.watcher.arrivals,
                         "actions": p.actions, "events": max(0, p.watcher.events),
                         "readers": p.watcher.readers, "listed": p.watcher.listed,
                         "lost": p.watcher.lost}
            for p in players}


def _players_of(base: str, info: dict[str, Any], n: int, bank: SerialBank, delay: float,
                taps: int, db: Path | None, room: Room, mats: list[str]) -> TimedPlayers:
    """The timed players of table ``info`` (the ``n``-th), looking at it through ``db``
    (None: GETs), with its ``mats`` (one per seat, or none) in their hands."""
    uids = {pawn: random_uid(random.Random(pawn)) for pawn in range(60)}
    table = (FileTable if db else CachedTable)(base, info, load_catalog())
    if isinstance(table, FileTable) and db:
        table.watch_file(sqlite3.connect(f"file:{db}?mode=ro", uri=True,
                                         check_same_thread=False), build_games())
    table.call = Session().call  # one kept connection per table, as its tablet's browser
    table.watcher = Watcher(base, table.id)
    return table.players(bank, uids, n, delay=delay, kind=TimedPlayers,
                         watcher=table.watcher, taps=taps, mat_seats=room.mat_seats,
                         mats={seat: bank.readers[m] for seat, m in enumerate(mats)})


def timed(results: dict[str, Any], stamps: Path) -> list[dict[str, float]]:
    """Each timed tap's latency and stages (s), joined with the hub's stamps by table and
    event count: the tap is the first the hub played past the count the client had; its
    push the first of that table to carry it."""
    taps: dict[str, list[dict[str, Any]]] = {}
    pushes: dict[str, list[dict[str, Any]]] = {}
    if stamps.exists():
        for line in stamps.read_text().splitlines():
            row = json.loads(line)
            (taps if row["kind"] == "tap" else pushes).setdefault(row["table"], []).append(row)
    out = []
    for table, result in results.items():
        for before, written, seen in result["written"]:
            row: dict[str, float] = {"total": seen - written}
            tap = next((t for t in taps.get(table, []) if t["events"] > before), None)
            push = tap and next((p for p in pushes.get(table, [])
                                 if p["events"] >= tap["events"]), None)
            if tap and push and tap["received"] is not None:
                row.update(link=tap["received"] - written, queue=tap["started"] - tap["received"],
                           lock=tap["locked"] - tap["started"], play=tap["handled"] - tap["locked"],
                           commit=tap["committed"] - tap["handled"],
                           notify=push["started"] - tap["committed"],
                           view=push["viewed"] - push["started"],
                           send=push["sent"] - push["viewed"], client=seen - push["sent"])
            out.append(row)
    return out


def _rss(hub: ServeProcess) -> int:
    """The resident size (bytes) of the process that holds the hub: gunicorn's worker, or
    ``serve`` itself on the other servers."""
    pids = hub.children() or [hub.proc.pid] if hub.proc else []
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def _cpu(hub: ServeProcess) -> float:
    """CPU seconds the hub's processes (``serve`` and its worker) have used so far."""
    assert hub.proc is not None
    total = 0.0
    for pid in [hub.proc.pid, *hub.children()]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _own_cpu() -> float:
    """CPU seconds this process (the bench: readers, players, watchers) has used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, as the bench always took it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(label: str, case: dict[str, Any], base_p99: float | None) -> float | None:
    """Print a case's figures and breakdown; its p99 (ms), None if no tap was timed."""
    lat = [1000 * t["total"] for t in case["taps"]]
    if not lat:
        print(f"{label}: no tap was timed (see the serve log)", flush=True)
        return None
    p99 = percentile(lat, 0.99)
    slow = sum(1 for x in lat if x > 1000)
    ratio = f"  tail ratio {p99 / base_p99:5.1f}" if base_p99 else ""
    print(f"{label}: tag written -> Socket.IO state received: p50 {statistics.median(lat):6.2f}"
          f" ms  p99 {p99:6.2f} ms  max {max(lat):.0f} ms  ({len(lat)} taps, {slow} over 1 s)"
          f"{ratio}", flush=True)
    staged = [t for t in case["taps"] if "link" in t]
    if staged:
        parts = []
        for stage in STAGES:
            values = [1000 * t[stage] for t in staged]
            parts.append(f"{stage} {statistics.median(values):.1f}/{percentile(values, .99):.1f}")
        print(f"    where it goes (p50/p99 ms, {len(staged)} taps): " + "  ".join(parts),
              flush=True)
    return p99


def cpu_note(case: dict[str, Any]) -> str:
    """The CPU the hub and the bench used: in all, and per action while the tables played
    (the hub's figure leaves out its start and the tables' creation)."""
    per = max(1, case["actions"])
    lost = (f"; {len(case['lost'])} tablets lost their connection, the first after "
            f"{min(case['lost']):.0f} s" if case["lost"] else "")
    return (f"CPU: hub {case['cpu']:.1f} s, {1000 * case['play_cpu'] / per:.2f} ms per action "
            f"while playing ({case['actions']} actions, {case['reports']} mat reports, "
            f"{case['readers']} readers pushes of up to {case['listed']} readers received by "
            f"the tablets{lost}); bench "
            f"{case['bench_cpu']:.1f} s, {1000 * case['bench_cpu'] / per:.2f} ms per action")


def load_note() -> str:
    """The machine's load averages now (``uptime``'s)."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def unpack(rev: str, into: Path) -> str:
    """The ``companion`` package of commit ``rev`` (with the ``web`` and ``firmware``
    folders it links to), unpacked into ``into``; its short id."""
    sha = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=REPO,
                         check=True, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", "--format=tar", sha, "companion", "web",
                              "firmware"], cwd=REPO, check=True, capture_output=True).stdout
    (into / "companion.tar").write_bytes(archive)
    with tarfile.open(into / "companion.tar") as tar:
        tar.extractall(into, filter="data")
    return sha


def run_until(taps: int, play: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``play()`` a case again and again, pooling its taps, until ``taps`` taps are timed
    or a game times none: one game ends before 200 taps at one table (its tables stop when
    their games are over), and the tail ratio's base needs that many."""
    case = play()
    while len(case["taps"]) < taps:
        more = play()
        if not more["taps"]:
            break
        case = {**more, "taps": case["taps"] + more["taps"],
                **{k: case[k] + more[k] for k in ("cpu", "bench_cpu", "play_cpu", "actions",
                                                  "events", "readers", "lost", "reports")}}
    return case


def variants(args: argparse.Namespace) -> list[str | None]:
    """The hub's environments each case runs in: ``--switch`` intervals and ``--hub-env``
    settings (``NAME=VALUE[,NAME=VALUE]``, ``-`` for none), or just the default one."""
    out: list[str | None] = [f"POPCORN_SWITCH_INTERVAL={s}" for s in args.switch or []]
    out += [None if v == "-" else v for v in args.hub_env or []]
    for variant in out:
        if variant and not all("=" in item for item in variant.split(",")):
            raise SystemExit(f"--hub-env {variant!r}: each setting is NAME=VALUE, "
                             "settings apart by commas")
    return out or [None]


def codes_of(args: argparse.Namespace, tmp: Path) -> list[tuple[str, Path | None]]:
    """The hubs each case runs on: the baseline's first (``--baseline``), then this one."""
    codes: list[tuple[str, Path | None]] = [("", None)]
    if args.baseline:
        (tmp / "baseline").mkdir()
        sha = unpack(args.baseline, tmp / "baseline")
        codes.insert(0, (f"{sha} ", tmp / "baseline"))
    return codes


Way = tuple[str, Path | None, Room]
"""One hub a case runs on: its label's tag, its code (None: this one) and its room."""


def ways_of(args: argparse.Namespace, codes: list[tuple[str, Path | None]]) -> list[Way]:
    """The hubs each case runs on with the room of each: without ``--mats`` every code in a
    room without mats; with it the baseline's without mats (it has none), then this hub in
    each way ``--mats`` names (``on``, ``off``), every one seating guests where a mat would."""
    if args.mats is None:
        return [(tag, code, Room(args.players)) for tag, code in codes]
    out: list[Way] = [(tag, code, Room(args.players, mat_seats=True))
                      for tag, code in codes if code is not None]
    for mode in args.mats or ["on"]:
        out.append((f"mats={mode} ", None, Room(args.players, mode == "on", True)))
    return out


def setups(args: argparse.Namespace, codes: list[tuple[str, Path | None]],
           ) -> itertools.product[tuple[str, str | None, str, Way]]:
    """Every way a case runs, in the order of the run: each server, hub environment and
    way of looking (``--look``), each on the baseline's hub first (and with ``--mats``, in
    each way it names)."""
    return itertools.product(args.servers, variants(args), args.look, ways_of(args, codes))


def looked(args: argparse.Namespace, look: str) -> str:
    """The case label's word for ``look`` when a run compares several ways of looking."""
    return f"look={look} " if len(args.look) > 1 else ""


def per_action(case: dict[str, Any]) -> float:
    """The hub's CPU per action while the tables played (ms)."""
    return 1000 * case["play_cpu"] / max(1, case["actions"])


def ratio_note(case: dict[str, Any], first: tuple[str, dict[str, Any]] | None) -> str:
    """The hub's CPU per action of ``case`` over that of the first way of its row (its
    label and case), e.g. this hub with mats against the baseline without."""
    if first is None:
        return ""
    label, base = first
    return (f"    hub CPU per action {per_action(case):.2f} ms against {per_action(base):.2f} "
            f"ms on {label.strip()}: {per_action(case) / per_action(base):.2f}x (actions "
            f"{case['actions']} and {base['actions']}; table events {case['events']} and "
            f"{base['events']})")


def compare(args: argparse.Namespace, tmp: Path) -> None:
    """The latency cases, on each server in turn (and the baseline's hub first)."""
    codes = codes_of(args, tmp)
    base: dict[str, float | None] = {}
    for n, tables in enumerate(args.tables):
        taps = max(args.taps, args.first_taps) if n == 0 else args.taps
        firsts: dict[tuple[str, str | None, str], tuple[str, dict[str, Any]]] = {}
        for server, variant, look, (tag, code, room) in setups(args, codes):
            case = run_until(taps, functools.partial(run_case, tables, taps, tmp, args.delay,
                                                     server, variant=variant, code=code,
                                                     look=look, room=room))
            key = f"{tag}{server} {variant or ''}{looked(args, look)}"
            p99 = report(f"{key:22} {tables:4} table(s) at once", case, base.get(key))
            base.setdefault(key, p99)
            print(f"    ({cpu_note(case)}; {load_note()})", flush=True)
            row = (server, variant, look)
            if row in firsts:
                print(ratio_note(case, firsts[row]), flush=True)
            firsts.setdefault(row, (key, case))


def capacity(args: argparse.Namespace, tmp: Path) -> None:
    """Raise the tables at one action per table every 3 s until the p99 passes 100 ms (each
    step on the baseline's hub first with ``--baseline``; the count is this hub's)."""
    codes = codes_of(args, tmp)
    last, first = None, None
    for tables in args.steps:
        for server, variant, look, (tag, code, room) in setups(args, codes):
            case = run_case(tables, 10**6, tmp, 3.0, server, seconds=args.seconds,
                            variant=variant, code=code, look=look, room=room)
            label = (f"{tag}{server} {f'{variant} ' if variant else ''}"
                     f"{looked(args, look)}capacity")
            p99 = report(f"{label} {tables:4} table(s), one action each per 3 s", case, None)
            if code is not None:
                print(f"    ({cpu_note(case)}; {load_note()})", flush=True)
                continue
            first = first or (tables, case["rss"])
            per_table = memory_note(case["rss"], tables, first)
            print(f"    ({cpu_note(case)}; {load_note()})", flush=True)
        if p99 is None or p99 > 100:
            break
        last = (tables, per_table)
    if last:
        print(f"capacity: {last[0]} tables with a p99 under 100 ms; the hub's memory "
              f"{last[1]:.0f} KiB per table", flush=True)
    else:
        print("capacity: not even the first step kept its p99 under 100 ms", flush=True)


def memory_note(rss: int, tables: int, first: tuple[int, int]) -> float:
    """Print the hub's memory at ``tables`` tables; return its KiB per table (beyond the
    first step's, whose own is all of its memory over its tables)."""
    beyond = tables > first[0]
    per_table = ((rss - first[1]) / (tables - first[0]) if beyond else rss / tables) / 1024
    print(f"    hub memory {rss / 2**20:.0f} MiB, {per_table:.0f} KiB per table "
          f"({'beyond the first step' if beyond else 'all of it'})", flush=True)
    return per_table


def main() -> None:
    """Parse options, run each case, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", nargs="+", type=int, default=[1, 50])
    parser.add_argument("--taps", type=int, default=30, help="timed taps per table")
    parser.add_argument("--first-taps", type=int, default=200,
                        help="timed taps of the first case (the tail ratio's base): enough "
                        "that its p99 is not simply its slowest tap")
    parser.add_argument("--delay", type=float, default=0.3,
                        help="seconds between two actions at one table (a brisk real table)")
    parser.add_argument("--servers", nargs="+", default=["gunicorn"],
                        choices=("gunicorn", "gevent", "werkzeug"),
                        help="run each case on each of these web servers in turn")
    parser.add_argument("--baseline", metavar="REV",
                        help="also run each case, first, on the hub of commit REV (its "
                        "companion package, unpacked): before and after in one run")
    parser.add_argument("--switch", nargs="+", metavar="SECONDS",
                        help="run each case with each of these interpreter switch intervals "
                        "in the hub (POPCORN_SWITCH_INTERVAL)")
    parser.add_argument("--hub-env", nargs="+", metavar="SETTINGS",
                        help="run each case in each of these hub environments, "
                        "NAME=VALUE[,NAME=VALUE] (- for the default): side by side, one run")
    parser.add_argument("--look", nargs="+", choices=("file", "http"), default=["file"],
                        help="how the players see a table's whole position: read from the "
                        "hub's database file (file), or a GET of its state at each change "
                        "(http: a load no real room puts on the hub); several: each in turn")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6),
                        help="players at each table, a bag reader each (2)")
    parser.add_argument("--mats", nargs="*", choices=("on", "off"),
                        help="a cinema mat under each player's board: the players seat and "
                        "send out guests on the mats (issue 40); --mats off on: this hub both "
                        "ways in turn. A baseline runs without. Guests go in the seat a mat "
                        "would give, every way, and the hub's CPU per action is compared")
    parser.add_argument("--capacity", action="store_true",
                        help="raise the tables (one action per 3 s) until the p99 passes 100 ms")
    parser.add_argument("--steps", nargs="+", type=int,
                        default=[50, 100, 200, 300, 400, 500, 600, 800, 1000],
                        help="table counts --capacity tries, in order")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="how long --capacity plays each step")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"bench/e2e.py on {os.cpu_count()} cores ({load_note()})", flush=True)
    Collector().start()
    with tempfile.TemporaryDirectory(prefix="popcorn-e2e-") as tmp:
        if args.capacity:
            capacity(args, Path(tmp))
        else:
            compare(args, Path(tmp))


if __name__ == "__main__":
    main()
