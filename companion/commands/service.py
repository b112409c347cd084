"""``popcorn-companion service``: run the hub from boot under systemd.

``service install [--user] [serve options]`` writes ``popcorn-companion.service``: a system
unit in /etc/systemd/system that runs ``serve`` as a normal user (``--as-user``, by default
the user who ran sudo), or with ``--user`` a unit of your own systemd user manager. The serve
options are checked by ``serve``'s own parser and written into ``ExecStart``, with ``--db``
always explicit (the service user's data directory unless given) and paths made absolute,
because a service starts in ``/`` without your shell's environment. It prints the
``systemctl`` commands that enable it and never runs them. ``service uninstall`` removes the
unit once it is disabled.

The hub never runs as root unless asked with ``--as-user root``: it needs no privilege (the
``dialout`` group opens USB serial ports), and a root-owned database in a home directory would
lock out a later ``serve`` run by that user.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import re
import sys
from pathlib import Path
from typing import Any

from companion.commands import serve
from companion.paths import APP, data_dir

PROG = "popcorn-companion service"
UNIT = f"{APP}.service"
"""The unit's file name; ``systemctl`` and ``journalctl -u`` also take it without ``.service``."""

SYSTEM_UNIT_DIR = Path("/etc/systemd/system")
"""Where an administrator's own system units live (packages use /usr/lib/systemd/system)."""

_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@+=:,./-]+")


class ServiceError(Exception):
    """A reason to stop with a one-line message, and the exit status to stop with."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def register(subparsers: Any) -> None:
    """Add ``service install`` (which accepts every serve option) and ``service uninstall``."""
    parser = subparsers.add_parser("service", help="run the hub from boot with systemd",
                                   description="Run the hub from boot under systemd: "
                                   "install writes the unit, uninstall removes it.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install", parents=[serve_parser()], add_help=False, allow_abbrev=False,
        help="write the systemd unit that runs serve",
        description="Write a systemd unit that runs `popcorn-companion serve` from boot with "
        "the serve options given here (see `popcorn-companion serve --help`).")
    _common_options(install)
    install.add_argument("--as-user", metavar="NAME",
                         help="system unit only: who the hub runs as ($SUDO_USER, else you)")
    install.add_argument("--dry-run", action="store_true",
                         help="print the unit and where it would go; write nothing")
    install.set_defaults(func=run_install)
    uninstall = actions.add_parser("uninstall", help="remove the unit once it is disabled",
                                   description="Remove the unit that service install wrote.")
    _common_options(uninstall)
    uninstall.set_defaults(func=run_uninstall)


def _common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--user", action="store_true",
                        help="a unit of your systemd user manager instead of a system unit")
    parser.add_argument("--unit-dir", type=Path, metavar="DIR",
                        help="for packaging and tests: write the unit file into DIR")


def serve_parser() -> argparse.ArgumentParser:
    """``serve``'s own parser, as :func:`companion.commands.serve.register` builds it: the one
    definition of the serve options, used both to check them and to write them back out."""
    subparsers = argparse.ArgumentParser(prog="popcorn-companion").add_subparsers()
    serve.register(subparsers)
    return subparsers.choices["serve"]


# -- install ---------------------------------------------------------------------------------


def run_install(args: argparse.Namespace) -> int:
    """Write (or with ``--dry-run`` print) the unit, then say how to enable it."""
    try:
        account = service_account(args.user, args.as_user)
        db = (args.db or account_data_dir(account, args.user) / "hub.sqlite").absolute()
        words = companion_command() + ["serve", *serve_words(args, db=db)]
        text = unit_text(words, user=None if args.user else account.pw_name)
        path = unit_path(args.user, args.unit_dir)
        if args.dry_run:
            print(f"# {path} (dry run: nothing written)\n{text}", end="")
            return 0
        existed = path.exists()
        write_unit(path, text, args.user)
    except ServiceError as exc:
        print(f"{PROG} install: error: {exc}", file=sys.stderr)
        return exc.status
    print(f"wrote {path}\nthe hub runs as {account.pw_name}, with the database {db}")
    print(next_steps(args.user, account.pw_name, restart=existed))
    return 0


def service_account(user_unit: bool, as_user: str | None) -> pwd.struct_passwd:
    """Who the hub runs as: you for a user unit; else ``--as-user``, ``$SUDO_USER`` or you,
    never root unless ``--as-user root`` says so."""
    if user_unit:
        if as_user:
            raise ServiceError("--as-user is for a system unit: a --user unit runs as you")
        return pwd.getpwuid(os.getuid())
    name = as_user or os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
    try:
        account = pwd.getpwnam(name)
    except KeyError:
        raise ServiceError(f"there is no user {name!r} on this machine (--as-user)") from None
    if account.pw_uid == 0 and not as_user:
        raise ServiceError("the hub would run as root: give --as-user NAME, the user whose "
                           "data directory keeps the database (--as-user root if you mean it)")
    return account


def account_data_dir(account: pwd.struct_passwd, user_unit: bool) -> Path:
    """:func:`companion.paths.data_dir` for the service's user: yours (with your
    ``$XDG_DATA_HOME``) for a user unit, else the default one under that user's home."""
    if user_unit:
        return data_dir()
    return data_dir(Path(account.pw_dir))


