"""``popcorn-companion readers``: virtual bag readers, and a tail of what real ones send.

``readers simulate`` runs N virtual readers that speak protocol v1 over pseudo-terminals
(``--serial``) or an MQTT broker (``--mqtt URL``), tapping random pawns or a script; each
``--mat ID`` adds a virtual cinema mat (protocol v2) on which the pawns are carried from
zone to zone, at random or as the script says.
``readers tap`` starts the same readers and taps what a person types, line by line, printing
what the hub made of each tap (:mod:`companion.commands.reader_tap`).
``readers tail`` is the user's first wiring check: it receives, deduplicates, stores and
acks like the hub, prints one JSON line per accepted event on stdout and one line per
rejected message on stderr. ``readers flash`` puts the firmware on a real reader
(:mod:`companion.commands.reader_flash`). ``readers card-list`` prints the order in which
to tap the cards for enrollment in catalog order
(:mod:`companion.games.popcorn.card_list`, a command Popcorn adds).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import random
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.commands import reader_flash, reader_tap
from companion.commands.reader_options import (
    DEFAULT_TABLE,
    VirtualBank,
    mat_names,
    mat_zones,
    reader_id,
    reader_names,
    start_virtual,
    transport_options,
    virtual_options,
)
from companion.kit.tags import random_uid
from companion.paths import data_dir
from companion.readers.protocol import Rejection, normalize_uid

if TYPE_CHECKING:  # the links are imported when ``readers tail`` runs (pyserial, paho)
    from companion.readers.ingest import ReaderEvent, ReaderInfo

PROG = "popcorn-companion readers"


def register(subparsers: Any) -> None:
    """Add ``readers simulate``, ``tap``, ``tail``, ``flash`` and ``card-list`` (``reader``
    works too)."""
    parser = subparsers.add_parser("readers", aliases=["reader"],
                                   help="virtual bag readers, a tail of reader events, and "
                                   "flashing a real one", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="readers_command", metavar="COMMAND")
    _simulate_parser(sub)
    reader_tap.add_parser(sub)
    _tail_parser(sub)
    reader_flash.add_parser(sub, DEFAULT_TABLE)
    for game_id in games.game_ids():  # each game's own (Popcorn's card-list)
        commands = games.load(game_id).commands
        if commands is not None:
            commands.add_reader_commands(sub)
    parser.set_defaults(func=lambda args: (parser.print_help(sys.stderr), 2)[1])


# -- simulate --------------------------------------------------------------------------------


def _simulate_parser(sub: Any) -> None:
    parser = sub.add_parser("simulate", help="run virtual bag readers",
                            description="Run virtual bag readers that speak protocol v1.")
    transport_options(parser, serial_many=False, mqtt_optional=False)
    virtual_options(parser)
    parser.add_argument("--taps", type=int, default=10, help="random taps per reader (10)")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between taps")
    parser.add_argument("--script", type=Path,
                        help='JSON lines {"reader", "uid", "after"}; on a mat also "zone" '
                        '(the zone the tag is carried to, null: taken off the mat)')
    parser.add_argument("--seed", type=int, default=1, help="seed for random taps")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds to wait for the last acks (60)")
    parser.add_argument("--hold", action="store_true", help="keep running after the taps")
    parser.set_defaults(func=run_simulate)


@dataclass(frozen=True)
class Step:
    """One step of a simulation: ``after`` seconds, a tap of ``uid`` on a bag reader, or on
    a mat the tag carried to ``zone`` (``None``: taken off the mat)."""

    after: float
    reader: str
    uid: str
    zone: int | None = None
    on_mat: bool = False


def run_simulate(args: argparse.Namespace) -> int:
    """Start the readers and mats, tap and carry, wait for acks; exit 1 if some taps or
    zone reports were never acked."""
    _catch_sigterm()
    names = reader_names(args)
    try:
        mats = mat_names(args)
        zones = mat_zones() if mats else 0
        script = _script(args, names, dict.fromkeys(mats, zones))
    except ValueError as exc:
        print(f"{PROG} simulate: error: {exc}", file=sys.stderr)
        return 2
    try:
        with start_virtual(args, names, mats=mats) as bank:
            return _play(args, bank, script)
    except KeyboardInterrupt:
        return 130


def _play(args: argparse.Namespace, bank: VirtualBank, script: list[Step]) -> int:
    """Tap the script's taps and carry its tags on the mats, wait for the acks, then hold
    if asked."""
    for step in script:
        if _TERMINATED.wait(step.after):
            return 0
        _do(bank, step)
    acked = _wait_acked(bank, args.timeout)
    moves = sum(step.on_mat for step in script)
    on_mats = f", {moves} mat moves" if moves else ""
    print(f"{len(script) - moves} taps{on_mats}, {bank.pending()} unacked", file=sys.stderr)
    if _TERMINATED.is_set():
        return 0
    if args.hold:
        _wait_for_signal()
    return 0 if acked else 1


def _wait_acked(bank: VirtualBank, timeout: float) -> bool:
    """Wait for every ack, but give up at once on SIGTERM (a hub that refuses the readers
    never acks, and a stop must not wait the whole timeout)."""
    deadline = time.monotonic() + timeout
    while not bank.wait_acked(0.1):
        if _TERMINATED.is_set() or time.monotonic() >= deadline:
            return False
    return True


def _do(bank: VirtualBank, step: Step) -> None:
    """One step on its reader: a tap, or the tag carried on its mat (or taken off it)."""
    if not step.on_mat:
        bank.tap(step.reader, step.uid)
        return
    from companion.readers.virtual import VirtualMat

    mat = bank.readers[step.reader]
    assert isinstance(mat, VirtualMat)
    if step.zone is None:
        mat.take_up(step.uid)
    else:
        mat.move(step.uid, step.zone)


def _script(args: argparse.Namespace, names: list[str], mats: dict[str, int]) -> list[Step]:
    """The steps to play: ``--script``'s, else random taps on the readers and random
    carries on the mats (``mats``: each mat's zone count), ``--taps`` on each."""
    if args.script is None:
        return _random_steps(args, names, mats)
    out = []
    for number, line in enumerate(args.script.read_text().splitlines(), start=1):
        if line.strip():
            try:
                out.append(_step(json.loads(line), args.interval, names, mats))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{args.script} line {number}: {exc}") from exc
    return out


def _random_steps(args: argparse.Namespace, names: list[str],
                  mats: dict[str, int]) -> list[Step]:
    """Random taps of 60 made-up pawns on the readers; on a mat, one of them carried to a
    random zone."""
    rng = random.Random(args.seed)
    pawns = [random_uid(rng) for _ in range(60)]
    everyone = [*names, *mats]
    out = []
    for _ in range(args.taps * len(everyone)):
        reader, uid = rng.choice(everyone), rng.choice(pawns)
        zone = rng.randrange(mats[reader]) if reader in mats else None
        out.append(Step(args.interval, reader, uid, zone, reader in mats))
    return out


def _step(step: dict[str, Any], interval: float, names: list[str],
          mats: dict[str, int]) -> Step:
    """One script line: a reader's tap, or a mat's carry (``zone``, null to take up)."""
    reader, uid = step["reader"], normalize_uid(step["uid"])
    after = float(step.get("after", interval))
    if reader in mats:
        if "zone" not in step:
            raise ValueError(f"{reader} is a mat: give the zone the tag is carried to "
                             '("zone": null takes it off)')
        zone = step["zone"]
        if zone is not None and (type(zone) is not int or not 0 <= zone < mats[reader]):
            raise ValueError(f"{reader} has zones 0 to {mats[reader] - 1}, not {zone!r}")
        return Step(after, reader, uid, zone, True)
    if reader not in names:
        raise ValueError(f"no reader {reader!r}")
    if "zone" in step:
        raise ValueError(f"{reader} is a bag reader: only a mat (--mat) has zones")
    return Step(after, reader, uid)


_TERMINATED = threading.Event()


def _catch_sigterm() -> None:
    """From now on SIGTERM asks for a clean stop (set as early as possible: a SIGTERM that
    arrives while the command is still starting must not kill it mid-way)."""
    signal.signal(signal.SIGTERM, lambda *_: _TERMINATED.set())


def _wait_for_signal() -> None:
    _catch_sigterm()
    with contextlib.suppress(KeyboardInterrupt):
        _TERMINATED.wait()


# -- tail ------------------------------------------------------------------------------------


def _tail_parser(sub: Any) -> None:
    parser = sub.add_parser("tail", help="print every accepted reader event",
                            description="Receive, deduplicate, store and ack reader events "
                            "like the hub; one JSON line per accepted event on stdout, one "
                            "line per rejected message on stderr.")
    transport_options(parser, serial_many=True, mqtt_optional=True)
    parser.add_argument("--reader", dest="readers", action="append", type=reader_id,
                        required=True, metavar="ID",
                        help="a reader id to trust (repeat for each bag)")
    parser.add_argument("--state", type=Path, help="dedup database (in the data directory)")
    parser.add_argument("--verbose", action="store_true", help="log connections to stderr")
    parser.set_defaults(func=run_tail)


def run_tail(args: argparse.Namespace) -> int:
    """Run until interrupted; exit 0 on Ctrl-C or SIGTERM, 2 if it cannot start."""
    from companion.readers.broker import Broker, BrokerError
    from companion.readers.ingest import Ingest
    from companion.readers.mqtt_link import MqttLink
    from companion.readers.serial_link import SerialLink
    from companion.readers.store import DedupStore, StoreError

    _catch_sigterm()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR,
                        format="%(message)s", stream=sys.stderr)
    state = args.state or data_dir() / "tail.sqlite"
    state.parent.mkdir(parents=True, exist_ok=True)
    try:
        store = DedupStore(state)
    except StoreError as exc:
        return _fail(str(exc))
    ingest = Ingest(store, args.readers, on_event=_print_event, on_reject=_print_rejection,
                    on_status=_print_status if args.verbose else None)
    broker = None
    try:
        if args.serial:
            link: SerialLink | MqttLink = SerialLink(ingest, args.serial)
        else:
            url = args.mqtt
            if not url:
                broker = Broker().start()
                url = broker.url
                print(f"started a private broker: {url}", file=sys.stderr, flush=True)
            link = MqttLink(ingest, url, args.table)
    except BrokerError as exc:
        return _fail(str(exc))
    ingest.start()
    link.start()
    try:
        _wait_for_signal()
    finally:
        link.stop()
        ingest.stop()
        store.close()
        if broker:
            broker.close()
    return 0


def _print_event(event: ReaderEvent) -> None:
    sys.stdout.write(json.dumps(event.to_dict()) + "\n")
    sys.stdout.flush()


def _print_rejection(rejection: Rejection, who: str) -> None:
    print(f"rejected {who}: {rejection.code} ({rejection.detail})", file=sys.stderr, flush=True)


def _print_status(info: ReaderInfo) -> None:
    state = "online" if info.online else "offline"
    print(f"reader {info.reader} {state} via {info.transport}", file=sys.stderr, flush=True)


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2
