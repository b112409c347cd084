"""Soak: whole 4-player games on several tables at once, through every fault we know of.

Run ``python bench/soak.py [--games 10] [--tables 4] [--seed 1] [--fault-every 2.0]``. The
hub is a real ``popcorn-companion serve`` process. Half the tables (rounded up) have their
bags on virtual serial readers (pseudo-terminals), the others on virtual MQTT readers that
log in as themselves on a Mosquitto this script runs (the hub connects to it with its own
login, as ``serve --mqtt URL``). Scripted players tap pawns on the readers and decide over
the REST API; the hub deals the cards ("deal for us"). Each table plays games one after the
other until ``--games`` games are done.

Meanwhile, every ``--fault-every`` seconds on average, one fault is injected, each kind once
in every six, in random order:

* ``unplug``: a serial reader's pty vanishes for 0.1-1 s, then comes back under its name;
* ``broker_restart``: Mosquitto stops and starts again on its port with its sessions;
* ``hub_kill``: ``serve`` gets SIGKILL and is started again on the same database;
* ``garbage``: a line (or MQTT payload) of random bytes on a reader's link;
* ``duplicate``: a reader sends one of its recent taps again;
* ``out_of_order``: a reader sends its last few taps again, newest first.

The players keep their own game: each move they made, as they saw it confirmed, with the
deals the hub made after it. After each game the table's exported record is replayed and
must give the same state as the players' own game and as the hub's live state; every tap
must have been applied exactly once. Figures go to stdout: games, faults by kind, taps, and
taps lost or doubled, which must be 0 (the exit status is 1 otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import logging
import random
import resource
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion.games.popcorn.demo import ScriptedPlayers
from companion.games.popcorn.engine.moves import Move
from companion.games.popcorn.engine.setup import new_game
from companion.games.popcorn.engine.state import GameState
from companion.games.popcorn.facts_file import Catalog, load_catalog
from companion.games.popcorn.parts import DEALT as AUTO_DEAL_KINDS
from companion.games.popcorn.record import loads_record, replay
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.errors import TableError
from companion.kit.http import HttpError, call
from companion.kit.tags import random_uid
from companion.readers import protocol as proto
from companion.readers.accounts import ReaderAccounts
from companion.readers.broker import Broker
from companion.readers.virtual import MqttBank, SerialBank, VirtualReader

PLAYERS = ["Ana", "Bob", "Chloe", "Dev"]
FAULTS = ("unplug", "broker_restart", "hub_kill", "garbage", "duplicate", "out_of_order")
"""Every kind of fault, in the order the summary prints them."""
PATIENCE = 90.0
"""Seconds a player waits for the hub (through kills and restarts) before giving up."""
T = TypeVar("T")


class Unreachable(RuntimeError):
    """The hub did not answer for :data:`PATIENCE` seconds."""


def patiently(action: Callable[[], T]) -> T:
    """Run an HTTP ``action`` until the hub answers it (it may be down for a restart).

    A refusal (4xx) is an answer and is raised at once; a connection error or a 5xx is
    retried.
    """
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            return action()
        except HttpError as exc:
            if exc.status < 500:
                raise
        except (OSError, http.client.HTTPException):
            pass  # refused, reset, or cut short by a kill
        if time.monotonic() > deadline:
            raise Unreachable("the hub did not answer")
        time.sleep(0.1)


class SoakReader(VirtualReader):
    """A virtual reader that remembers what it sent, so a fault can send it again."""

    def __init__(self, reader: str, **options: Any) -> None:
        super().__init__(reader, resend_interval=0.3, **options)
        self.sent: list[bytes] = []

    def tap(self, uid: str) -> int:
        """Tap, and keep the payload for :meth:`again` (made again from the tap: the hub
        may have acked it, and so dropped it from ``unacked``, before this line runs)."""
        seq = super().tap(uid)
        payload = proto.encode(proto.tag(self.reader, self.boot, seq, uid))
        self.sent = [*self.sent[-7:], payload]
        return seq

    def again(self, newest_first: int) -> bool:
        """Send recent taps again: one at random (0), or the last ``n`` newest first."""
        recent = [p for p in self.sent if p]
        if not recent:
            return False
        chosen = [random.choice(recent)] if newest_first == 0 else recent[-newest_first:][::-1]
        for payload in chosen:
            self._emit(payload)
        return True


class CachedTable:
    """What :class:`ScriptedPlayers` reads of a table, refreshed when the soak says so."""

    def __init__(self, remote: RemoteTable) -> None:
        self.remote, self.id, self.config = remote, remote.id, remote.config
        self.state: GameState = remote.mirror
        self.moves: list[Move] = []

    def refresh(self) -> list[Move]:
        """Bring the state up to the hub's record; returns the record's moves."""
        record = loads_record(patiently(lambda: self.remote.get("/record")))
        for move in record.moves[len(self.moves):]:
            self.state.apply(move)
        self.moves = list(record.moves)
        return self.moves

    @property
    def count(self) -> int:
        """How many moves the record holds (ScriptedPlayers waits on it after a tap)."""
        return len(self.refresh())


@dataclass
class Tally:
    """What every table adds up, under one lock."""

    taps: int = 0
    lost: int = 0
    doubled: int = 0
    games: int = 0
    matched: int = 0
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, **counts: int) -> None:
        """Add to the counters."""
        with self.lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)


class SoakPlayers(ScriptedPlayers):
    """Scripted players who survive a hub that dies under them, and keep their own game."""

    def __init__(self, table: CachedTable, bank: Any, uids: dict[int, str], seed: int,
                 tally: Tally, catalog: Catalog,
                 on_tap: Callable[[int], None] = lambda taps: None) -> None:
        """``on_tap`` hears the tally's count of taps after each of these players' taps."""
        super().__init__(None, table, bank, uids, delay=0.0, seed=seed,
                         decide=table.remote.decide, lock=threading.RLock())
        self.tally, self.on_tap = tally, on_tap
        self.own = new_game(catalog, PLAYERS, 0)
        """The players' own game: their confirmed moves, and the deals seen after each."""
        self.seen = 0
        self.seen_start = len(table.refresh())
        """Record positions below this were made before the players sat down (the awards
        kept at setup)."""

    def play(self) -> None:
        """Play the game to its end, then check it."""
        self._follow(self.table.refresh(), None)
        stalled_since = None
        while not self.table.state.is_over:
            step = self._choose()
            if step is not None:
                stalled_since = None
                self._act(*step)
                continue
            stalled_since = stalled_since or time.monotonic()
            if time.monotonic() - stalled_since > PATIENCE:
                raise Unreachable(f"table {self.table.id} waits on a step nobody makes")
            time.sleep(0.02)
            self._follow(self.table.refresh(), None)

    def _act(self, how: str, move: Move) -> None:
        before = len(self.table.moves)
        if how == "tap":
            self._tap(move)
        else:
            with contextlib.suppress(TableError):
                patiently(lambda: self.decide(move))
        moves = self.table.refresh()
        if how == "tap" and len(moves) == before:
            self.tally.add(lost=1)
            self.tally.problems.append(f"{self.table.id}: tap {move} never applied")
        self._follow(moves, move if len(moves) > before else None)

    def _tap(self, move: Move) -> None:
        assert move.pawn is not None
        before = len(self.table.moves)
        self.bank.tap(self.table.config.readers[self._bag_of(move)], self.uids[move.pawn])
        self.tally.add(taps=1)
        self.on_tap(self.tally.taps)
        deadline = time.monotonic() + PATIENCE
        while len(self.table.refresh()) == before and time.monotonic() < deadline:
            time.sleep(0.01)

    def _follow(self, moves: list[Move], mine: Move | None) -> None:
        """Apply to the players' own game what the record gained: our move, then deals, and
        a move our tap left its player no choice about (the hub makes it with the tap: a
        guest drawn to a seat with one place left is placed)."""
        ours = False
        for n, move in enumerate(moves[self.seen:], start=self.seen):
            if move.kind in AUTO_DEAL_KINDS or n < self.seen_start:
                self.own.apply(move)
            elif mine is not None and same_effect(move, mine):
                self.own.apply(move)
                mine, ours = None, True
            elif ours and self.own.legal_moves(move.player) == [move]:
                self.own.apply(move)
            else:
                self.tally.add(doubled=1)
                self.tally.problems.append(f"{self.table.id}: move {n} {move} was not ours")
                self.own.apply(move)
        self.seen = len(moves)


