"""A pawn is what its color says: the hub learns which pawn is where from the taps.

Players fill their bags, exit zones and the reserve with whichever pawns of each color come
to hand, so a pawn drawn from a bag is rarely the one the hub placed there. These tests play
as such a table does, on a real hub with virtual readers on pseudo-terminals and a real
SQLite log: a draw of any pawn of the right color is a draw (a logged relabel, no alert);
undo, a restart and the exported record all agree with it; and a pawn whose place the hub
learned from a tap of its own keeps its identity, so a real mistake is still an alert.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.games.popcorn.demo import ScriptedPlayers
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from companion.hub.hub import Hub
from tests.hub.rig import Rig, alert_case, in_zone
from tests.waiting import wait_for


def tap_ok(rig: Rig, reader: str, pawn: int) -> None:
    """Tap a pawn and wait for the reader's ok."""
    seq = rig.tap(reader, rig.uids[pawn])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == "ok", rig.hub.tables and list(
        next(iter(rig.hub.tables.values())).alerts)


def foreign_look_alike(state, player: int) -> int:
    """A pawn the hub has in another player's bag whose color ``player``'s bag holds too."""
    colors = {state.pawn_color[q] for q in in_zone(state, P.bag(player))}
    other = P.bag((player + 1) % state.n)
    return next(q for q in in_zone(state, other) if state.pawn_color[q] in colors)


def colored(state) -> dict:
    """The position with every pawn id replaced by its color: two games equal up to which
    pawn of a color is which compare equal."""
    data = state.to_dict()
    color = state.pawn_color

    def paint(pawns: list) -> list:
        return sorted(color[q] for q in pawns)

    data["box"], data["reserve"] = paint(data["box"]), paint(data["reserve"])
    for player in data["players"]:
        for zone in ("bag", "exit", "hand"):
            player[zone] = paint(player[zone])
        player["seats"] = [[None if q is None else color[q] for q in row]
                           for row in player["seats"]]
    for show in data["showings"]:
        if show.get("left") and show["left"][2] is not None:
            show["left"][2] = color[show["left"][2]]
    for task in data["tasks"]:
        if task.get("pawn") is not None:
            task["pawn"] = color[task["pawn"]]
    return data


def tag_bodies(rig: Rig, table_id: str) -> list[dict]:
    """The bodies of the table's logged taps."""
    return [body for _, kind, body in rig.hub.store.events(table_id) if kind == "tag"]


def test_a_relabelled_draw_is_logged_and_undone(rig: Rig) -> None:
    """The relabel travels with its draw: the log holds it, and Undo takes both back, so
    the hub's picture is again the one before the tap."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    before = table.state.to_dict()
    pawn = foreign_look_alike(table.state, 0)
    tap_ok(rig, "bag-1", pawn)
    body = tag_bodies(rig, info["id"])[-1]
    assert body["move"] == {"move": "draw_pawn", "player": 0, "pawn": pawn}
    assert body["seen"] == pawn and body["relabel"][0][0] == pawn
    assert table.state.known.certain(pawn) == P.hand(0)
    undone = rig.client.post(f"/api/tables/{info['id']}/undo",
                             headers={"X-Table-Pin": info["pin"]})
    assert undone.status_code == 200, undone.json
    assert table.state.to_dict() == before
    assert table.state.known.certain(pawn) is None  # known by its color again
    tap_ok(rig, "bag-1", pawn)  # and the same tap is a draw again
    assert table.state.loc[pawn] == P.hand(0)


def test_a_relabel_survives_a_restart(rig: Rig, tmp_path: Path) -> None:
    """A hub restarted on the same database rebuilds the relabelled picture from the log,
    and still knows which pawns were tapped."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    pawn = foreign_look_alike(table.state, 0)
    tap_ok(rig, "bag-1", pawn)
    picture, known = table.state.to_dict(), table.state.known
    rig.close()
    hub = Hub(tmp_path / "hub.sqlite", readers=["bag-1", "bag-2"])
    try:
        again = hub.tables[info["id"]]
        assert again.state.to_dict() == picture
        assert again.state.known == known
    finally:
        hub.stop()


