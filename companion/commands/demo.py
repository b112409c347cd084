"""``popcorn-companion demo``: a whole game played live, with no hardware and no setup.

It starts the hub on a temporary database, four virtual bag readers on the real serial path
(pseudo-terminals) or MQTT path (a private Mosquitto), enrolls made-up tags for the 60
pawns and for every card, creates a 4-player table, and lets scripted players play to the
end at a pace a person can watch: they tap the drawn pawns and the cards (starting movies,
reveals, award draws, buys) on the readers. Open the printed URL to follow it.

The virtual readers report a sound health in their heartbeats (the supply of a reader on
USB, no failed read; over MQTT a good Wi-Fi signal). ``--ailing-readers`` makes two of them
go bad after :data:`AILING_AFTER` seconds (bag-2's battery runs low, bag-3's Wi-Fi weakens),
so the table screen's notices and Readers panel can be seen at work.

``--mats`` puts a virtual cinema mat under each player's board (protocol version 2): the
players seat their guests and send them to the exit zone by setting the pawns down on it,
and the hub plays what the mats report, with no tablet input for those steps.

``--game b-movies`` plays B Movies instead: made-up tags for the 98 popcorn tokens, one
token pad per player, scripted pitches and secret votes, and every drawn token tapped on
its player's pad (``--variant hidden`` deals the studios in secret).

The finished game goes to the hub's archive. Without ``--db`` that archive lives in the
temporary database and goes with it (the demo says so before it exits); ``--db PATH`` keeps
the database, so that ``popcorn-companion serve --db PATH`` opens the game in ``/archive``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.commands.lang_option import add_lang_option
from companion.commands.serve import reach_note

if TYPE_CHECKING:  # imported when the demo runs: the other commands build its parser too
    from companion.hub import server
    from companion.hub.hub import Hub
    from companion.readers.virtual import MqttBank, SerialBank, VirtualReader

READERS = 4
"""Virtual readers the demo starts: one per player of its 4-player table."""
PROG = "popcorn-companion demo"
BASE_DELAY = 0.8
"""Seconds between two actions at ``--speed 1``."""
AILING_AFTER = 30.0
"""Seconds after the start at which ``--ailing-readers`` makes two readers go bad: time to
open the table screen first, where their notices then appear."""


def register(subparsers: Any) -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser("demo", help="watch a whole game played live, no hardware",
                                   description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=1.0,
                        help="actions go this many times faster (1: about one a second)")
    parser.add_argument("--transport", choices=("serial", "mqtt"), default="serial",
                        help="how the virtual readers reach the hub (serial)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (8000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the tags and the players")
    parser.add_argument("--game", choices=games.game_ids(), default=games.DEFAULT,
                        help=f"the game to play ({games.DEFAULT})")
    parser.add_argument("--variant", default=None,
                        help="the game's variant: B Movies' standard or hidden (standard)")
    parser.add_argument("--db", type=Path, default=None,
                        help="keep the hub database (its archive holds the game) in this file; "
                             "by default it is temporary and goes when the demo ends")
    parser.add_argument("--mats", action="store_true",
                        help="a virtual cinema mat under each player's board: seating and "
                             "exits are sensed, not entered (Popcorn)")
    parser.add_argument("--exit-when-done", action="store_true",
                        help="stop when the game ends instead of serving on")
    parser.add_argument("--ailing-readers", action="store_true",
                        help=f"after {AILING_AFTER:.0f} s, bag-2's battery runs low and bag-3's "
                             "Wi-Fi weakens (to see the readers' health on the table screen)")
    add_lang_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start everything, play, and serve until interrupted."""
    if args.speed <= 0:
        print(f"{PROG}: error: --speed must be positive", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.ERROR, format="%(message)s", stream=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="popcorn-demo-") as tmp:
        code = _demo(args, Path(tmp))
    print(_archive_note(args.db), flush=True)
    return code


def _archive_note(db: Path | None) -> str:
    """Where the demo's archive is once it has ended: kept in ``db``, or gone with the
    temporary database (and how to keep it next time)."""
    if db is None:
        return ("The demo's archive was in its temporary database and is gone with it; "
                f"`{PROG} --db demo.sqlite` keeps it, and `popcorn-companion serve --db "
                "demo.sqlite` then opens the game in /archive.")
    return (f"The demo's database is kept in {db}: `popcorn-companion serve --db {db}` opens "
            "the game in /archive.")


def _demo(args: argparse.Namespace, tmp: Path) -> int:
    from companion.hub import app, hub, phones, server  # noqa: F401 - before the server forks
    from companion.readers import virtual  # noqa: F401 - (the hub's modules, as before)

    listener = server.listen_or_say(PROG, args.host, args.port)
    if listener is None:
        return 2
    return server.run(lambda: _start(args, tmp), listener)


