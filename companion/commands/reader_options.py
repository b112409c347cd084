"""What the ``readers`` commands share: their transport options, and a bank of virtual readers.

``readers simulate`` and ``readers tap`` both start virtual bag readers from the same
options (``--serial`` or ``--mqtt URL``, ``--table``, ``--readers N`` and ``--prefix``, or
``--reader ID`` for each, ``--mat ID`` for each virtual cinema mat beside them, and
``--dir``), and print the same lines about them:
:func:`transport_options`, :func:`virtual_options` and :func:`start_virtual`. ``readers
tail`` and ``serve`` take the same ``--serial``/``--mqtt`` and ``--reader`` values
(:func:`url_or_empty`, :func:`reader_id`).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from companion.readers.mqtt_url import MqttUrl, parse_mqtt_url
from companion.readers.protocol import READER_ID

if TYPE_CHECKING:  # imported when readers start (paho), not when the options are registered
    from companion.readers.virtual import MqttBank, SerialBank

DEFAULT_TABLE = "demo"
"""The table name used in MQTT topics when none is given."""

VirtualBank: TypeAlias = "SerialBank | MqttBank"
"""A started bank of virtual readers, on pseudo-terminals or on a broker."""


def transport_options(parser: argparse.ArgumentParser, serial_many: bool,
                      mqtt_optional: bool) -> None:
    """Add ``--serial`` (ports to read when ``serial_many``, else a flag: one pseudo-terminal
    per virtual reader), ``--mqtt URL`` (the URL may be left out when ``mqtt_optional``: a
    private broker) and ``--table``."""
    group = parser.add_mutually_exclusive_group(required=True)
    if serial_many:
        group.add_argument("--serial", nargs="+", metavar="PORT", help="serial ports to read")
    else:
        group.add_argument("--serial", action="store_true",
                           help="one pseudo-terminal per reader")
    url_help = "mqtt://user:password@host:port"
    if mqtt_optional:
        group.add_argument("--mqtt", nargs="?", const="", metavar="URL", type=url_or_empty,
                           help=url_help + " (none: start a private Mosquitto)")
    else:
        group.add_argument("--mqtt", metavar="URL", type=url_or_empty, help=url_help)
    parser.add_argument("--table", default=DEFAULT_TABLE, help="table name in MQTT topics")


def url_or_empty(text: str) -> MqttUrl | str:
    """An ``--mqtt`` value: the parsed URL, or ``""`` for none (an argparse type)."""
    if not text:
        return ""
    try:
        return parse_mqtt_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def reader_id(text: str) -> str:
    """A ``--reader`` value, checked against the protocol's reader ids (an argparse type)."""
    if not READER_ID.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a valid reader id")
    return text


def virtual_options(parser: argparse.ArgumentParser, *, named: bool = False) -> None:
    """Add ``--readers N``, ``--prefix``, ``--mat ID`` (repeated: virtual cinema mats, protocol
    version 2, on the same transport) and ``--dir``; with ``named``, also ``--reader ID``
    (repeated), which names the readers instead (``bag-1``, ``pad-1``, ...)."""
    parser.add_argument("--readers", type=int, default=4, help="how many readers (4)")
    parser.add_argument("--prefix", default="bag-", help="reader ids are PREFIX1..PREFIXN")
    if named:
        parser.add_argument("--reader", dest="reader_ids", action="append", type=reader_id,
                            metavar="ID", help="a reader id (repeat; instead of --readers)")
    parser.add_argument("--mat", dest="mat_ids", action="append", type=reader_id, default=[],
                        metavar="ID", help="also a virtual cinema mat with this id (repeat; "
                        "serve takes it with --mat ID)")
    parser.add_argument("--dir", type=Path, help="where the serial symlinks go (a temp dir)")


def reader_names(args: argparse.Namespace) -> list[str]:
    """The virtual readers' ids: each ``--reader``, else ``PREFIX1`` to ``PREFIXN``."""
    named = getattr(args, "reader_ids", None)
    if named:
        return list(dict.fromkeys(named))
    return [f"{args.prefix}{i + 1}" for i in range(args.readers)]


def mat_names(args: argparse.Namespace) -> list[str]:
    """The virtual mats' ids (each ``--mat``, once), none of them a reader's id too;
    ``ValueError`` when one is."""
    mats = list(dict.fromkeys(getattr(args, "mat_ids", None) or []))
    both = [m for m in mats if m in reader_names(args)]
    if both:
        raise ValueError(f"{both[0]} is given as a reader and as a mat: give each id once")
    return mats


def mat_zones() -> int:
    """How many zones a virtual mat has: the most any hosted game's mat reads (a Popcorn
    cinema mat's 4)."""
    from companion import games

    sensed = [kind.mats.zones for kind in map(games.load, games.game_ids())
              if kind.mats is not None]
    return max(sensed, default=4)


def new_boot() -> int:
    """A boot number for a virtual reader: random and never 0, as the firmware's, so two runs
    in the same second never share one (the hub would take the second's taps for repeats)."""
    return random.SystemRandom().randrange(1, 1 << 32)


@contextmanager
def start_virtual(args: argparse.Namespace, names: list[str], resend_interval: float = 0.5,
                  mats: Sequence[str] = ()) -> Iterator[VirtualBank]:
    """Start one virtual reader per name, and one virtual mat per id of ``mats``, on the
    transport ``args`` chose, print where each is (``bag-1 DIR/bag-1 -> /dev/pts/5``, or the
    broker and table), and stop them on exit.

    Over ``--serial`` each reader gets a stable symlink in ``--dir`` (a temporary folder
    when none is given, removed at the end) for ``serve --serial`` to open.
    """
    from companion.readers.virtual import MqttBank, SerialBank, VirtualMat, VirtualReader

    readers = [VirtualReader(name, boot=new_boot(), resend_interval=resend_interval)
               for name in names]
    zones = mat_zones() if mats else 0
    readers += [VirtualMat(mat, zones, boot=new_boot(), resend_interval=resend_interval)
                for mat in mats]
    tmp = None
    if args.serial:
        if args.dir is None:
            tmp = tempfile.TemporaryDirectory(prefix="popcorn-readers-")
        serial = SerialBank(readers, args.dir if tmp is None else tmp.name).start()
        bank: VirtualBank = serial
        for name in [*names, *mats]:
            print(f"{name} {serial.path(name)} -> {serial.device(name)}", flush=True)
    else:
        bank = MqttBank(readers, args.mqtt, args.table).start()
        beside = f" and {len(mats)} mats" if mats else ""
        print(f"{len(names)} readers{beside} on {args.mqtt.redacted()}, table {args.table}",
              flush=True)
    try:
        yield bank
    finally:
        bank.stop()
        if tmp:
            tmp.cleanup()