def serve_words(args: argparse.Namespace, db: Path) -> list[str]:
    """The serve options of ``args`` as command-line words, in serve's own order: those that
    differ from serve's defaults, plus ``--db``. They must read back as the same options."""
    parser = serve_parser()
    values = {dest: getattr(args, dest) for dest in vars(parser.parse_args([])) if dest != "func"}
    values["db"] = db
    values["serial"] = [str(Path(port).absolute()) for port in values["serial"]]
    words = [word for action in parser._actions for word in _option_words(action, values)]
    back = vars(parser.parse_args(words))
    if any(back[dest] != value for dest, value in values.items()):
        raise ServiceError(f"these serve options do not survive being written out: {words}")
    return words


def _option_words(action: argparse.Action, values: dict[str, Any]) -> list[str]:
    """How one serve option is written: nothing when it has its default value."""
    value = values.get(action.dest)
    if not action.option_strings or value is None or value == action.default:
        return []
    flag = action.option_strings[-1]
    if action.nargs == 0 or (action.nargs == "?" and value == action.const):
        return [flag]
    if action.nargs in ("+", "*"):
        return [flag, *map(str, value)]
    if isinstance(value, list):  # action="append": the option once per value
        return [word for item in value for word in (flag, str(item))]
    return [flag, str(value)]


def companion_command() -> list[str]:
    """This installation's ``popcorn-companion``, by absolute path: the script beside the
    running Python (a checkout's .venv, pipx's venv, any venv), else ``python -m companion``."""
    python = Path(sys.executable).absolute()
    script = python.parent / APP
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [str(python), "-m", "companion"]


def systemd_word(word: str) -> str:
    """One ``ExecStart`` word as systemd reads it back: ``%`` and ``$`` doubled (specifiers
    and environment variables), and double quotes around anything unusual, with ``\\`` and
    ``"`` escaped inside. Control characters (a tab, a newline) are refused."""
    if any(ord(c) < 32 or c == "\x7f" for c in word):
        raise ServiceError(f"{word!r}: a control character cannot go into a unit file")
    escaped = word.replace("%", "%%").replace("$", "$$")
    if _PLAIN_WORD.fullmatch(escaped):
        return escaped
    return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unit_text(words: list[str], user: str | None) -> str:
    """The unit file: a system unit running as ``user``, or a user unit when ``user`` is None.

    A stop signals ``serve`` alone (``KillMode=mixed``): it stops its web server's worker,
    where the hub closes its database. The system unit waits for the network (the tablet
    and Wi-Fi readers reach the hub over it) and adds ``dialout`` for USB readers. Its
    hardening leaves /dev and /home alone: no new privileges, files private to the service's
    user (the database holds the players' tokens), a private /tmp, /usr /boot /etc
    read-only. A user unit gets only the first two: the others need user namespaces there."""
    system = user is not None
    lines = ["[Unit]", "Description=Popcorn Companion hub (serve)"]
    if system:
        lines += ["Wants=network-online.target", "After=network-online.target"]
    lines += ["", "[Service]", "Type=exec"]
    if system:
        lines += [f"User={user}", "SupplementaryGroups=dialout"]
    lines += ["ExecStart=" + " ".join(map(systemd_word, words)),
              "KillMode=mixed", "Restart=on-failure", "RestartSec=2", "NoNewPrivileges=yes",
              "UMask=0077"]
    if system:
        lines += ["PrivateTmp=yes", "ProtectSystem=full"]
    lines += ["", "[Install]", f"WantedBy={_target(not system)}"]
    return "\n".join(lines) + "\n"


