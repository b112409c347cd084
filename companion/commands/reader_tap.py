"""``popcorn-companion readers tap``: tap pieces by hand on virtual readers, and read what the
hub made of each tap.

It starts virtual readers as ``readers simulate`` does (``--serial`` or ``--mqtt URL``), then
reads lines from stdin (a prompt on a terminal; a pipe works too): ``bag-1 blue``, ``bag-2
04A1B2C3D40007``, ``bag-1 card kangaroo-man``, ``pad-1 token 3``
(:mod:`companion.commands.tap_lines`). Each tap goes out on the reader, and the command
waits for the hub's answer: the reader's ``ok`` or ``error`` feedback, then the table's
change, and prints the move the hub recorded or the alert it raised. Blank lines and ``#``
comments are skipped; ``quit`` or the end of the input stops it.

``--mat ID`` starts a virtual cinema mat beside the readers, on the same transport, and its
lines move guests on it as a hand does: ``mat-1 down theater 2 blue``, ``mat-1 move blue
exit``, ``mat-1 up blue`` (:mod:`companion.commands.mat_lines`); the command then waits
for the hub's ack of the mat's reports and prints the moves recorded, the alert raised, or
that the change was no move (:mod:`companion.commands.mat_tap`). The virtual mats start
empty: start them with the table, before its first guest is seated.

``--made-up-tags`` first gives every piece of every hosted game that has no tag a made-up
one, tapped on the first reader as enrollment does, so a hub with no pieces in hand can play
a first table at once.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from companion.commands.mat_lines import MAT_EXAMPLES, MAT_USAGE, MatLine, read_line
from companion.commands.mat_tap import MatTapper
from companion.commands.reader_options import (
    VirtualBank,
    mat_names,
    reader_names,
    start_virtual,
    transport_options,
    virtual_options,
)
from companion.commands.tap_hub import (
    HubClient,
    Seat,
    Snapshot,
    TapError,
    describe_alert,
    describe_steps,
)
from companion.commands.tap_lines import EXAMPLES, USAGE, Pieces, TapLine
from companion.kit.tags import random_uid

PROG = "popcorn-companion readers tap"
DEFAULT_HUB = "http://127.0.0.1:8000"
"""Where ``serve`` answers by default, seen from the same computer."""
PROMPT = "tap> "
QUIT = ("quit", "exit")


def add_parser(sub: Any) -> None:
    """Add ``readers tap`` to the ``readers`` subcommands."""
    parser = sub.add_parser("tap", help="tap pieces by hand on virtual readers",
                            description="Start virtual readers, tap the pieces named on stdin "
                            f"({USAGE}, {EXAMPLES}) and print what the hub made of each "
                            f"tap. With --mat, move guests on virtual mats too ({MAT_USAGE}, "
                            f"{MAT_EXAMPLES}).")
    transport_options(parser, serial_many=False, mqtt_optional=False)
    virtual_options(parser, named=True)
    parser.add_argument("--hub", default=DEFAULT_HUB, help=f"the hub's URL ({DEFAULT_HUB})")
    parser.add_argument("--admin-pin", default=os.environ.get("POPCORN_ADMIN_PIN"),
                        help="the hub's admin PIN, which serve prints (or POPCORN_ADMIN_PIN): "
                        "needed to tap a color, a card or a token")
    parser.add_argument("--made-up-tags", action="store_true",
                        help="first enroll a made-up tag for every piece without one (a first "
                        "table with no pieces in hand); needs --admin-pin")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for the hub's answer to a tap (10)")
    parser.set_defaults(func=run_tap)


def run_tap(args: argparse.Namespace) -> int:
    """Check the hub, start the readers and tap line by line; 0 at ``quit`` or the end of the
    input, 2 when the hub cannot be reached or refuses the admin PIN."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly: symlinks removed
    names = reader_names(args)
    try:
        mats = mat_names(args)
    except ValueError as exc:
        return _fatal(str(exc))
    if not names and not mats:
        return _fatal("no readers: give --readers N (at least 1), --reader ID or --mat ID")
    hub = HubClient(args.hub, args.admin_pin, args.timeout)
    try:
        hub.check()
        if args.admin_pin or args.made_up_tags:
            hub.pieces()  # a wrong PIN now, not at the first color
    except TapError as exc:
        return _fatal(str(exc))
    try:
        with start_virtual(args, names, resend_interval=0.3, mats=mats) as bank:
            session = TapSession(hub, bank, names, args.timeout, mats)
            if args.made_up_tags:
                session.wait_online()
                session.make_up_tags(random.Random())
            session.greet()
            return session.run(sys.stdin)
    except TapError as exc:  # the hub went away while the readers started
        return _fatal(str(exc))
    except KeyboardInterrupt:
        return 130


def _fatal(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def _say(line: str) -> None:
    print(line, flush=True)


def _complain(message: str) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)