def test_the_record_of_a_relabelled_game_replays_to_the_same_game(rig: Rig) -> None:
    """A record has no relabel: the export renames the pawns so that its own replay holds
    the hub's game, pawn for pawn of each color."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    for _ in range(2):
        tap_ok(rig, "bag-1", foreign_look_alike(table.state, 0))
    assert sum("relabel" in b for b in tag_bodies(rig, info["id"])) == 2
    text = rig.client.get(f"/api/tables/{info['id']}/record",
                          headers={"X-Table-Pin": info["pin"]}).get_data(as_text=True)
    replayed = replay(load_catalog(), loads_record(text))
    assert colored(replayed) == colored(table.state)
    assert replayed.to_dict() != table.state.to_dict()  # the pawns were renamed


def test_an_addition_of_any_pawn_of_the_color_is_taken(rig: Rig) -> None:
    """A Premiers guest may be any reserve pawn of its color, even one the hub had put in
    the box or another player's zone: the tap adds it, relabelled."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    table.state.players[0].money = 20
    premier = table.state.premiers[0]
    assert rig.move(info, {"move": "buy_movie", "player": 0, "card": premier,
                           "slot": 1}).status_code == 200
    gain = next(m for m in table.state.legal_moves() if m.kind == "gain_pawn")
    color = table.state.pawn_color[gain.pawn]
    elsewhere = next(q for q in in_zone(table.state, P.exit_zone(1))
                     if table.state.pawn_color[q] == color)
    tap_ok(rig, "bag-1", elsewhere)
    assert table.state.loc[elsewhere] == P.bag(0)
    assert table.state.loc[gain.pawn] == P.exit_zone(1)
    assert not table.alerts


def test_a_whole_game_of_any_pawns_has_no_alert_and_replays(rig: Rig, tmp_path: Path) -> None:
    """A 4-player game where every draw (and every guest put into a bag) taps a random
    pawn of the right color, as a table that filled its bags by the handful does: it plays
    to its end with 0 alerts, and its final scores are those ``popcorn-companion replay``
    gives for the exported record."""
    info = rig.table(players=("Ana", "Bob", "Chloe", "Dev"), seed=11)
    table = rig.hub.tables[info["id"]]
    players = ScriptedPlayers(rig.hub, table, rig.bank, rig.uids, delay=0, seed=5,
                              any_pawn=True).start()
    try:
        assert wait_for(lambda: table.state.is_over or bool(table.alerts), 600)
    finally:
        players.stop.set()
        assert players.thread is not None
        players.thread.join(10)
    taps = tag_bodies(rig, info["id"])
    alerts = [b["alert"] for b in taps if "alert" in b]
    assert alerts == [], alerts
    assert table.state.is_over
    relabels = sum("relabel" in b for b in taps)
    assert relabels > 10, relabels  # the game really drew pawns the hub had elsewhere
    record = tmp_path / "game.jsonl"
    record.write_text(rig.client.get(f"/api/tables/{info['id']}/record",
                                     headers={"X-Table-Pin": info["pin"]}).get_data(as_text=True))
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(record)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    scores = rig.client.get(f"/api/tables/{info['id']}/scores").json
    replayed = json.loads(done.stdout)["scores"]
    assert [p["total"] for p in replayed["players"]] == [p["total"] for p in scores["players"]]
    assert replayed == scores


def test_bags_filled_by_tapping_at_setup_are_known_exactly(rig: Rig) -> None:
    """The optional fill step: at setup, a pawn tapped on a bag's reader as it goes in is
    learned to be in that bag (a logged ``fill``, relabelled if the hub had another pawn of
    its color there; no move, no alert). From then on it keeps its identity: drawn from
    another bag later, it is an alert."""
    created = rig.client.post("/api/tables", json={"players": ["Ana", "Bob"],
                                                   "readers": ["bag-1", "bag-2"],
                                                   "deal_seed": 3})
    info = created.json
    table = rig.hub.tables[info["id"]]
    assert table.state.phase == "setup"
    own = in_zone(table.state, P.bag(0))[0]
    foreign = foreign_look_alike(table.state, 0)
    tap_ok(rig, "bag-1", own)
    tap_ok(rig, "bag-1", foreign)
    bodies = tag_bodies(rig, info["id"])
    assert [b["fill"] for b in bodies] == [own, foreign]
    assert "relabel" not in bodies[0] and bodies[1]["relabel"][0][0] == foreign
    assert table.state.loc[foreign] == P.bag(0) and not table.alerts
    assert table.state.known.certain(own) == table.state.known.certain(foreign) == P.bag(0)
    for seat, token in enumerate(info["tokens"]):  # the awards kept: the game starts
        legal = rig.client.get(f"/api/tables/{info['id']}/players/{seat}/private",
                               headers={"X-Player-Token": token}).json["legal"]
        assert rig.move(info, legal[0], token=token).status_code == 200
    rig.end_buying(info)
    alert_case(rig, info, "bag-2", rig.uids[foreign], "PAWN_OF_ANOTHER_PLAYER")


