"""``popcorn-companion readers flash``: the firmware and a reader's settings, in one command.

The board needs MicroPython already (``docs/firmware.md`` says how to install it once). This
command builds ``config.json`` from the options, checks it with the firmware's own checker,
compiles the firmware to ``.mpy`` with ``mpy-cross`` and runs ``mpremote`` once to copy it
all and reset the board. ``--dry-run`` prints the files, their sizes and the settings instead.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.readers.flashing import (
    FlashError,
    Image,
    build_image,
    find_mpremote,
    mpremote_args,
    reader_config,
    release_repl,
)
from companion.readers.mqtt_url import MqttUrl, parse_mqtt_url
from companion.readers.protocol import READER_ID

SECRETS = ("wifi_password", "mqtt_password")
"""Settings shown as ``***`` in what the command prints."""


def add_parser(sub: Any, table_default: str) -> None:
    """Add ``flash`` to the ``readers`` subcommands."""
    parser = sub.add_parser(
        "flash", help="put the firmware and a reader's settings on a board",
        description=__doc__.splitlines()[0].split(": ", 1)[1])
    parser.add_argument("--port", required=True,
                        help="the board's serial port (/dev/ttyUSB0, /dev/ttyACM0, COM3)")
    parser.add_argument("--reader", required=True, type=_reader_id,
                        help="the reader's id, as the hub's --reader knows it (bag-1)")
    parser.add_argument("--table", default=table_default, help="table name in MQTT topics")
    parser.add_argument("--board", choices=("esp32", "picow"),
                        help="the board, when the firmware should not detect it")
    parser.add_argument("--mat", action="store_true",
                        help="a cinema mat (an ESP32 with one RC522 per zone, protocol v2) "
                             "rather than a bag reader; its pins are in docs/firmware.md")
    parser.add_argument("--zones", type=int, metavar="N",
                        help="how many zones the mat reads (with --mat; 4 unless given)")
    parser.add_argument("--wifi", metavar="SSID", help="Wi-Fi network (with --mqtt)")
    parser.add_argument("--wifi-password", default="", help="Wi-Fi password")
    parser.add_argument("--mqtt", metavar="URL", type=_mqtt_url,
                        help="mqtt://user:password@host:port: the reader talks MQTT over "
                             "Wi-Fi (serve --mqtt prints this line); without it, USB serial")
    parser.add_argument("--sources", action="store_true",
                        help="copy .py sources instead of compiled .mpy (for debugging)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the files and the settings; touch no board")
    parser.set_defaults(func=run_flash)


def _reader_id(text: str) -> str:
    if not READER_ID.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a valid reader id (1-32 letters, digits, _ . -)")
    return text


def _mqtt_url(text: str) -> MqttUrl:
    try:
        return parse_mqtt_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def settings_from(args: argparse.Namespace) -> dict[str, Any]:
    """The reader's ``config.json`` fields from the command's options (a mat's ``kind`` and
    ``zones`` with ``--mat``; unset ones are left out)."""
    mat = getattr(args, "mat", False)
    zones = getattr(args, "zones", None)
    if zones is not None and not mat:
        raise FlashError("--zones is for a cinema mat: give --mat too")
    kind = {"kind": "mat", "zones": zones} if mat else {}
    if args.mqtt is None:
        if args.wifi:
            raise FlashError("--wifi is for a reader on MQTT: give --mqtt URL too "
                             "(a USB serial reader needs no Wi-Fi)")
        return {"reader": args.reader, "table": args.table, "transport": "serial",
                "board": args.board, **kind}
    if not args.wifi:
        raise FlashError("a reader on MQTT needs its Wi-Fi network: --wifi SSID")
    url: MqttUrl = args.mqtt
    return {"reader": args.reader, "table": args.table, "transport": "mqtt",
            "board": args.board, "wifi_ssid": args.wifi, "wifi_password": args.wifi_password,
            "mqtt_host": url.host, "mqtt_port": url.port, "mqtt_user": url.username,
            "mqtt_password": url.password, **kind}


def run_flash(args: argparse.Namespace) -> int:
    """Build the image in a temporary folder, then show it or send it to the board."""
    try:
        config = reader_config(settings_from(args))
        _warn_other_login(args)
        with tempfile.TemporaryDirectory(prefix="popcorn-flash-") as tmp:
            image = build_image(config, Path(tmp), compile_modules=not args.sources)
            if args.dry_run:
                _show(args, image, config)
                return 0
            return _send(args, image)
    except FlashError as exc:
        print(f"popcorn-companion readers flash: {exc}", file=sys.stderr)
        return 1


def _warn_other_login(args: argparse.Namespace) -> None:
    """Say so when the URL logs in as someone other than the reader: the hub's own broker
    (``serve --mqtt``) lets a reader in only as itself, on its own topics."""
    user = args.mqtt.username if args.mqtt else None
    if user is not None and user != args.reader:
        print(f"popcorn-companion readers flash: note: the URL logs in as {user!r}, not as "
              f"{args.reader!r}; the hub's own broker accepts a reader only under its own id "
              f"(use the line serve --mqtt prints for {args.reader})", file=sys.stderr)


def _kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def _show(args: argparse.Namespace, image: Image, config: dict[str, Any]) -> None:
    kind = "sources" if args.sources else ".mpy"
    print(f"Firmware for reader {args.reader} ({config['transport']}): {len(image.files)} "
          f"files, {_kb(image.image_bytes)} as {kind} (the sources: {_kb(image.source_bytes)})")
    for path in image.files:
        print(f"  {path.name:<22} {path.stat().st_size:>7,} bytes")
    shown = {k: ("***" if k in SECRETS and v else v) for k, v in config.items()}
    print(f"{image.files[-1].name}:\n{json.dumps(shown, indent=2)}")
    shown_args = [_short(a, image) for a in mpremote_args(args.port, image)]
    print("Would run, from the staging folder: " + shlex.join(["mpremote", *shown_args]))
    print("Dry run: nothing was sent to the board.")


def _short(arg: str, image: Image) -> str:
    if "\n" in arg:
        return "<remove stale .py>"
    return Path(arg).name if Path(arg).parent == image.folder else arg


def _send(args: argparse.Namespace, image: Image) -> int:
    program = find_mpremote()
    print(f"Stopping what runs on {args.port}…", flush=True)
    if not release_repl(args.port):
        print("  no MicroPython REPL answered; trying mpremote anyway", flush=True)
    print(f"Copying {len(image.files)} files ({_kb(image.image_bytes)}) to {args.port} "
          f"with mpremote…", flush=True)
    run = subprocess.run([program, *mpremote_args(args.port, image)], check=False)
    if run.returncode != 0:
        raise FlashError(
            f"mpremote stopped with exit code {run.returncode}. Is the board on {args.port} "
            "and no other program (the hub, readers tail, a serial monitor) holding the "
            "port? A reader already running the firmware: start it in safe mode (hold the "
            "safe-mode button while the LED is blue) and try again.")
    listen = (f"--mqtt URL --reader {args.reader}" if args.mqtt
              else f"--serial {args.port}")
    action = "Set a card on a zone" if getattr(args, "mat", False) else "Try a tap"
    print(f"Done: {args.reader} restarts with the new firmware. {action} with "
          f"`popcorn-companion readers tail {listen}`.")
    return 0
