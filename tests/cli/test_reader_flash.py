"""``popcorn-companion reader flash`` against a fake ``mpremote`` that records what it is told.

No board exists here, so the one part faked is ``mpremote`` itself: a script first on
``PATH`` that logs its arguments and copies the files of ``fs cp`` into a folder standing for
the board's flash. Everything before it runs for real: the options, the firmware's own config
check, ``mpy-cross`` and the staging of the image.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.assets import firmware_dir
from companion.readers.flashing import (
    ASK_FOR_REPL,
    ENTRY,
    Image,
    cleanup_code,
    firmware_config_module,
)

FAKE = """#!{python}
import json, os, shutil, sys
args = sys.argv[1:]
with open(os.environ["FAKE_MPREMOTE_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
if "cp" in args:
    start = args.index("cp") + 1
    end = args.index(":", start)
    for name in args[start:end]:
        shutil.copy(name, os.environ["FAKE_BOARD"])
sys.exit(int(os.environ.get("FAKE_MPREMOTE_EXIT", "0")))
"""


class FakeRepl:
    """The board's end of a pseudo-terminal: a MicroPython REPL that answers Ctrl-C then
    Ctrl-A with the raw REPL banner (or stays silent, as a board that is not MicroPython)."""

    def __init__(self, answers: bool = True) -> None:
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave
        self.answers = answers
        self.heard = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            data = os.read(self.master, 1024)
            self.heard += data
            if self.answers and b"\x03\r\x01" in data:
                os.write(self.master, b"\r\nraw REPL; CTRL-B to exit\r\n>")

    def close(self) -> None:
        """Stop answering and close both ends."""
        self._stop.set()
        self._thread.join(5)
        os.close(self.master)
        os.close(self._slave)


class Bench:
    """A fake ``mpremote`` on ``PATH``, its log, the folder standing for the board's flash,
    and the board's serial port (:class:`FakeRepl`)."""

    def __init__(self, tmp: Path, answers: bool = True) -> None:
        self.repl = FakeRepl(answers)
        self.port = self.repl.port
        self.bin, self.board, self.log = tmp / "bin", tmp / "board", tmp / "mpremote.log"
        self.bin.mkdir()
        self.board.mkdir()
        fake = self.bin / "mpremote"
        fake.write_text(FAKE.format(python=sys.executable))
        fake.chmod(0o755)
        self.env = {**os.environ, "PATH": f"{self.bin}{os.pathsep}{os.environ['PATH']}",
                    "FAKE_MPREMOTE_LOG": str(self.log), "FAKE_BOARD": str(self.board)}

    def flash(self, *args: str, exit_code: int = 0) -> subprocess.CompletedProcess[str]:
        """Run the command as a user would, in its own process."""
        env = {**self.env, "FAKE_MPREMOTE_EXIT": str(exit_code)}
        return subprocess.run([sys.executable, "-m", "companion", "reader", "flash", *args],
                              capture_output=True, text=True, env=env, timeout=120)

    def calls(self) -> list[list[str]]:
        """Each call the fake received, as its argument list."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def config(self) -> dict:
        """The ``config.json`` that reached the board."""
        return json.loads((self.board / "config.json").read_text())


@pytest.fixture
def bench(tmp_path: Path):
    """A fresh fake board for each test."""
    rig = Bench(tmp_path)
    yield rig
    rig.repl.close()


def modules() -> list[Path]:
    """The firmware modules that are compiled (all but ``main.py``)."""
    return [p for p in sorted(firmware_dir().glob("*.py")) if p.name != ENTRY]


def test_a_serial_reader_gets_mpy_modules_main_py_and_its_config(bench, tmp_path) -> None:
    """One mpremote call: clean up, copy every module as .mpy, main.py as source, reset."""
    run = bench.flash("--port", bench.port, "--reader", "bag-7")
    assert run.returncode == 0, run.stderr
    (call,) = bench.calls()
    assert call[:3] == ["connect", bench.port, "exec"] and call[-2:] == ["+", "reset"]
    on_board = sorted(p.name for p in bench.board.iterdir())
    assert on_board == sorted([p.stem + ".mpy" for p in modules()] + [ENTRY, "config.json"])
    assert (bench.board / ENTRY).read_bytes() == (firmware_dir() / ENTRY).read_bytes()
    assert bench.config() == {"reader": "bag-7", "table": "demo", "transport": "serial"}
    assert "bag-7 restarts" in run.stdout


def test_each_mpy_is_what_mpy_cross_makes_of_its_source(bench, tmp_path) -> None:
    """The copied .mpy files are MicroPython v6 bytecode of the current sources."""
    assert bench.flash("--port", bench.port, "--reader", "bag-1").returncode == 0
    for source in modules():
        built = (bench.board / (source.stem + ".mpy")).read_bytes()
        assert built[:2] == b"M\x06", source.name
        direct = tmp_path / (source.stem + ".direct.mpy")
        subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(direct), str(source)],
                       check=True)
        assert built == direct.read_bytes(), source.name
    total_mpy = sum((bench.board / (p.stem + ".mpy")).stat().st_size for p in modules())
    assert total_mpy < sum(p.stat().st_size for p in modules())


def test_the_cleanup_removes_only_the_sources_that_would_shadow_the_mpy(tmp_path) -> None:
    """Run under CPython in a folder laid out like the board: stale sources go, the rest stays."""
    board = tmp_path / "flash"
    board.mkdir()
    for name in ("app.py", "mfrc522.py", "main.py", "boot_id", "config.json"):
        (board / name).write_text("old")
    image = Image(tmp_path, compiled=["app", "mfrc522", "outbox"])  # outbox.py is not there
    subprocess.run([sys.executable, "-c", cleanup_code(image)], cwd=board, check=True)
    assert sorted(p.name for p in board.iterdir()) == ["boot_id", "config.json", "main.py"]


def test_an_mqtt_reader_gets_wifi_and_broker_settings_the_firmware_accepts(bench) -> None:
    """--wifi and --mqtt become config fields that the firmware's own check accepts."""
    run = bench.flash("--port", bench.port, "--reader", "bag-2", "--table", "kitchen",
                      "--board", "picow", "--wifi", "Home Net", "--wifi-password", "s3cret",
                      "--mqtt", "mqtt://bag-2:p%40ss@192.168.1.20:1884")
    assert run.returncode == 0, run.stderr
    config = bench.config()
    assert config == {"reader": "bag-2", "table": "kitchen", "transport": "mqtt",
                      "board": "picow", "wifi_ssid": "Home Net", "wifi_password": "s3cret",
                      "mqtt_host": "192.168.1.20", "mqtt_port": 1884, "mqtt_user": "bag-2",
                      "mqtt_password": "p@ss"}
    assert firmware_config_module().check(config)["transport"] == "mqtt"
    assert "readers tail --mqtt URL --reader bag-2" in run.stdout


def test_a_cinema_mat_gets_its_kind_and_zones(bench) -> None:
    """--mat (and --zones) make a mat's config, checked by the firmware; a mat needs an
    ESP32, and --zones alone is refused."""
    run = bench.flash("--port", bench.port, "--reader", "mat-1", "--mat", "--zones", "3")
    assert run.returncode == 0, run.stderr
    config = bench.config()
    assert config == {"reader": "mat-1", "table": "demo", "transport": "serial",
                      "kind": "mat", "zones": 3}
    assert firmware_config_module().check(config)["kind"] == "mat"
    assert (bench.board / "mat.mpy").exists() and "Set a card on a zone" in run.stdout
    refused = bench.flash("--port", bench.port, "--reader", "mat-1", "--mat", "--board",
                          "picow", "--dry-run")
    assert refused.returncode == 1 and "esp32" in refused.stderr
    alone = bench.flash("--port", bench.port, "--reader", "bag-1", "--zones", "3", "--dry-run")
    assert alone.returncode == 1 and "--mat" in alone.stderr


def test_sources_mode_copies_py_files(bench) -> None:
    """--sources skips mpy-cross: the board gets the .py files themselves."""
    assert bench.flash("--port", bench.port, "--reader", "bag-1", "--sources").returncode == 0
    assert not list(bench.board.glob("*.mpy"))
    assert (bench.board / "mfrc522.py").read_bytes() == (firmware_dir() / "mfrc522.py"
                                                         ).read_bytes()


def test_dry_run_prints_files_sizes_and_settings_and_touches_no_board(bench) -> None:
    """Nothing reaches mpremote; the passwords are hidden in what is printed."""
    run = bench.flash("--port", "/dev/ttyUSB0", "--reader", "bag-3", "--wifi", "net",
                      "--wifi-password", "hunter2", "--mqtt", "mqtt://u:pw@hub:1883",
                      "--dry-run")
    assert run.returncode == 0, run.stderr
    assert bench.calls() == []
    for source in modules():
        assert f"{source.stem}.mpy" in run.stdout
    assert '"wifi_password": "***"' in run.stdout and "hunter2" not in run.stdout
    assert '"mqtt_host": "hub"' in run.stdout
    assert "nothing was sent" in run.stdout
    assert "logs in as 'u', not as 'bag-3'" in run.stderr


def test_a_url_with_the_readers_own_login_gets_no_note(bench) -> None:
    """The line serve --mqtt prints (user = reader id) goes into config.json as it is."""
    run = bench.flash("--port", "/dev/ttyUSB0", "--reader", "bag-3", "--wifi", "net",
                      "--mqtt", "mqtt://bag-3:pw@hub:1883", "--dry-run")
    assert run.returncode == 0 and run.stderr == ""
    assert '"mqtt_user": "bag-3"' in run.stdout and '"mqtt_password": "***"' in run.stdout


@pytest.mark.parametrize(("args", "status", "says"), [
    (["--mqtt", "mqtt://hub"], 1, "--wifi SSID"),
    (["--wifi", "net"], 1, "give --mqtt URL too"),
    (["--table", "no spaces!"], 1, "config: table must be"),
    (["--mqtt", "http://hub"], 2, "starts with mqtt://"),
    (["--board", "arduino"], 2, "invalid choice"),
])
def test_bad_options_are_refused_before_any_board_is_touched(bench, args, status,
                                                            says) -> None:
    """Each mistake gets its own sentence and exit status, and mpremote is never run."""
    run = bench.flash("--port", "/dev/ttyUSB0", "--reader", "bag-1", *args)
    assert run.returncode == status
    assert says in run.stderr
    assert bench.calls() == []


def test_a_bad_reader_id_is_a_usage_error(bench) -> None:
    """The reader id follows the hub's rule."""
    run = bench.flash("--port", "/dev/ttyUSB0", "--reader", "bag 1")
    assert run.returncode == 2 and "not a valid reader id" in run.stderr


def test_a_failing_mpremote_is_reported_with_what_to_check(bench) -> None:
    """A board that does not answer: exit 1 and the things to check, no success line."""
    run = bench.flash("--port", bench.port, "--reader", "bag-1", exit_code=1)
    assert run.returncode == 1
    assert "exit code 1" in run.stderr and "safe mode" in run.stderr
    assert "restarts" not in run.stdout


def test_a_running_reader_is_stopped_before_mpremote_runs(bench) -> None:
    """Ctrl-C then Ctrl-A reach the board; once the raw REPL answers, Ctrl-B returns it to
    the normal REPL, and only then does mpremote run."""
    run = bench.flash("--port", bench.port, "--reader", "bag-1")
    assert run.returncode == 0, run.stderr
    heard = bytes(bench.repl.heard)
    assert heard.startswith(ASK_FOR_REPL) and heard.endswith(b"\x02")
    assert "no MicroPython REPL answered" not in run.stdout
    assert len(bench.calls()) == 1


def test_a_silent_board_is_still_handed_to_mpremote(tmp_path: Path) -> None:
    """No REPL answers: the command says so and lets mpremote try (and report) itself."""
    rig = Bench(tmp_path, answers=False)
    try:
        run = rig.flash("--port", rig.port, "--reader", "bag-1")
    finally:
        rig.repl.close()
    assert run.returncode == 0, run.stderr
    assert "no MicroPython REPL answered" in run.stdout
    assert bytes(rig.repl.heard).count(ASK_FOR_REPL) > 1, "it should have asked again"
    assert len(rig.calls()) == 1


def test_a_port_that_cannot_be_opened_is_named_and_mpremote_never_runs(bench,
                                                                      tmp_path) -> None:
    """A board that is not plugged in: exit 1, the port and what to check."""
    missing = str(tmp_path / "ttyUSB-gone")
    run = bench.flash("--port", missing, "--reader", "bag-1")
    assert run.returncode == 1
    assert f"cannot open {missing}" in run.stderr and "plugged in" in run.stderr
    assert bench.calls() == []
