"""``popcorn-companion readers``: virtual bag readers, and a tail of what real ones send.

``readers simulate`` runs N virtual readers that speak protocol v1 over pseudo-terminals
(``--serial``) or an MQTT broker (``--mqtt URL``), tapping random pawns or a script.
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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.commands import reader_flash, reader_tap
from companion.commands.reader_options import (
    DEFAULT_TABLE,
    VirtualBank,
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
    parser.add_argument("--script", type=Path, help='JSON lines {"reader", "uid", "after"}')
    parser.add_argument("--seed", type=int, default=1, help="seed for random taps")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds to wait for the last acks (60)")
    parser.add_argument("--hold", action="store_true", help="keep running after the taps")
    parser.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    """Start the readers, tap, wait for acks; exit 1 if some taps were never acked."""
    _catch_sigterm()
    names = reader_names(args)
    try:
        script = _script(args, names)
    except ValueError as exc:
        print(f"{PROG} simulate: error: {exc}", file=sys.stderr)
        return 2
    try:
        with start_virtual(args, names) as bank:
            return _play(args, bank, script)
    except KeyboardInterrupt:
        return 130


def _play(args: argparse.Namespace, bank: VirtualBank,
          script: list[tuple[float, str, str]]) -> int:
    """Tap the script's taps, wait for their acks, then hold if asked."""
    for after, reader, uid in script:
        if _TERMINATED.wait(after):
            return 0
        bank.tap(reader, uid)
    acked = _wait_acked(bank, args.timeout)
    print(f"{len(script)} taps, {bank.pending()} unacked", file=sys.stderr)
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


def _script(args: argparse.Namespace, names: list[str]) -> list[tuple[float, str, str]]:
    if args.script is None:
        rng = random.Random(args.seed)
        pawns = [random_uid(rng) for _ in range(60)]
        return [(args.interval, rng.choice(names), rng.choice(pawns))
                for _ in range(args.taps * len(names))]
    out = []
    for number, line in enumerate(args.script.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            step = json.loads(line)
            reader, uid = step["reader"], normalize_uid(step["uid"])
            after = float(step.get("after", args.interval))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{args.script} line {number}: {exc}") from exc
        if reader not in names:
            raise ValueError(f"{args.script} line {number}: no reader {reader!r}")
        out.append((after, reader, uid))
    return out


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