def read_lines(stream: TextIO, ask: Callable[[str], str] = input) -> Iterator[str]:
    """The input's lines, stripped: after a prompt on a terminal, else echoed after it (so
    that a piped session reads like a typed one). Blank lines and ``#`` comments are
    skipped; ``quit``, ``exit`` or the end of the input stops."""
    interactive = stream.isatty()
    while True:
        try:
            text = (ask(PROMPT) if interactive else _next(stream)).strip()
        except EOFError:
            return
        if not text or text.startswith("#"):
            continue
        if not interactive:
            _say(PROMPT + text)
        if text.lower() in QUIT:
            return
        yield text


def _next(stream: TextIO) -> str:
    line = stream.readline()
    if not line:
        raise EOFError
    return line


class TapSession:
    """Taps line by line on a bank of virtual readers, against one hub."""

    def __init__(self, hub: HubClient, bank: VirtualBank, names: list[str],
                 timeout: float, mats: list[str] | None = None) -> None:
        self.hub, self.bank, self.names, self.timeout = hub, bank, names, timeout
        self.mats = mats or []
        """The session's virtual mats, beside the readers of :attr:`names`."""
        self.drawn: set[str] = set()
        """Tokens this session tapped and the hub recorded: not offered again."""
        self.mat_hands = MatTapper(hub, bank, timeout, _say)

    def greet(self) -> None:
        """Wait (a while) for the hub to hear the readers it knows, then say where each
        sits and what a line may be."""
        seats = self.wait_online()
        tables = self.hub.tables()
        for name in [*self.names, *self.mats]:
            _say(f"{name}: {_where(seats.get(name), tables)}")
        mats = f", or {MAT_USAGE}" if self.mats else ""
        _say(f"hub {self.hub.base}: type {USAGE}{mats} (quit ends)")

    def wait_online(self) -> dict[str, Seat]:
        """Poll the hub's readers until each of this session's that it knows is online, or
        the timeout; their seats. A reader still offline then is named in :meth:`greet`."""
        deadline = time.monotonic() + self.timeout
        told = False
        everyone = [*self.names, *self.mats]
        while True:
            known = self.hub.seats()
            seats = {n: known[n] for n in everyone if n in known}
            if all(s.online for s in seats.values()) or time.monotonic() >= deadline:
                return seats
            if not told:
                _say(f"waiting for the hub to hear {', '.join(everyone)}...")
                told = True
            time.sleep(0.1)

    def make_up_tags(self, rng: random.Random) -> None:
        """Enroll a made-up tag for every piece without one, kind by kind, each tapped on
        the first reader while the hub enrolls that kind in its order (as the setup screen's
        Start does); a line per kind says how many."""
        for kind in self.hub.kinds():
            missing = sum(int(v["count"]) - int(v["enrolled"]) for v in kind["values"])
            if missing <= 0:
                continue
            self.hub.send("POST", "/api/enroll", {"game": kind["game"], "kind": kind["kind"],
                                                  "next": True})
            try:
                for _ in range(missing):
                    self.enroll_one(random_uid(rng))
            finally:
                self.hub.send("DELETE", "/api/enroll")
            _say(f"made-up tags: {missing} × {kind['title']} ({kind['game']})")

    def enroll_one(self, uid: str) -> None:
        """Tap ``uid`` on the first reader while the hub enrolls; :class:`TapError` unless
        the hub took it."""
        reader = self.names[0]
        level = self.feedback(reader, self.bank.tap(reader, uid))
        if level != "ok":
            raise TapError(f"the hub did not enroll the made-up tag {uid} on {reader} "
                           f"({level or 'no answer'}): is serve reading {reader}?")

    def run(self, stream: TextIO) -> int:
        """Tap each line; a line that cannot be tapped is told and the next one read."""
        for text in read_lines(stream):
            try:
                line = read_line(text, self.names, self.mats)
                if isinstance(line, MatLine):
                    self.mat(line)
                else:
                    self.tap(line)
            except TapError as exc:
                _complain(str(exc))
        return 0

    def mat(self, line: MatLine) -> None:
        """Do one mat line's hand on its virtual mat and print what the hub made of it."""
        seat = _known(line.mat, self.hub.seat_of(line.mat), "mat")
        _bound(seat)
        self.mat_hands.play(line, seat)

    def tap(self, line: TapLine) -> None:
        """Tap one line's piece and print what the hub made of it."""
        enrolling = self.hub.enrolling()
        seat = _known(line.reader, self.hub.seat_of(line.reader))
        if not enrolling:
            _bound(seat)
        snapshot = self.hub.snapshot(seat.table) if seat and seat.table else None
        uid, what = self.choose(line, snapshot, seat)
        if seat is not None and not seat.online:
            _say(f"  ({line.reader} is not online at the hub yet: the tap waits for it)")
        seq = self.bank.tap(line.reader, uid)
        _say(f"  {line.reader}: tapped {what}")
        level = self.feedback(line.reader, seq)
        if level is None:
            _say(f"  hub: no answer within {self.timeout:g} s (is serve reading "
                 f"{line.reader}? see its --serial or --mqtt)")
            return
        lines, recorded = self.outcome(level, snapshot, enrolling)
        for out in lines:
            _say("  " + out)
        if recorded and line.how == "token":
            self.drawn.add(uid)

    def choose(self, line: TapLine, snapshot: Snapshot | None,
               seat: Seat | None) -> tuple[str, str]:
        """The UID a line taps, and its words."""
        if line.how == "uid":
            return line.what, f"tag {line.what}"
        pieces = Pieces(self.hub.pieces(), self.hub.kinds(), self.drawn)
        table = snapshot.table if snapshot else {}
        game = str(table.get("game", ""))
        if line.how == "card":
            return pieces.card(line.what, game)
        if line.how == "token":
            return pieces.token(line.what)
        if snapshot is None or seat is None or seat.seat is None:
            raise TapError(f"{line.reader} is at no table: a color needs a table's bag")
        name = table["players"][seat.seat]
        return pieces.pawn(line.what, game, seat.seat, table.get("view", {}), name)

    def feedback(self, reader: str, seq: int) -> str | None:
        """Wait for the hub's feedback to tap ``seq`` (``ok`` or ``error``); None on
        timeout. The reader's link thread fills :attr:`VirtualReader.feedback`."""
        virtual = self.bank.readers[reader]
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            for message in reversed(virtual.feedback):
                if message.get("seq") == seq:
                    return str(message.get("level"))
            time.sleep(0.02)
        return None

    def outcome(self, level: str, snapshot: Snapshot | None,
                enrolling: bool) -> tuple[list[str], bool]:
        """What the hub made of the tap, in one or two lines, and whether it recorded a
        move."""
        if enrolling or snapshot is None:
            return [f"hub: {level}: the hub is enrolling tags, so this tap enrolled the tag "
                    "(or was refused, see the setup screen); nothing was played"], False
        table_id = str(snapshot.table["id"])
        after = self.changed(table_id, snapshot.events)
        if after is None:
            return [f"hub: {level}, but the table did not change within "
                    f"{self.timeout:g} s"], False
        alerts = [a for a in after.get("alerts", []) if a.get("id") not in snapshot.alert_ids]
        if alerts:
            return describe_alert(alerts[-1]), False
        recorded = self.recorded(table_id, snapshot, after)
        return [recorded], recorded.startswith("hub: recorded")

    def changed(self, table_id: str, events: int) -> dict[str, Any] | None:
        """Poll the table until its log grows past ``events`` (the tap's pushes go out
        once its batch is committed, right after the feedback); None on timeout."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            table: dict[str, Any] = self.hub.get(f"/api/tables/{table_id}")
            if int(table.get("events", 0)) > events:
                return table
            time.sleep(0.05)
        return None

    def recorded(self, table_id: str, snapshot: Snapshot, after: dict[str, Any]) -> str:
        """The moves the tap recorded, from the table's replay."""
        if snapshot.steps is None:
            return f"hub: ok: the table's log grew to {after.get('events')} events"
        steps = self.hub.steps_since(table_id, snapshot.steps)
        if not steps:
            return "hub: ok, no move (a bag audit's tap, or a guest noted in its bag)"
        colors = Pieces(self.hub.pieces(), [], self.drawn).colors(str(after.get("game"))) \
            if self.hub.admin_pin else {}
        return describe_steps(steps, list(after.get("players", [])), colors)