def _start(args: argparse.Namespace, tmp: Path) -> server.Served:
    """Start the hub, the virtual readers and the players in the process that serves; the
    app, and how to stop them all. With ``--exit-when-done`` the server stops when the
    game ends."""
    from companion.hub import server
    from companion.hub.app import create_app
    from companion.hub.hub import Hub
    from companion.hub.network import tablet_url
    from companion.readers.broker import BrokerError
    from companion.readers.virtual import MqttBank, SerialBank, VirtualMat, VirtualReader

    readers = [f"bag-{i + 1}" for i in range(READERS)]
    virtual = [VirtualReader(r, resend_interval=0.5) for r in readers]
    mat_ids = [f"mat-{i + 1}" for i in range(READERS)] if args.mats else []
    hub = Hub(args.db if args.db is not None else tmp / "hub.sqlite", mats=mat_ids)
    sensing = hub.games[args.game].mats
    if mat_ids and sensing is None:
        hub.stop()
        raise server.StartError(f"{PROG}: error: {hub.games[args.game].title} reads no mats")
    mats = [VirtualMat(m, zones=sensing.zones, resend_interval=0.5)
            for m in mat_ids] if sensing is not None else []
    try:
        if args.transport == "serial":
            serial_bank = SerialBank([*virtual, *mats], tmp / "dev").start()
            bank: SerialBank | MqttBank = serial_bank
            hub.start(serial=[serial_bank.path(r) for r in serial_bank.readers])
        else:
            hub.start(mqtt=True)
            assert hub.mqtt_url is not None
            bank = MqttBank([*virtual, *mats], hub.mqtt_url, hub.mqtt_table).start()
    except BrokerError as exc:
        hub.stop()
        raise server.StartError(f"{PROG}: error: {exc}") from exc
    _health(virtual, args.transport == "mqtt", args.ailing_readers)
    game = hub.games[args.game]
    if game.demo is None:
        hub.stop()
        raise server.StartError(f"{PROG}: error: {game.title} has no demo")
    demo = game.demo
    table, pin, players = demo.start(hub, readers, bank, BASE_DELAY / args.speed, args,
                                     mats=mats)
    app, _ = create_app(hub, lang=args.lang, host=args.host)
    base = tablet_url(args.host, args.port)
    print(f"Popcorn Companion demo: open {base}table/{table.id} in a browser (the table "
          "screen)", flush=True)
    for line in _table_lines(hub, table, pin, base, args.host):
        print(line, flush=True)
    sensed = f" and {len(mats)} virtual cinema mats" if mats else ""
    print(f"{READERS} virtual {demo.pads}{sensed} over {args.transport}; Ctrl-C to stop",
          flush=True)

    def watch() -> None:
        while players.thread and players.thread.is_alive():
            players.thread.join(0.5)
        _print_scores(hub, table.id)
        with hub.lock:  # the game just ended goes to the archive now, not at the next look
            hub.archived()
        if args.exit_when_done:
            server.shutdown()

    threading.Thread(target=watch, name="demo-watch", daemon=True).start()

    def stop() -> None:
        players.stop.set()
        bank.stop()
        hub.stop()

    return app, stop


def _health(virtual: list[VirtualReader], wifi: bool, ailing: bool) -> None:
    """What the virtual readers' heartbeats say of their health: sound (on USB, about
    5 V; over Wi-Fi a good signal); with ``ailing``, two readers go bad after
    :data:`AILING_AFTER` seconds."""
    for n, reader in enumerate(virtual):
        reader.set_health(supply_mv=4950, read_fail=0, too_fast=0,
                          rssi=-55 - 3 * n if wifi else None)
    if ailing:
        def go_bad() -> None:
            virtual[1].set_health(supply_mv=3380)
            virtual[2].set_health(rssi=-84)
        timer = threading.Timer(AILING_AFTER, go_bad)
        timer.daemon = True
        timer.start()


PIN_USE = ("the tablet asks for it once, to undo a move, show a phone's link again, turn "
           "the seating hints on or off, export the game record or close the table")
"""What the table PIN the demo prints is for."""


def _table_lines(hub: Hub, table: Any, pin: str, base: str, host: str) -> list[str]:
    """What the demo prints about its table: the PIN and what it is for, each player's phone
    link (the private screen: awards, votes, tokens) and who can reach them."""
    from companion.hub.phones import phone_url

    lines = [f"Table PIN {pin}: {PIN_USE}.",
             f"Phone links, one per player ({reach_note(host)}):"]
    for seat, name in enumerate(table.config.players):
        token = hub.phone_token(table.id, seat)
        lines.append(f"  {name}: {phone_url(base, table.id, seat, token)}")
    return lines


def _print_scores(hub: Hub, table_id: str) -> None:
    with hub.lock:
        table = hub.tables[table_id]
        if not table.state.is_over:
            return
        demo = table.game.demo
        if demo is None:
            return
        line = demo.summary(table.scores(), table.config.players, table.state)
    print(line, flush=True)
