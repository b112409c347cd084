"""Make a hub database with an *older version* of the hub, for ``tests/hub/test_old_hubs.py``.

Run from the repository root with the project's virtual environment::

    .venv/bin/python tests/hub/old_hubs/make_fixtures.py REV tests/hub/old_hubs/NAME.sqlite

The script exports commit ``REV`` (``git archive``) into a temporary folder and runs itself
again in a child Python whose ``PYTHONPATH`` is that folder, so the hub that writes the file
is the old one (the child checks that ``companion.__file__`` lies inside the export). The
child drives that version's own Python API, as its ``serve`` and ``demo`` do:

* the box's tags are enrolled with the version's own ``enroll_box`` (pawns, and cards from
  the card-tag era on) and, where B Movies exists, its ``enroll_tokens``;
* a two-player Popcorn table with "deal for us" is played to its end by the version's own
  scripted demo players (``ScriptedPlayers``, seeded), then a three-player table takes its
  first reader, which closes the finished one (a ``close`` event);
* the three-player table is played into round 2 and left mid-game, with a seating-hints
  change, an unknown tag's alert, a reissued phone token, an undo, a pawn correction and a
  one-move batch in its log; with card tags its cards are tapped, not dealt;
* where B Movies exists, a four-player Hidden Team table (the hub deals the studios) is
  played by the version's own ``BMoviesPlayers`` into its second round, with a token tapped
  when none was owed (an alert).

Every tap goes through the version's reader ingest (``Ingest.process``: parse, dedup store,
tag interpretation), synchronously, so a run is quick and seeded. At the end the child asks
the old hub's own Flask app (its test client) what a tablet and the phones would see, and
writes the expected facts as ``NAME.json`` beside the database: each table's ``GET
/api/tables/<id>`` answer (the public view without its long ``chance`` list), the scores
of a finished game, each seat's private view, the registry's export, the tables' PINs and
tokens (so a test can act as the tablet and the phones) and the file's schema versions.
The database is checkpointed and VACUUMed to keep it small.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ADMIN = "246810"
"""The admin PIN the child's app is made with (the tests use the same)."""
UNKNOWN_UID = "04A1B2C3D4E5F6"
"""A tag no registry knows: its tap is an ``UNKNOWN_TAG`` alert."""
MAX_STEPS = 20000
"""A scripted game that has not ended after this many steps is a bug in this script."""


# -- the parent: export the commit, run the child ----------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Export ``rev`` and make ``out`` (and its ``.json``) with that version's hub."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the commit whose hub writes the database")
    parser.add_argument("out", type=Path, help="the .sqlite file to write (replaced)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scripted players")
    parser.add_argument("--inside", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:
        return make(args.inside, args.rev, args.out.resolve(), args.seed)
    repo = Path(__file__).resolve().parents[3]
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{args.rev}^{{commit}}"],
                            cwd=repo, check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="old-hub-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", commit], cwd=repo, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        return subprocess.run([sys.executable, str(Path(__file__).resolve()), commit,
                               str(args.out.resolve()), "--seed", str(args.seed),
                               "--inside", str(tree)], env=env, cwd=tmp).returncode


# -- the child: the old hub writes the file ----------------------------------------------------


class SyncBank:
    """Virtual bag readers that hand each tap straight to the hub's ingest, synchronously.

    A tap is the JSON line a reader sends (``protocol.tag``), processed by
    ``Ingest.process`` as the worker thread would: checked, ordered, stored in the dedup
    table and handed to the hub, all before :meth:`tap` returns.
    """

    name = "serial"

    def __init__(self, hub: Any) -> None:
        from companion.readers import ingest, protocol
        self.hub, self.ingest, self.protocol = hub, ingest, protocol
        self.seqs: dict[str, int] = {}

    def send(self, source: str, message: dict[str, Any]) -> None:
        """Acks and feedback to the reader: nobody listens."""

    def tap(self, reader: str, uid: str) -> int:
        """One tap of ``uid`` on ``reader``; raises if the hub did not accept it."""
        seq = self.seqs[reader] = self.seqs.get(reader, 0) + 1
        data = self.protocol.encode(self.protocol.tag(reader, 1, seq, uid))
        before = self.hub.ingest.accepted
        raw = self.ingest._Raw(self, f"/dev/virtual-{reader}", data, None, time.monotonic())
        self.hub.ingest.process([raw])
        if self.hub.ingest.accepted != before + 1:
            raise RuntimeError(f"tap {reader} #{seq} was not accepted")
        return seq