def _known(reader: str, seat: Seat | None, kind: str = "reader") -> Seat:
    """The reader's (or the ``mat``'s) seat; :class:`TapError` when the hub does not know
    it (it would refuse its taps or its zones)."""
    if seat is None:
        raise TapError(f"the hub does not know {kind} {reader}: give serve --{kind} "
                       f"{reader}, or create a table that uses it")
    return seat


def _bound(seat: Seat) -> None:
    """:class:`TapError` when no table binds the reader (the hub would only say error)."""
    if seat.table is None:
        raise TapError(f"no table: {seat.reader} is bound to no table on the hub; create a "
                       "table with this reader (the setup screen, or POST /api/tables)")


def _where(seat: Seat | None, tables: dict[str, dict[str, Any]]) -> str:
    """Where the hub has a reader, in a few words."""
    if seat is None:
        return "unknown to the hub (give serve --reader ID or --mat ID, or create a table " \
            "with it)"
    state = "online" if seat.online else "offline: is serve reading it (--serial, --mqtt)?"
    if seat.table is None or seat.seat is None:
        return f"at no table ({state})"
    table = tables.get(seat.table, {})
    players = table.get("players", [])
    who = players[seat.seat] if seat.seat < len(players) else f"seat {seat.seat}"
    return f"{who}'s {seat.kind if seat.kind == 'mat' else 'reader'} at " \
        f"{table.get('name', '?')} ({seat.table}), {state}"