def audit_after_a_lost_draw(rig: Rig) -> tuple[dict, int, list[int], str]:
    """Ana's bag and Bob's each hold a guest of one color (the hub cannot tell which is
    which): Ana really drew a look-alike the hub had in Bob's bag, and the tap never reached
    the hub; Bob's bag really holds ``guess``, the pawn of that color the hub has in Ana's
    bag. Ana audits her bag, tapping what it really holds (everything the hub has there but
    ``guess``), and ends the tapping. The table, ``guess``, the taps and the color."""
    info = rig.table()
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    state = table.state
    color = next(c for c in ("white", "blue", "green", "red", "yellow")
                 if any(state.pawn_color[q] == c for q in in_zone(state, P.bag(0)))
                 and any(state.pawn_color[q] == c for q in in_zone(state, P.bag(1))))
    guess = next(q for q in in_zone(state, P.bag(0)) if state.pawn_color[q] == color)
    pin = {"X-Table-Pin": info["pin"]}
    started = rig.client.post(f"/api/tables/{info['id']}/audits", json={"player": 0},
                              headers=pin)
    assert started.status_code == 201, started.json
    taps = [q for q in in_zone(state, P.bag(0)) if q != guess]
    for pawn in taps:
        tap_ok(rig, "bag-1", pawn)
    assert wait_for(lambda: len(table.audit.taps) == len(taps))
    done = rig.client.post(f"/api/tables/{info['id']}/audits/current/done", headers=pin)
    assert done.status_code == 200, done.json
    report = done.json["report"]
    assert [f["code"] for f in report["findings"]] == ["AUDIT_NOT_TAPPED_DRAWN"]
    assert report["findings"][0]["params"]["color"] == color
    return info, guess, taps, color


def test_an_accepted_audit_plants_no_guess(rig: Rig, tmp_path: Path) -> None:
    """Accepted, the audit's guest not tapped counts as drawn, by its color: the hub does
    not guess which pawn it was, and knows the guests the audit saw. A restart in the middle
    of that uncertainty knows the same; an Undo takes the audit's fixes back, and what the
    hub knew before them."""
    info, guess, taps, color = audit_after_a_lost_draw(rig)
    table = rig.hub.tables[info["id"]]
    before = table.state.to_dict(), table.state.known
    accepted = rig.client.post(f"/api/tables/{info['id']}/audits/current/accept",
                               headers={"X-Table-Pin": info["pin"]})
    assert accepted.status_code == 200 and accepted.json["applied"] == 1
    known = table.state.known
    drawn = [q for q in table.state.pawns_at(P.hand(0)) if table.state.pawn_color[q] == color]
    assert drawn and all(known.certain(q) is None for q in drawn)  # a guest of its color
    assert all(known.certain(q) == P.bag(0) for q in taps)  # the audit saw them there
    assert known.may_be(guess, P.bag(1))
    picture = table.state.to_dict()
    rig.close()
    hub = Hub(tmp_path / "hub.sqlite", readers=["bag-1", "bag-2", "bag-3", "bag-4"])
    try:
        again = hub.tables[info["id"]]
        assert again.state.to_dict() == picture and again.state.known == known
        again.undo()
        assert (again.state.to_dict(), again.state.known) == before
    finally:
        hub.stop()


def test_the_guess_an_audit_did_not_plant_is_drawn_without_an_alert(rig: Rig) -> None:
    """The same audit, accepted; then Bob draws the pawn an audit that guessed would have
    drawn for Ana (his bag really holds it): a draw, with no alert."""
    info, guess, _, _ = audit_after_a_lost_draw(rig)
    table = rig.hub.tables[info["id"]]
    assert rig.client.post(f"/api/tables/{info['id']}/audits/current/accept",
                           headers={"X-Table-Pin": info["pin"]}).status_code == 200
    tap_ok(rig, "bag-2", guess)  # Bob draws it from his own bag
    assert table.state.known.certain(guess) == P.hand(1)
    assert not table.alerts