def make(tree: Path, commit: str, out: Path, seed: int) -> int:
    """Write ``out`` and its expected facts with the hub of ``tree`` (the child's job)."""
    import companion
    if not Path(companion.__file__).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the wrong companion was imported: {companion.__file__}")
    for path in (out, out.with_suffix(".json"), Path(f"{out}-wal"), Path(f"{out}-shm")):
        path.unlink(missing_ok=True)
    from companion.hub.app import create_app
    hub = _hub(out)
    bank = SyncBank(hub)
    made: list[dict[str, Any]] = []
    try:
        uids, cards, tokens = _enroll(hub, seed)
        made.append(_finished_game(hub, bank, uids, seed))
        made.append(_mid_game(hub, bank, uids, cards, seed))
        if "b-movies" in getattr(hub, "games", {}):
            made.append(_bmovies(hub, bank, tokens, seed))
        app, _ = create_app(hub, ADMIN)
        facts = _facts(app.test_client(), made, commit)
    finally:
        hub.stop()
    _compact(out)
    facts["hub_schema"], facts["schema"] = _schemas(out)
    out.with_suffix(".json").write_text(
        json.dumps(facts, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{out.name}: {out.stat().st_size} bytes, "
          f"{len(made)} tables, made by {commit[:7]} ({companion.__file__})")
    return 0


def _hub(path: Path) -> Any:
    from companion.hub.hub import Hub
    params = inspect.signature(Hub).parameters
    if "catalog" in params:  # every version before games were plug-ins
        from companion.cards import load_catalog
        return Hub(path, load_catalog())
    return Hub(path)


def _enroll(hub: Any, seed: int) -> tuple[dict[int, str], dict[Any, str], dict[int, str]]:
    """The box enrolled as the version's demo does: pawns, cards, tokens (what it has)."""
    demo = _module("companion.hub.demo", "companion.games.popcorn.demo")
    uids = demo.enroll_box(hub, seed)
    cards = demo.card_uids(hub.registry.book, seed) if hasattr(demo, "card_uids") else {}
    tokens: dict[int, str] = {}
    if "b-movies" in getattr(hub, "games", {}):
        bm_demo = _module("companion.hub.bm_demo", "companion.games.bmovies.demo")
        tokens = bm_demo.enroll_tokens(hub, seed)
    return uids, cards, tokens


def _module(old: str, new: str) -> Any:
    """The version's module ``old``, or ``new`` where the games are plug-ins (companion/games/,
    from cddcafc on): the same code in its new place."""
    import importlib
    try:
        return importlib.import_module(old)
    except ModuleNotFoundError:
        return importlib.import_module(new)


def _players(hub: Any, table: Any, bank: SyncBank, uids: dict[int, str],
             cards: dict[Any, str], seed: int) -> Any:
    """The version's scripted Popcorn players, deciding as the tablet does."""
    ScriptedPlayers = _module("companion.hub.demo", "companion.games.popcorn.demo").ScriptedPlayers
    options: dict[str, Any] = {"delay": 0, "seed": seed,
                               "decide": lambda move: hub.submit(table.id, move)}
    if cards:
        options["cards"] = cards
    return ScriptedPlayers(hub, table, bank, uids, **options)


def _play(players: Any, done: Any, between: Any = None) -> int:
    """Let the scripted players act until ``done(state)``; ``between(steps)`` may add
    inputs of its own. Returns the steps taken."""
    steps = 0
    while not done(players.table.state):
        if players.table.state.is_over or steps > MAX_STEPS:
            raise RuntimeError(f"the scripted game went wrong after {steps} steps")
        step = players._choose()
        steps += 1
        if step is not None:
            players._do(*step)
        if between:
            between(steps)
    return steps


def _create(hub: Any, players: list[str], readers: list[str], name: str,
            deal_seed: int | None, **game: Any) -> tuple[Any, str, list[str]]:
    return hub.create_table(players, readers, 0, name, deal_seed, **game)


def _finished_game(hub: Any, bank: SyncBank, uids: dict[int, str], seed: int) -> dict[str, Any]:
    """Two players with "deal for us", played to the end."""
    table, pin, tokens = _create(hub, ["Ana", "Bob"], ["bag-1", "bag-2"], "Finished", 7)
    _play(_players(hub, table, bank, uids, {}, seed), lambda state: state.is_over)
    return {"id": table.id, "pin": pin, "tokens": tokens}


def _mid_game(hub: Any, bank: SyncBank, uids: dict[int, str], cards: dict[Any, str],
              seed: int) -> dict[str, Any]:
    """Three players in round 2 (taking the finished table's first reader closes it), with
    every kind of table event in the log. Cards are tapped where the version reads them."""
    table, pin, tokens = _create(hub, ["Chloe", "Dev", "Eve"], ["bag-1", "bag-3", "bag-4"],
                                 "Mid-game", None if cards else 11)
    players = _players(hub, table, bank, uids, cards, seed + 1)
    done: set[str] = set()

    def extras(steps: int) -> None:
        if steps == 5:
            hub.set_hints(table.id, False)
            bank.tap("bag-3", UNKNOWN_UID)
        elif steps == 15:
            tokens[1] = hub.reissue_token(table.id, 1)
        elif steps == 25:
            hub.undo(table.id)
        elif "correct" not in done and steps > 25 and _correct(hub, table):
            done.add("correct")
        elif "batch" not in done and steps > 40 and _batch(hub, table):
            done.add("batch")
        if table.state.round >= 2 and done >= {"correct", "batch"}:
            done.add(f"round 2: {steps}")

    def into_round_2(state: Any) -> bool:
        return sum(item.startswith("round 2") for item in done) > 12
    _play(players, into_round_2, extras)
    return {"id": table.id, "pin": pin, "tokens": tokens}


def _correct(hub: Any, table: Any) -> bool:
    """Correct a pawn of the first player's bag into their exit zone (table authority)."""
    P = _module("companion.engine.pawns", "companion.games.popcorn.engine.pawns")
    state = table.state
    if state.round < 1 or state.phase != "buying":
        return False
    in_bag = [pawn for pawn, loc in enumerate(state.loc) if loc == P.bag(0)]
    if len(in_bag) < 3:
        return False
    if len(inspect.signature(hub.correct).parameters) == 2:  # a game's body (plug-in games)
        hub.correct(table.id, {"pawn": in_bag[-1], "zone": "exit", "player": 0})
    else:
        hub.correct(table.id, in_bag[-1], "exit", 0)
    return True


def _batch(hub: Any, table: Any) -> bool:
    """One tablet move sent as a batch (logged with its ``batch`` mark)."""
    state = table.state
    moves = [m for m in state.legal_moves() if m.kind == "end_turn"]
    if not moves:
        return False
    hub.submit_batch(table.id, moves[:1])
    return True


def _bmovies(hub: Any, bank: SyncBank, tokens: dict[int, str], seed: int) -> dict[str, Any]:
    """Four players of Hidden Team (studios dealt by the hub), into round 2."""
    BMoviesPlayers = _module("companion.hub.bm_demo", "companion.games.bmovies.demo").BMoviesPlayers
    table, pin, phone = _create(hub, ["Ana", "Bob", "Chloe", "Dev"],
                                ["pad-1", "pad-2", "pad-3", "pad-4"], "B Movies", None,
                                game="b-movies", options={"variant": "hidden"})
    players = BMoviesPlayers.in_process(hub, table, bank, tokens, delay=0, seed=seed)
    steps, alerted = 0, False
    while not (table.state.round >= 2 and table.state.phase == "vote" and alerted):
        if table.state.is_over or steps > MAX_STEPS:
            raise RuntimeError(f"the scripted B Movies game went wrong after {steps} steps")
        if table.state.round >= 2 and table.state.phase == "vote" and not alerted:
            bank.tap("pad-1", tokens[players.in_bucket[0]])  # no token is owed now
            alerted = True
            continue
        players.step()
        steps += 1
    # one vote cast in round 2, so the table waits on the others' secrets
    players.step()
    return {"id": table.id, "pin": pin, "tokens": phone}


def _facts(client: Any, made: list[dict[str, Any]], commit: str) -> dict[str, Any]:
    """What the old hub's own app answers, for the test to compare with today's."""
    admin = {"X-Admin-Pin": ADMIN}
    tables = []
    for secrets_ in made:
        tid = secrets_["id"]
        answer = _ok(client.get(f"/api/tables/{tid}"))
        answer["view"].pop("chance", None)  # long, and the same as legal for the checks
        entry = {**secrets_, "table": answer, "private": []}
        if answer["over"]:
            entry["scores"] = _ok(client.get(f"/api/tables/{tid}/scores"))
        for seat, token in enumerate(secrets_["tokens"]):
            entry["private"].append(_ok(client.get(
                f"/api/tables/{tid}/players/{seat}/private",
                headers={"X-Player-Token": token})))
        tables.append(entry)
    facts = {"commit": commit, "list": _ok(client.get("/api/tables")), "tables": tables,
             "registry": _ok(client.get("/api/tags", headers=admin)), "admin_pin": ADMIN,
             "made_by": "tests/hub/old_hubs/make_fixtures.py"}
    archive = client.get("/api/archive")
    if archive.status_code == 200:  # a hub with an archive (hub schema 3 on)
        facts["archive"] = archive.json
    return facts


def _ok(answer: Any) -> Any:
    if answer.status_code != 200:
        raise RuntimeError(f"{answer.request.path}: {answer.status_code} {answer.json}")
    return answer.json


def _compact(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("VACUUM")
    db.close()


def _schemas(path: Path) -> tuple[str, str]:
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT key, value FROM meta"))
    db.close()
    return meta["hub_schema"], meta["schema"]


if __name__ == "__main__":
    sys.exit(main())
