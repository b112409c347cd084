"""The hub as a real process: a whole game over HTTP and virtual readers, and SIGKILLs."""

from __future__ import annotations

import random
import socket
import time
from pathlib import Path

import pytest
import requests

from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.tags import random_uid
from companion.readers.broker import free_port
from companion.readers.mqtt_url import MqttUrl, parse_mqtt_url
from companion.readers.virtual import MqttBank, SerialBank, VirtualReader
from tests.engine.positions import score_command
from tests.waiting import wait_for

READERS = ["bag-1", "bag-2", "bag-3", "bag-4"]
PLAYERS = ["Ana", "Bob", "Chloe", "Dev"]
CATALOG = load_catalog()


def start_table(server: ServeProcess, seed: int) -> tuple[RemoteTable, dict[int, str]]:
    rng = random.Random(seed)
    uids = {pawn: random_uid(rng) for pawn in range(60)}
    server.import_tags(uids)
    created = server.create_table({"players": PLAYERS, "readers": READERS, "deal_seed": seed})
    remote = RemoteTable(server.base, created, CATALOG)
    remote.keep_first_awards()
    return remote, uids


@pytest.fixture
def setup(tmp_path: Path):
    bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                      tmp_path / "dev").start()
    server = ServeProcess(tmp_path / "hub.db", serial=[bank.path(r) for r in READERS],
                          readers=READERS).start()
    yield server, bank
    server.stop()
    bank.stop()


@pytest.mark.slow
def test_a_whole_game_over_http_and_readers_scores_like_the_score_command(setup) -> None:
    """Table creation to final scores; the scores equal ``popcorn-companion score``."""
    server, bank = setup
    remote, uids = start_table(server, seed=5)
    players = remote.players(bank, uids, seed=5)
    players.run()
    state = remote.state
    assert state.is_over and remote.full_state() == state.to_dict()
    view = requests.get(f"{server.base}/api/tables/{remote.id}").json()
    assert view["alerts"] == [] and view["view"]["scores"]
    scored = requests.get(f"{server.base}/api/tables/{remote.id}/scores").json()
    assert scored == score_command(state)


@pytest.mark.slow
def test_sigkill_at_twenty_points_loses_and_repeats_nothing(setup) -> None:
    """Kill -9 the hub at 20+ random points; each restart rebuilds the same state, and taps
    resent after a kill are applied once (no alert, the record replays to the same state)."""
    server, bank = setup
    remote, uids = start_table(server, seed=8)
    players = remote.players(bank, uids, seed=8)
    rng = random.Random(8)
    kills, step = 0, 0
    while not remote.state.is_over and step < 3000:
        step += 1
        choice = players._choose()
        if choice is None:
            time.sleep(0.02)
            continue
        how, move = choice
        if how == "tap" and rng.random() < 0.06:  # kill with the tap still in flight
            bank.tap(remote.config.readers[players._bag_of(move)], uids[move.pawn])
            server.kill()
            server.start()
            kills += 1
            assert bank.wait_acked(20)
            assert wait_for(lambda: remote.count > 0)
        elif rng.random() < 0.05:  # kill between two moves
            before = remote.full_state()
            server.kill()
            server.start()
            kills += 1
            assert remote.full_state() == before
            players._do(how, move)
        else:
            players._do(how, move)
    assert kills >= 20, f"only {kills} kills before the game ended"
    assert bank.wait_acked(20)
    view = requests.get(f"{server.base}/api/tables/{remote.id}").json()
    assert view["alerts"] == [], "a resent tap was applied twice (or misread)"
    assert remote.full_state() == remote.state.to_dict()


@pytest.mark.broker
def test_serve_runs_a_broker_for_wifi_readers_that_survives_restarts(tmp_path: Path) -> None:
    """``serve --mqtt`` with no URL: a Mosquitto on the network, on a fixed port, where each
    reader logs in as itself with a password kept beside the database; a reader configured
    from its printed URL keeps working after the hub restarts, and a reader that a new table
    binds gets its own URL printed and can tap at once."""
    port = free_port()
    server = ServeProcess(tmp_path / "hub.db", readers=["bag-1"],
                          extra=["--host", "0.0.0.0", "--mqtt", "--mqtt-port", str(port)])
    server.start()
    try:
        url = reader_url(server, "bag-1")
        assert url.port == port and url.username == "bag-1"
        with socket.create_connection((url.host, port), timeout=5):
            pass  # reachable at the address the readers are told, not only on loopback
        bank = MqttBank([VirtualReader("bag-1", resend_interval=0.3)], url, "demo").start()
        try:
            bank.tap("bag-1", random_uid(random.Random(1)))
            assert bank.wait_acked(20)
            server.stop()
            server.log = open(server.log_path, "ab")  # noqa: SIM115 - closed by stop()
            server.start()
            assert reader_url(server, "bag-1", lines=2) == url
            bank.tap("bag-1", random_uid(random.Random(2)))
            assert bank.wait_acked(20)
        finally:
            bank.stop()
        server.create_table({"players": ["Ana", "Bob"], "readers": ["bag-1", "bag-5"]})
        later = reader_url(server, "bag-5")
        assert later.username == "bag-5" and later.password != url.password
        bank = MqttBank([VirtualReader("bag-5", resend_interval=0.3)], later, "demo").start()
        try:
            bank.tap("bag-5", random_uid(random.Random(3)))
            assert bank.wait_acked(20)
        finally:
            bank.stop()
    finally:
        server.stop()


