"""``popcorn-companion service``: the systemd unit it writes, checked as text, read back the
way systemd reads ``ExecStart``, and by ``systemd-analyze verify`` where it is installed.

Nothing here starts systemd or runs ``systemctl``; every unit goes into a temporary folder
(``--unit-dir``, or ``$XDG_CONFIG_HOME`` for the default user unit folder).
"""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.service import serve_parser, systemd_word

ME = pwd.getpwuid(os.getuid())
UNIT = "popcorn-companion.service"
ANALYZE = shutil.which("systemd-analyze")


@pytest.fixture(autouse=True)
def _no_real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the data and config folders of in-process runs in the test's folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("SUDO_USER", raising=False)


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``python -m companion`` with arguments, in an environment of our own."""
    return subprocess.run([sys.executable, "-m", "companion", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def child_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The test process's environment, with the data and config folders under ``tmp_path``."""
    env = {key: value for key, value in os.environ.items() if key != "SUDO_USER"}
    env.update(XDG_DATA_HOME=str(tmp_path / "data home"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    return {**env, **extra}


def exec_start(unit: str) -> list[str]:
    """``ExecStart`` split into words as systemd does for what ``service`` writes: shell-like
    double quotes with backslash escapes, ``%%`` and ``$$`` each read as one character, and
    any other ``%`` or ``$`` an error, since systemd would expand it."""
    line = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    return [_unescape(word) for word in shlex.split(line.removeprefix("ExecStart="))]


def _unescape(word: str) -> str:
    def one(match: re.Match[str]) -> str:
        if match.group() not in ("%%", "$$"):
            raise AssertionError(f"systemd would expand {match.group()!r} in {word!r}")
        return match.group()[0]

    return re.sub(r"%%|\$\$|%.?|\$", one, word)


def serve_options(words: list[str]) -> dict[str, object]:
    """What ``serve`` would make of the words after ``serve``."""
    after = words[words.index("serve") + 1:]
    return vars(serve_parser().parse_args(after))


def lines(unit: str) -> set[str]:
    """The unit's lines, to ask whether it has a setting."""
    return set(unit.splitlines())


def fake_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: bool) -> Path:
    """Pretend the companion is installed in a venv whose path has a space in it: a Python
    at ``sys.executable``, with or without an executable ``popcorn-companion`` beside it."""
    bin_dir = tmp_path / "my venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.symlink_to(sys.executable)
    if script:
        (bin_dir / "popcorn-companion").write_text("#!/bin/sh\n")
        (bin_dir / "popcorn-companion").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(python))
    return bin_dir


# -- the unit's text --------------------------------------------------------------------------


def test_a_user_unit_from_a_real_process(tmp_path: Path) -> None:
    """``--user`` writes into ``$XDG_CONFIG_HOME/systemd/user``, runs this installation's
    command with the serve options and the database in ``$XDG_DATA_HOME``, and says how to
    enable it, linger included."""
    run = cli("service", "install", "--user", "--serial", "/dev/serial/by-id/usb-bag-1",
              "--reader", "bag-1", "--port", "8080", env=child_env(tmp_path))
    assert run.returncode == 0, run.stderr
    unit = (tmp_path / "config" / "systemd" / "user" / UNIT).read_text()
    words = exec_start(unit)
    script = Path(sys.executable).parent / "popcorn-companion"
    expected = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    assert words[:words.index("serve")] == expected
    options = serve_options(words)
    assert options["db"] == tmp_path / "data home" / "popcorn-companion" / "hub.sqlite"
    assert options["serial"] == ["/dev/serial/by-id/usb-bag-1"]
    assert options["readers"] == ["bag-1"] and options["port"] == 8080
    assert {"Restart=on-failure", "RestartSec=2", "WantedBy=default.target"} <= lines(unit)
    assert not any(line.startswith(("User=", "After=")) for line in lines(unit))
    assert "systemctl --user enable --now popcorn-companion" in run.stdout
    assert f"loginctl enable-linger {ME.pw_name}" in run.stdout


def test_a_system_unit_runs_as_the_named_user(tmp_path: Path) -> None:
    """The system unit names the user, adds dialout, waits for the network, starts with
    multi-user.target, and keeps the database in that user's home."""
    assert main(["service", "install", "--unit-dir", str(tmp_path / "units"),
                 "--as-user", ME.pw_name, "--mqtt", "--reader", "bag-2"]) == 0
    unit = (tmp_path / "units" / UNIT).read_text()
    assert {f"User={ME.pw_name}", "SupplementaryGroups=dialout", "Restart=on-failure",
            "After=network-online.target", "Wants=network-online.target",
            "WantedBy=multi-user.target"} <= lines(unit)
    options = serve_options(exec_start(unit))
    assert options["db"] == Path(ME.pw_dir) / ".local" / "share" / "popcorn-companion" / \
        "hub.sqlite"
    assert options["mqtt"] == "" and options["readers"] == ["bag-2"]