def _target(user_unit: bool) -> str:
    return "default.target" if user_unit else "multi-user.target"


def unit_path(user_unit: bool, unit_dir: Path | None = None) -> Path:
    """Where the unit file goes: ``unit_dir`` if given, else /etc/systemd/system, or for a
    user unit ``$XDG_CONFIG_HOME/systemd/user`` (~/.config/systemd/user), where the user
    manager looks."""
    if unit_dir is None and not user_unit:
        unit_dir = SYSTEM_UNIT_DIR
    elif unit_dir is None:
        config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        unit_dir = Path(config) / "systemd" / "user"
    return unit_dir.absolute() / UNIT


def write_unit(path: Path, text: str, user_unit: bool) -> None:
    """Write the file whole (a temporary file renamed over it), readable by all, as units are."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        tmp.chmod(0o644)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise _write_error(path, exc, user_unit) from None


def _write_error(path: Path, exc: OSError, user_unit: bool) -> ServiceError:
    if isinstance(exc, PermissionError):
        hint = "" if user_unit else ", or install a unit of your own with --user"
        return ServiceError(f"cannot write {path}: permission denied (run it with sudo{hint})", 1)
    return ServiceError(f"cannot write {path}: {exc.strerror or exc}", 1)


def _systemctl(user_unit: bool) -> str:
    return "systemctl --user" if user_unit else "sudo systemctl"


def next_steps(user_unit: bool, name: str, restart: bool) -> str:
    """The commands that start the service now and at every boot, and show its output."""
    ctl = _systemctl(user_unit)
    steps = [f"{ctl} daemon-reload",
             f"{ctl} restart {APP}" if restart else f"{ctl} enable --now {APP}"]
    if user_unit:
        steps.append(f"sudo loginctl enable-linger {name}   # start at boot, without a login")
    log = f"journalctl {'--user-unit' if user_unit else '-u'} {APP} -n 20"
    return ("to start it now and at every boot:\n" + "".join(f"  {s}\n" for s in steps)
            + f"its output, with the tablet URL and the admin PIN:\n  {log}")


# -- uninstall -------------------------------------------------------------------------------


def run_uninstall(args: argparse.Namespace) -> int:
    """Remove the unit file. While it is enabled, refuse and say to disable it first: that
    needs the file, and a running service is stopped by ``systemctl``, not by us."""
    path = unit_path(args.user, args.unit_dir)
    ctl = _systemctl(args.user)
    try:
        _remove(path, args.user)
    except ServiceError as exc:
        print(f"{PROG} uninstall: error: {exc}", file=sys.stderr)
        return exc.status
    print(f"removed {path}\nif it still runs: {ctl} stop {APP}\nthen: {ctl} daemon-reload")
    return 0


def _remove(path: Path, user_unit: bool) -> None:
    if not path.exists():
        hint = "" if user_unit else " (a user unit? add --user)"
        raise ServiceError(f"no {path}: nothing to remove{hint}", 1)
    if (path.parent / f"{_target(user_unit)}.wants" / UNIT).is_symlink():
        raise ServiceError(f"the service is enabled: first `{_systemctl(user_unit)} disable "
                           f"--now {APP}`, then uninstall again", 1)
    try:
        path.unlink()
    except PermissionError:
        raise ServiceError(f"cannot remove {path}: permission denied (run it with sudo)",
                           1) from None