@pytest.mark.broker
def test_the_broker_dies_with_a_killed_serve(tmp_path: Path) -> None:
    """SIGKILL ``serve --mqtt``: its Mosquitto child goes too, within seconds (the kernel's
    parent-death signal), instead of holding the port for nobody."""
    server = ServeProcess(tmp_path / "hub.db", readers=["bag-1"],
                          extra=["--mqtt", "--mqtt-port", str(free_port())]).start()
    try:
        pid_file = tmp_path / "hub-mqtt" / "mosquitto.pid"
        assert wait_for(pid_file.exists)
        pid = int(pid_file.read_text())
        assert alive(pid)
        server.kill()
        assert wait_for(lambda: not alive(pid), timeout=10), "mosquitto outlived its hub"
    finally:
        server.stop()


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def reader_url(server: ServeProcess, reader: str, lines: int = 1) -> MqttUrl:
    """The URL ``serve`` printed for ``reader``, once it has printed ``lines`` of them."""
    found: list[str] = []
    prefix = f"Wi-Fi reader {reader}: "

    def printed() -> bool:
        server.log.flush()
        text = server.log_path.read_text(encoding="utf-8", errors="replace")
        found[:] = [ln for ln in text.splitlines() if ln.startswith(prefix)]
        return len(found) >= lines
    assert wait_for(printed), server.log_path.read_text(errors="replace")
    return parse_mqtt_url(found[-1].removeprefix(prefix))


def test_sigterm_stops_serve_cleanly(tmp_path: Path) -> None:
    """systemd's stop signal: serve exits 0 and closes its database, so SQLite has folded the
    write-ahead log back into the file (no -wal left with pages in it)."""
    import signal

    db = tmp_path / "hub.db"
    server = ServeProcess(db, readers=["bag-1", "bag-2"]).start()
    server.create_table({"players": ["Ana", "Bo"], "readers": ["bag-1", "bag-2"]})
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=15) == 0
    server.stop()
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_serve_answers_on_gunicorn_not_werkzeug(tmp_path: Path) -> None:
    """The production server answers (its ``Server`` header), not Werkzeug's development
    server, and ``serve``'s web server worker is a child of ``serve`` itself."""
    server = ServeProcess(tmp_path / "hub.db").start()
    try:
        answer = requests.get(f"{server.base}/api/health", timeout=10)
        assert answer.ok
        assert answer.headers["Server"].startswith("gunicorn")
        assert "werkzeug" not in answer.headers["Server"].lower()
        assert len(server.children()) == 1
    finally:
        server.stop()


def test_serve_on_a_port_in_use_says_so(tmp_path: Path) -> None:
    """A port another program holds: exit 2 at once with a clear message, no traceback."""
    import subprocess
    import sys

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "companion", "serve", "--db",
                              str(tmp_path / "hub.db"), "--host", "127.0.0.1", "--port",
                              str(port)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert f"cannot listen on 127.0.0.1 port {port}: it is in use" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "hub.db").exists()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
def test_a_stop_with_a_tablet_connected_is_quick_and_clean(tmp_path: Path, how: str) -> None:
    """An open WebSocket (a tablet on the table's room) does not hold a stop: serve exits 0
    well within the 10 s its callers wait, its worker with it, and the database is closed
    (the write-ahead log folded back into the file)."""
    import signal

    import socketio

    db = tmp_path / "hub.db"
    server = ServeProcess(db, readers=["bag-1", "bag-2"]).start()
    table = server.create_table({"players": ["Ana", "Bo"], "readers": ["bag-1", "bag-2"]})
    got: list[dict] = []
    client = socketio.Client(reconnection=False)
    client.on("state", got.append)
    client.connect(server.base, transports=["websocket"])
    try:
        client.emit("join", {"table": table["id"]})
        assert wait_for(lambda: bool(got))
        assert server.proc is not None
        worker = server.children()
        server.proc.send_signal(getattr(signal, how))
        assert server.proc.wait(timeout=9) == 0
        assert not any(alive(pid) for pid in worker)
    finally:
        client.disconnect()
        server.stop()
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_a_port_taken_before_serve_binds_it_is_traded_for_another(tmp_path: Path) -> None:
    """The port a ``ServeProcess`` found free is taken by another program before ``serve``
    starts (an outgoing connection may draw it from the same range): ``serve`` says so and
    exits, and the process starts again on another port, which its ``base`` then names."""
    server = ServeProcess(tmp_path / "hub.db")
    taken = server.port
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        holder.bind(("127.0.0.1", taken))
        holder.listen()
        server.start()
        try:
            assert server.port != taken and server.base.endswith(f":{server.port}")
            assert requests.get(server.base + "/api/health", timeout=5).ok
            said = server.log_path.read_text(errors="replace")
            assert f"port {taken}: it is in use" in said
        finally:
            server.stop()
    finally:
        holder.close()