def same_effect(logged: Move, made: Move) -> bool:
    """Whether the record's move is the one the players made: the same decision, or for a
    tap the same pawn (the hub reads a tap as the first legal move it fits)."""
    return logged == made or (made.pawn is not None and logged.pawn == made.pawn)


def make_banks(tables: int, tmp: Path, broker: Broker) -> tuple[list[list[str]], list[Any]]:
    """Four readers per table; serial banks for the first half, MQTT for the rest."""
    serial_tables = (tables + 1) // 2
    names = [[f"t{t}-bag{s}" for s in range(1, 5)] for t in range(tables)]
    serial = [SoakReader(r) for t in range(serial_tables) for r in names[t]]
    mqtt = [SoakReader(r) for t in range(serial_tables, tables) for r in names[t]]
    banks: list[Any] = [SerialBank(serial, tmp / "dev").start()]
    if mqtt:
        broker.add_readers([r.reader for r in mqtt])
        logins = {r.reader: broker.reader_url(r.reader) for r in mqtt}
        banks.append(MqttBank(mqtt, broker.url, "demo", logins).start())
    return names, [banks[0] if t < serial_tables else banks[-1] for t in range(tables)]


@dataclass
class Soak:
    """One soak run: the hub, the broker, the readers, the tables and the fault injector."""

    games: int
    tables: int
    seed: int
    fault_every: float
    tmp: Path
    catalog: Catalog = field(default_factory=load_catalog)
    tally: Tally = field(default_factory=Tally)
    faults: Counter[str] = field(default_factory=Counter)
    deck: list[str] = field(default_factory=list)
    fault_taps: int = 20
    """A fault also comes after every this many taps, so that a fast machine, whose games
    end in a few seconds, meets every kind of fault as a slow one does."""
    nudge: threading.Event = field(default_factory=threading.Event)

    def run(self) -> Soak:
        """Play every game while faults rain; return self with the figures."""
        rng = random.Random(self.seed)
        self.broker = Broker(workdir=self.tmp / "mqtt", accounts=ReaderAccounts()).start()
        self.names, self.banks = make_banks(self.tables, self.tmp, self.broker)
        serial = [b.path(r) for b in {id(b): b for b in self.banks}.values()
                  if isinstance(b, SerialBank) for r in b.readers]
        self.server = ServeProcess(self.tmp / "hub.sqlite", serial=serial,
                                   readers=[r for rs in self.names for r in rs],
                                   extra=["--mqtt", str(self.broker.url)]).start()
        self.uids = {pawn: random_uid(random.Random(f"{self.seed}:{pawn}")) for pawn in range(60)}
        self.server.import_tags(self.uids)
        self.started = 0
        self.start_lock = threading.Lock()
        threads = [threading.Thread(target=self._table_loop, args=(t,), daemon=True)
                   for t in range(self.tables)]
        try:
            for thread in threads:
                thread.start()
            while any(t.is_alive() for t in threads):
                due = time.monotonic() + rng.expovariate(1 / self.fault_every)
                while time.monotonic() < due and any(t.is_alive() for t in threads):
                    if self.nudge.wait(0.05):  # the players made fault_taps more taps
                        break
                self.nudge.clear()
                if any(t.is_alive() for t in threads):
                    self._inject(rng)
        finally:
            self._close()
        return self

    def _tapped(self, taps: int) -> None:
        """The players' tally counted ``taps`` taps so far: every ``fault_taps``, a fault."""
        if taps % self.fault_taps == 0:
            self.nudge.set()

    def _next_game(self) -> int | None:
        with self.start_lock:
            if self.started >= self.games:
                return None
            self.started += 1
            return self.started

    def _table_loop(self, slot: int) -> None:
        while (game := self._next_game()) is not None:
            try:
                self._play(slot, game)
            except Exception as exc:  # noqa: BLE001 - count it, and let the others go on
                self.tally.problems.append(f"game {game}: {type(exc).__name__}: {exc}")

    def _play(self, slot: int, game: int) -> None:
        body = {"players": PLAYERS, "readers": self.names[slot],
                "deal_seed": self.seed * 1000 + game}
        info = patiently(lambda: call(self.server.base + "/api/tables", "POST", body))
        remote = RemoteTable(self.server.base, info, self.catalog)
        patiently(remote.keep_first_awards)
        table = CachedTable(remote)
        players = SoakPlayers(table, self.banks[slot], self.uids, self.seed + game, self.tally,
                              self.catalog, self._tapped)
        try:
            players.play()
        except Exception:
            # a game that broke off leaves its table open and its readers bound to it:
            # close it, so that the slot's next games can have them (the failure is counted)
            with contextlib.suppress(HttpError):  # already closed: nothing to release
                patiently(lambda: call(f"{self.server.base}/api/tables/{info['id']}/close",
                                       "POST", {"pin": info["pin"]}))
            raise
        self._check(remote, table, players)

    def _check(self, remote: RemoteTable, table: CachedTable, players: SoakPlayers) -> None:
        exported = loads_record(patiently(lambda: remote.get("/record")))
        replayed = replay(self.catalog, exported).to_dict()
        live = patiently(remote.full_state)
        alerts = patiently(lambda: remote.get(""))["alerts"]
        same = replayed == players.own.to_dict() == live
        self.tally.add(games=1, matched=int(same), doubled=len(alerts))
        if not same:
            self.tally.problems.append(f"table {table.id}: the replay differs")

    def _inject(self, rng: random.Random) -> None:
        if not self.deck:  # every kind once, in random order, then again
            self.deck = rng.sample(FAULTS, len(FAULTS))
        kind = self.deck.pop()
        if kind == "broker_restart" and len(set(map(id, self.banks))) == 1:
            kind = "hub_kill"  # no MQTT table: restart something that matters
        reader = rng.choice([r for rs in self.names for r in rs])
        bank = self.banks[next(t for t, rs in enumerate(self.names) if reader in rs)]
        if kind == "unplug":
            serial = [b for b in self.banks if isinstance(b, SerialBank)]
            bank = serial[0]
            reader = rng.choice(list(bank.readers))
            bank.unplug(reader)
            time.sleep(rng.uniform(0.1, 1.0))
            bank.plug(reader)
        elif kind == "broker_restart":
            self.broker.restart()
        elif kind == "hub_kill":
            self.server.kill()
            self.server.start()
        elif kind == "garbage":
            noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
            bank.raw(reader, noise.replace(b"\n", b"") + b"\n")
        elif not bank.readers[reader].again(0 if kind == "duplicate" else 3):
            self.deck.append(kind)  # that reader has sent nothing yet: try this kind again
            return
        self.faults[kind] += 1

    def _close(self) -> None:
        for bank in {id(b): b for b in getattr(self, "banks", [])}.values():
            bank.stop()
        if hasattr(self, "server"):
            self.server.stop()
        self.broker.close()

    def report(self) -> str:
        """The figures, as printed."""
        t = self.tally
        faults = ", ".join(f"{k} {self.faults[k]}" for k in FAULTS)
        serial = (self.tables + 1) // 2
        lines = [f"soak: {t.games} games of {len(PLAYERS)} players on {self.tables} tables at "
                 f"once ({serial} on serial readers, {self.tables - serial} on MQTT), "
                 f"seed {self.seed}",
                 f"faults injected: {faults} ({sum(self.faults.values())} in all)",
                 f"taps: {t.taps}; lost {t.lost}; doubled {t.doubled}",
                 f"records replayed to the players' own game: {t.matched} of {t.games}"]
        lines += [f"problem: {p}" for p in t.problems[:20]]
        return "\n".join(lines)

    @property
    def ok(self) -> bool:
        """Every game finished and matched, no tap lost or doubled."""
        t = self.tally
        return t.games == self.games == t.matched and t.lost == t.doubled == 0


def main() -> int:
    """Parse options, soak, print the figures; exit 1 if anything was lost or doubled."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games in all (10)")
    parser.add_argument("--tables", type=int, default=4, help="tables playing at once (4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fault-every", type=float, default=2.0,
                        help="mean seconds between two faults (2)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="popcorn-soak-") as tmp:
        soak = Soak(args.games, args.tables, args.seed, args.fault_every, Path(tmp)).run()
    print(soak.report())
    print(f"({time.monotonic() - start:.0f} s)")
    return 0 if soak.ok else 1


if __name__ == "__main__":
    sys.exit(main())
