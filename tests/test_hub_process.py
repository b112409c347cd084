"""The hub as a real process: a whole game over HTTP and virtual readers, and SIGKILLs."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
from readers_support import wait_for

from companion.cards import load_catalog
from companion.engine.moves import Move
from companion.engine.setup import new_game
from companion.engine.summary import final_positions
from companion.hub.demo import ScriptedPlayers
from companion.readers.broker import free_port
from companion.readers.virtual import SerialBank, VirtualReader, random_uid
from companion.record import loads_record
from companion.table.table import TableError

READERS = ["bag-1", "bag-2", "bag-3", "bag-4"]
PLAYERS = ["Ana", "Bob", "Chloe", "Dev"]
ADMIN = "135790"
CATALOG = load_catalog()


class Server:
    """``popcorn-companion serve`` on loopback, restartable on the same database."""

    def __init__(self, tmp: Path, ports: list[str]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.args = [sys.executable, "-m", "companion", "serve", "--db", str(tmp / "hub.db"),
                     "--host", "127.0.0.1", "--port", str(self.port), "--admin-pin", ADMIN,
                     "--serial", *ports, *[a for r in READERS for a in ("--reader", r)]]
        self.log = open(tmp / "serve.log", "ab")  # noqa: SIM115 - closed in stop()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=self.log, stderr=self.log)
        assert wait_for(self._up, timeout=30), (self.base, self.proc.poll())

    def _up(self) -> bool:
        try:
            return requests.get(self.base + "/api/health", timeout=1).ok
        except requests.RequestException:
            return False

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


class Remote:
    """What ScriptedPlayers needs of a table, served over HTTP, with a local engine mirror."""

    def __init__(self, server: Server, info: dict) -> None:
        self.server, self.info = server, info
        self.id = info["id"]
        self.config = type("Config", (), {"readers": info["readers"]})()
        self.mirror = new_game(CATALOG, info["players"], info["first_player"])
        self.applied = 0
        self.lock = threading.RLock()

    def get(self, path: str, **kwargs):
        return requests.get(f"{self.server.base}/api/tables/{self.id}{path}",
                            headers={"X-Table-Pin": self.info["pin"]}, timeout=10, **kwargs)

    @property
    def state(self):
        moves = loads_record(self.get("/record").text).moves
        for move in moves[self.applied:]:
            self.mirror.apply(move)
        self.applied = len(moves)
        return self.mirror

    @property
    def count(self) -> int:
        return self.get("/state").json()["events"]

    def full_state(self) -> dict:
        return self.get("/state").json()["state"]

    def decide(self, move: Move) -> None:
        headers = {}
        if move.kind in ("keep_award", "draw_award"):  # a player's phone makes these
            headers["X-Player-Token"] = self.info["tokens"][move.player]
        response = requests.post(f"{self.server.base}/api/tables/{self.id}/moves",
                                 json={"move": move.to_dict()}, headers=headers, timeout=10)
        if response.status_code != 200:
            raise TableError(response.json()["code"], response.json()["message"])


def start_table(server: Server, bank: SerialBank, seed: int) -> tuple[Remote, dict[int, str]]:
    rng = random.Random(seed)
    uids = {pawn: random_uid(rng) for pawn in range(60)}
    registry = {"format": "popcorn-tags", "version": 1,
                "tags": [{"uid": u, "pawn": p} for p, u in uids.items()]}
    assert requests.put(server.base + "/api/tags", json={"registry": registry,
                                                         "admin_pin": ADMIN}).ok
    created = requests.post(server.base + "/api/tables", json={
        "players": PLAYERS, "readers": READERS, "deal_seed": seed}).json()
    remote = Remote(server, created)
    for seat, token in enumerate(created["tokens"]):
        private = requests.get(f"{server.base}/api/tables/{created['id']}/players/{seat}/"
                               "private", headers={"X-Player-Token": token}).json()
        for move in private["legal"][:1]:
            assert requests.post(f"{server.base}/api/tables/{created['id']}/moves",
                                 json={"move": move}, headers={"X-Player-Token": token}).ok
    return remote, uids


def players_for(remote: Remote, bank: SerialBank, uids: dict[int, str], seed: int):
    hub = type("HubLike", (), {"lock": remote.lock})()
    return ScriptedPlayers(hub, remote, bank, uids, delay=0, seed=seed,  # type: ignore[arg-type]
                           decide=remote.decide)


@pytest.fixture
def setup(tmp_path: Path):
    bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in READERS],
                      tmp_path / "dev").start()
    server = Server(tmp_path, [bank.path(r) for r in READERS])
    server.start()
    yield server, bank
    server.stop()
    bank.stop()


def test_a_whole_game_over_http_and_readers_scores_like_the_score_command(setup) -> None:
    """Table creation to final scores; the scores equal ``popcorn-companion score``."""
    server, bank = setup
    remote, uids = start_table(server, bank, seed=5)
    players = players_for(remote, bank, uids, seed=5)
    players.run()
    state = remote.state
    assert state.is_over and remote.full_state() == state.to_dict()
    view = requests.get(f"{server.base}/api/tables/{remote.id}").json()
    assert view["alerts"] == [] and view["view"]["scores"]
    sheet = {"players": [{
        "name": f.name, "bucket": f.bucket, "money": f.money, "theaters": list(f.theaters),
        "movies": list(f.movies), "guests": f.guests, "audience": f.audience,
        "ad_tokens": list(f.ad_tokens), "awards": list(f.awards)} for f in final_positions(state)]}
    run = subprocess.run([sys.executable, "-m", "companion", "score", "-"],
                         input=json.dumps(sheet), capture_output=True, text=True, check=True)
    scored = requests.get(f"{server.base}/api/tables/{remote.id}/scores").json()
    assert scored == json.loads(run.stdout)


def test_sigkill_at_twenty_points_loses_and_repeats_nothing(setup) -> None:
    """Kill -9 the hub at 20+ random points; each restart rebuilds the same state, and taps
    resent after a kill are applied once (no alert, the record replays to the same state)."""
    server, bank = setup
    remote, uids = start_table(server, bank, seed=8)
    players = players_for(remote, bank, uids, seed=8)
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
