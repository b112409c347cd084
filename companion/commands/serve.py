"""``popcorn-companion serve``: run the hub for a real table.

It opens (or creates) the hub database, rebuilds every table from its log, starts the reader
link on the given serial ports and/or MQTT broker, and serves the dashboard and the API.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from companion.commands.lang_option import add_lang_option
from companion.commands.readers import _reader_id, _url_or_empty
from companion.hub.app import create_app
from companion.hub.hub import Hub
from companion.hub.network import is_loopback, lan_host, tablet_url
from companion.paths import data_dir
from companion.readers.broker import READER_PORT, BrokerError, reader_broker
from companion.readers.store import StoreError

PROG = "popcorn-companion serve"


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="run the hub for a real table",
                                   description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="hub database (in the user's data directory)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (all)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (8000)")
    parser.add_argument("--serial", nargs="+", default=[], metavar="PORT",
                        help="serial ports of USB bag readers")
    parser.add_argument("--mqtt", nargs="?", const="", metavar="URL", type=_url_or_empty,
                        help="MQTT broker of Wi-Fi readers (no URL: start our own, on the "
                        "network, with a password kept beside the database)")
    parser.add_argument("--mqtt-port", type=int, default=READER_PORT,
                        help=f"port of our own broker ({READER_PORT})")
    parser.add_argument("--mqtt-table", default="demo", help="table name in MQTT topics")
    parser.add_argument("--reader", dest="readers", action="append", type=_reader_id,
                        default=[], metavar="ID", help="trust a reader before any table binds it")
    parser.add_argument("--admin-pin", help="PIN for the tag registry (random if not given)")
    add_lang_option(parser)
    parser.set_defaults(func=run)


def reach_note(host: str) -> str:
    """Who can reach a hub listening on ``host``: the phones too (their links use the
    address printed for the tablet), or only this computer (on a loopback address)."""
    if is_loopback(host):
        return (f"listening on {host}: only this computer can open it; give --host 0.0.0.0 "
                "for a tablet and phones on the network")
    return "phone links use this address too: the phones must be on the same network"


def print_logins(hub: Hub, args: argparse.Namespace) -> None:
    """Print each Wi-Fi reader's own broker URL, now and whenever a table binds a new one."""
    broker = hub.broker
    assert broker is not None
    host = lan_host(args.host)

    def line(reader: str) -> None:
        print(f"Wi-Fi reader {reader}: {broker.reader_url(reader, host)}", flush=True)

    print(f"Wi-Fi readers (table {args.mqtt_table}) log in as themselves; flash each with "
          f"popcorn-companion reader flash --port PORT --reader ID --wifi SSID --mqtt URL",
          flush=True)
    for reader in sorted(broker.accounts.passwords):
        line(reader)
    if not broker.accounts.passwords:
        print("Wi-Fi readers: none known yet; give --reader ID, or create a table, and each "
              "reader's URL is printed here", flush=True)
    hub.on_reader_login = line


def _sigterm_as_interrupt() -> None:
    """systemd (and ``kill``) stop a service with SIGTERM: take it as Ctrl-C, so that the hub
    closes its database (SQLite folds the write-ahead log back in) and stops its broker."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def run(args: argparse.Namespace) -> int:
    """Start the hub and serve until interrupted."""
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    db = args.db or data_dir() / "hub.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    try:
        hub = Hub(db, readers=args.readers, mqtt_table=args.mqtt_table)
        mqtt = args.mqtt
        if mqtt == "":
            mqtt = reader_broker(db.parent / f"{db.stem}-mqtt", args.mqtt_port, args.host)
        hub.start(serial=args.serial, mqtt=mqtt)
    except (StoreError, BrokerError) as exc:
        hint = (" (another broker may hold that port: give --mqtt-port, or --mqtt URL to use it)"
                if isinstance(exc, BrokerError) and "in use" in str(exc) else "")
        print(f"{PROG}: error: {exc}{hint}", file=sys.stderr)
        return 2
    app, socketio = create_app(hub, args.admin_pin, args.lang, host=args.host)
    print(f"Popcorn Companion hub: open {tablet_url(args.host, args.port)} on the tablet",
          flush=True)
    print(reach_note(args.host), flush=True)
    print(f"database {db}; admin PIN {app.config['admin_pin']}", flush=True)
    if hub.broker:
        print_logins(hub, args)
    elif hub.mqtt_url:
        print(f"MQTT readers connect to {hub.mqtt_url.redacted()}", flush=True)
    _sigterm_as_interrupt()
    try:
        socketio.run(app, host=args.host, port=args.port, allow_unsafe_werkzeug=True,
                     log_output=False)
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()
    return 0