def test_sudo_user_is_the_default_service_user(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Under sudo, the hub runs as the user who typed the command, with that user's data."""
    someone = next(account for account in pwd.getpwall() if account.pw_uid != 0)
    monkeypatch.setenv("SUDO_USER", someone.pw_name)
    assert main(["service", "install", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# /etc/systemd/system/popcorn-companion.service")
    assert f"User={someone.pw_name}" in lines(out)
    assert serve_options(exec_start(out))["db"] == \
        Path(someone.pw_dir) / ".local" / "share" / "popcorn-companion" / "hub.sqlite"


def test_root_only_when_asked_by_name(tmp_path: Path) -> None:
    """A default that resolves to root is refused, with the way out; ``--as-user root``
    is taken at its word."""
    units = tmp_path / "units"
    refused = cli("service", "install", "--unit-dir", str(units),
                  env=child_env(tmp_path, SUDO_USER="root"))
    assert refused.returncode == 2 and "--as-user" in refused.stderr
    assert "Traceback" not in refused.stderr and not units.exists()
    asked = cli("service", "install", "--unit-dir", str(units), "--as-user", "root",
                env=child_env(tmp_path, SUDO_USER="root"))
    assert asked.returncode == 0, asked.stderr
    assert "User=root" in lines((units / UNIT).read_text())


def test_every_serve_option_comes_back_unchanged(tmp_path: Path) -> None:
    """Whatever serve options are given, ExecStart holds the same ones, read by serve's parser,
    with the paths made absolute."""
    given = ["--db", "rel/hub db.sqlite", "--host", "127.0.0.1", "--port", "8001",
             "--serial", "/dev/ttyUSB0", "/dev/ttyACM0", "--mqtt", "mqtt://p:s%25$x@h:1884",
             "--mqtt-port", "1999", "--mqtt-table", "t1", "--reader", "bag-1",
             "--reader", "bag-2", "--mat", "mat-1", "--mat", "mat-2", "--admin-pin", '12 "3"']
    assert main(["service", "install", "--user", "--unit-dir", str(tmp_path), *given]) == 0
    options = serve_options(exec_start((tmp_path / UNIT).read_text()))
    expected = vars(serve_parser().parse_args(given))
    expected["db"] = Path.cwd() / "rel" / "hub db.sqlite"
    assert options == expected


def test_paths_with_spaces_and_systemd_characters(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's own path, and a database path with a space, a quote, ``$`` and ``%``
    (which systemd would otherwise expand), come back as given."""
    bin_dir = fake_install(tmp_path, monkeypatch, script=True)
    db = tmp_path / 'odd "dir"' / "$HOME 100%.sqlite"
    assert main(["service", "install", "--user", "--unit-dir", str(tmp_path), "--db",
                 str(db)]) == 0
    unit = (tmp_path / UNIT).read_text()
    words = exec_start(unit)
    assert words[:2] == [str(bin_dir / "popcorn-companion"), "serve"]
    assert serve_options(words)["db"] == db


def test_without_a_script_it_runs_the_module(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With no ``popcorn-companion`` beside the Python, ExecStart is ``python -m companion``."""
    bin_dir = fake_install(tmp_path, monkeypatch, script=False)
    assert main(["service", "install", "--user", "--unit-dir", str(tmp_path)]) == 0
    words = exec_start((tmp_path / UNIT).read_text())
    assert words[:4] == [str(bin_dir / "python"), "-m", "companion", "serve"]


@pytest.mark.parametrize("word", ["plain/word-1", "two words", 'a "quote"', "back\\slash",
                                  "$HOME", "${X}", "50%", "%h", "", "it's", "\\n"])
def test_systemd_words_read_back(word: str) -> None:
    """Each word is quoted and escaped so that systemd's splitting gives it back."""
    assert exec_start(f"ExecStart={systemd_word(word)}") == [word]


def test_the_reader_of_words_catches_what_systemd_would_expand() -> None:
    """The check above can fail: an unescaped ``$`` or ``%`` is caught."""
    for unescaped in ("$HOME", "%h"):
        with pytest.raises(AssertionError):
            exec_start(f"ExecStart={unescaped}")


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "says"), [
    (["--port", "eighty"], "invalid int value"),
    (["--reader", "bag 1!"], "not a valid reader id"),
    (["--mat", "mat 1!"], "not a valid reader id"),
    (["--mqtt", "http://host"], "mqtt://"),
    (["--no-such-option"], "unrecognized arguments"),
    (["--as-user", "no-such-user-for-popcorn"], "no user"),
    (["--user", "--as-user", "root"], "--as-user is for a system unit"),
    (["--user", "--admin-pin", "12\n34"], "control character"),
])
def test_bad_options_write_nothing(tmp_path: Path, args: list[str], says: str) -> None:
    """A bad serve option, an unknown user or a contradiction: exit 2, one clear message."""
    units = tmp_path / "units"
    run = cli("service", "install", "--unit-dir", str(units), *args, env=child_env(tmp_path))
    assert run.returncode == 2
    assert says in run.stderr and "Traceback" not in run.stderr
    assert not units.exists() and not (tmp_path / "config").exists()


def test_dry_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--dry-run`` prints where the unit would go and the unit itself, and writes nothing."""
    units = tmp_path / "units"
    assert main(["service", "install", "--user", "--unit-dir", str(units), "--dry-run",
                 "--port", "8123"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# {units / UNIT}") and "[Service]" in out
    assert serve_options(exec_start(out))["port"] == 8123
    assert not units.exists() and not (tmp_path / "data home").exists()


def test_no_permission_is_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Writing where you may not (/etc as yourself) says to use sudo or --user; exit 1. The
    refusal is raised by hand: as root (in a container) no folder would refuse."""
    def refuse(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("companion.commands.service.os.replace", refuse)
    assert main(["service", "install", "--unit-dir", str(tmp_path), "--as-user",
                 ME.pw_name]) == 1
    err = capsys.readouterr().err
    assert "permission denied" in err and "sudo" in err and "--user" in err
    assert list(tmp_path.iterdir()) == []  # no unit, no leftover temporary file


def test_a_folder_that_cannot_be(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A unit folder inside a regular file: the path and the system's reason, exit 1."""
    (tmp_path / "file").write_text("")
    folder = tmp_path / "file" / "x"
    assert main(["service", "install", "--user", "--unit-dir", str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"cannot write {folder / UNIT}: " in err and "Traceback" not in err


# -- uninstall --------------------------------------------------------------------------------


def test_uninstall_removes_the_unit(tmp_path: Path) -> None:
    """Install then uninstall leaves nothing and says what systemd still needs; a second
    uninstall finds nothing and says where it looked."""
    env = child_env(tmp_path)
    assert cli("service", "install", "--user", env=env).returncode == 0
    path = tmp_path / "config" / "systemd" / "user" / UNIT
    assert path.exists()
    run = cli("service", "uninstall", "--user", env=env)
    assert run.returncode == 0, run.stderr
    assert not path.exists() and "systemctl --user daemon-reload" in run.stdout
    again = cli("service", "uninstall", "--user", env=env)
    assert again.returncode == 1 and str(path) in again.stderr


def test_uninstall_refuses_an_enabled_unit(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """While ``systemctl enable`` has linked it, the unit stays and the message says to
    disable it first."""
    assert main(["service", "install", "--unit-dir", str(tmp_path), "--as-user",
                 ME.pw_name]) == 0
    wants = tmp_path / "multi-user.target.wants"
    wants.mkdir()
    (wants / UNIT).symlink_to(tmp_path / UNIT)
    assert main(["service", "uninstall", "--unit-dir", str(tmp_path)]) == 1
    assert "sudo systemctl disable --now popcorn-companion" in capsys.readouterr().err
    assert (tmp_path / UNIT).exists()


# -- systemd's own check ----------------------------------------------------------------------


def verify(path: Path, *flags: str, env: dict[str, str] | None = None) -> None:
    """``systemd-analyze verify`` accepts the unit with no warning about it (it exits 0 even
    for unknown keys, so its messages are checked too)."""
    run = subprocess.run([ANALYZE, "verify", "--man=no", *flags, str(path)], env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert path.name not in run.stderr, run.stderr


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_system_unit(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """systemd parses the system unit, and finds the command (its path has a space) on disk."""
    fake_install(tmp_path, monkeypatch, script=True)
    units = tmp_path / "units"
    assert main(["service", "install", "--unit-dir", str(units), "--as-user", ME.pw_name,
                 "--serial", "/dev/ttyUSB0", "--reader", "bag-1", "--mqtt",
                 "--admin-pin", "1 2%3$"]) == 0
    verify(units / UNIT)


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_user_unit(tmp_path: Path) -> None:
    """The user unit, as a user manager would load it (which needs a runtime folder)."""
    assert main(["service", "install", "--user", "--unit-dir", str(tmp_path)]) == 0
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    verify(tmp_path / UNIT, "--user", env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)})


def test_a_unit_systemd_would_refuse_is_caught(tmp_path: Path) -> None:
    """The check above can fail: a missing command is reported."""
    if ANALYZE is None:
        pytest.skip("systemd-analyze is not installed")
    bad = tmp_path / UNIT
    bad.write_text("[Service]\nExecStart=/no/such/popcorn-companion serve\n")
    with pytest.raises(AssertionError):
        verify(bad)
