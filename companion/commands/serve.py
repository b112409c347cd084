"""``popcorn-companion serve``: run the hub for a real table.

It opens (or creates) the hub database, rebuilds every table from its log, starts the reader
link on the given serial ports and/or MQTT broker, and serves the dashboard and the API.

The hub, the web server and the broker are imported when the command runs, not when its
options are registered: every other command of ``popcorn-companion`` builds this parser too,
and must not pay for Flask and Socket.IO (issue 39).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands.lang_option import add_lang_option
from companion.commands.reader_options import reader_id, url_or_empty
from companion.paths import data_dir
from companion.readers.broker import READER_PORT

if TYPE_CHECKING:
    from companion.hub import server
    from companion.hub.hub import Hub

PROG = "popcorn-companion serve"


class _Servers:
    """The choices of the hidden ``--server``: :data:`companion.hub.server.SERVERS`, read only
    when ``serve``'s own arguments are checked (argparse asks ``in`` and iterates)."""

    def __contains__(self, name: object) -> bool:
        """Whether ``name`` is one of the web servers."""
        return name in _web_servers()

    def __iter__(self) -> Iterator[str]:
        """The web servers, the default first."""
        return iter(_web_servers())


def _web_servers() -> tuple[str, ...]:
    from companion.hub.server import SERVERS

    return SERVERS


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="run the hub for a real table",
                                   description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="hub database (in the user's data directory)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (all)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (8000)")
    parser.add_argument("--serial", nargs="+", default=[], metavar="PORT",
                        help="serial ports of USB bag readers")
    parser.add_argument("--mqtt", nargs="?", const="", metavar="URL", type=url_or_empty,
                        help="MQTT broker of Wi-Fi readers (no URL: start our own, on the "
                        "network, with a password kept beside the database)")
    parser.add_argument("--mqtt-port", type=int, default=READER_PORT,
                        help=f"port of our own broker ({READER_PORT})")
    parser.add_argument("--mqtt-table", default="demo", help="table name in MQTT topics")
    parser.add_argument("--reader", dest="readers", action="append", type=reader_id,
                        default=[], metavar="ID", help="trust a reader before any table binds it")
    parser.add_argument("--mat", dest="mats", action="append", type=reader_id, default=[],
                        metavar="ID", help="trust a cinema mat (protocol version 2) before any "
                        "table binds it")
    parser.add_argument("--admin-pin", help="PIN for the tag registry (random if not given)")
    add_lang_option(parser)
    # bench/e2e.py compares the web servers side by side; a real table keeps the first
    parser.add_argument("--server", choices=_Servers(), metavar="SERVER",
                        default=os.environ.get("POPCORN_SERVER"),
                        help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def reach_note(host: str) -> str:
    """Who can reach a hub listening on ``host``: the phones too (their links use the
    address printed for the tablet), or only this computer (on a loopback address)."""
    from companion.hub.network import is_loopback

    if is_loopback(host):
        return (f"listening on {host}: only this computer can open it; give --host 0.0.0.0 "
                "for a tablet and phones on the network")
    return "phone links use this address too: the phones must be on the same network"


def print_logins(hub: Hub, args: argparse.Namespace) -> None:
    """Print each Wi-Fi reader's own broker URL, now and whenever a table binds a new one."""
    from companion.hub.network import lan_host

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


def run(args: argparse.Namespace) -> int:
    """Start the hub and serve until interrupted (Ctrl-C, or SIGTERM from systemd or
    ``kill``): the hub then closes its database (SQLite folds the write-ahead log back in)
    and stops its broker."""
    from companion.hub import server
    from companion.hub.app import create_app
    from companion.hub.hub import Hub
    from companion.readers.broker import BrokerError, reader_broker
    from companion.readers.store import StoreError

    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    db = args.db or data_dir() / "hub.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    listener = server.listen_or_say(PROG, args.host, args.port)
    if listener is None:
        return 2
    name = args.server or server.SERVERS[0]

    def build() -> server.Served:  # in the process that serves (server.run)
        try:
            hub = Hub(db, readers=args.readers, mats=args.mats,
                      mqtt_table=args.mqtt_table)
            mqtt = args.mqtt
            if mqtt == "":
                mqtt = reader_broker(db.parent / f"{db.stem}-mqtt", args.mqtt_port, args.host)
            hub.start(serial=args.serial, mqtt=mqtt)
        except (StoreError, BrokerError) as exc:
            hint = (" (another broker may hold that port: give --mqtt-port, or --mqtt URL to "
                    "use it)" if isinstance(exc, BrokerError) and "in use" in str(exc) else "")
            raise server.StartError(f"{PROG}: error: {exc}{hint}") from exc
        app, _ = create_app(hub, args.admin_pin, args.lang, host=args.host,
                            async_mode=server.async_mode(name))
        _print_start(hub, args, db, app.config["admin_pin"])
        return app, hub.stop

    return server.run(build, listener, name)


def _print_start(hub: Hub, args: argparse.Namespace, db: Path, admin_pin: str) -> None:
    """What ``serve`` prints once the hub is up: the tablet's URL, who can reach it, the
    database and admin PIN, and how the readers connect."""
    from companion.hub.network import tablet_url

    print(f"Popcorn Companion hub: open {tablet_url(args.host, args.port)} on the tablet",
          flush=True)
    print(reach_note(args.host), flush=True)
    print(f"database {db}; admin PIN {admin_pin}", flush=True)
    if hub.broker:
        print_logins(hub, args)
    elif hub.mqtt_url:
        print(f"MQTT readers connect to {hub.mqtt_url.redacted()}", flush=True)
