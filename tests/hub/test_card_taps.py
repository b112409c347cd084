"""Card tags tapped during a game, over real pty serial virtual readers: starting movies,
reveals and award draws reported by tag, movies bought by tag (one slot: applied; several:
a choice on the table), and every wrong card an alert that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.popcorn.demo import box_book, card_uids
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.record import loads_record, replay
from tests.hub.rig import Rig
from tests.table.alerts import assert_localized
from tests.waiting import wait_for


@pytest.fixture
def rig(tmp_path: Path):
    """A hub with four virtual readers, every pawn and card of the box enrolled."""
    r = Rig(tmp_path)
    r.cards = card_uids(box_book(), 1)
    yield r
    r.close()


def card_tap(rig: Rig, reader: str, kind: str, card: str) -> str:
    """Tap a card's tag; wait for the reader's feedback and return it."""
    seq = rig.tap(reader, rig.cards[(kind, card)])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.hub.settled()
    return rig.feedback(reader, seq)


def refused(rig: Rig, info: dict, reader: str, kind: str, card: str, code: str) -> dict:
    """A wrong card: error feedback, an alert of ``code``, the same state and moves."""
    table = rig.hub.tables[info["id"]]
    before, entries = table.state.to_dict(), list(table.entries)
    assert card_tap(rig, reader, kind, card) == "error"
    alert = table.alerts[-1]
    assert alert["code"] == code, alert
    assert alert["message"] and alert["fix"] and "pawn" not in alert["message"].lower()
    if kind != "award":
        title = load_catalog().movies[card].title if kind == "movie" else None
        assert title is None or title in alert["message"]
    assert table.state.to_dict() == before and table.entries == entries
    assert alert["params"]["player"] == alert["player"] and alert["params"]["kind"] == kind
    assert_localized(code, alert["params"])
    return alert


def replays(rig: Rig, info: dict) -> None:
    text = rig.client.get(f"/api/tables/{info['id']}/record",
                          headers={"X-Table-Pin": info["pin"]}).get_data(as_text=True)
    assert replay(load_catalog(), loads_record(text)).to_dict() == rig.state(info).to_dict()


def test_setup_by_card_tags_and_an_award_seen_only_on_the_phone(rig: Rig) -> None:
    """Starting movies dealt, movies and theaters revealed, and an award drawn, by tag."""
    created = rig.client.post("/api/tables", json={"players": ["Ana", "Bob"],
                                                   "readers": ["bag-1", "bag-2"]})
    info = created.json
    table = rig.hub.tables[info["id"]]
    screen = rig.socketio.test_client(rig.app)
    screen.emit("join", {"table": info["id"]})
    first, second = sorted(table.state.starting_pool)[:2]
    assert card_tap(rig, "bag-1", "movie", first) == "ok"
    assert table.state.players[0].movies[0] == first
    undo = rig.client.post(f"/api/tables/{info['id']}/undo", json={"pin": info["pin"]})
    assert undo.status_code == 200, undo.json  # a tag's move is undone like the tablet's
    assert table.state.players[0].movies[0] is None and first in table.state.starting_pool
    assert card_tap(rig, "bag-1", "movie", first) == "ok"
    assert card_tap(rig, "bag-1", "movie", second) == "ok"  # the only player left: Bob
    assert table.state.players[1].movies[0] == second
    while (chance := table.state.chance_outcomes())[0].kind != "draw_award":
        move = chance[-1]
        kind = "movie" if move.kind == "reveal_movie" else "theater"
        assert card_tap(rig, "bag-2", kind, move.card) == "ok"
        shown = table.state.features + table.state.premiers + [
            c for column in table.state.columns.values() for c in column]
        assert move.card in shown
    award = table.state.award_pool[3]
    refused(rig, info, "bag-2", "award", award, "CARD_NOT_EXPECTED")  # Ana's draw
    assert card_tap(rig, "bag-1", "award", award) == "ok"
    private = rig.client.get(f"/api/tables/{info['id']}/players/0/private",
                             headers={"X-Player-Token": info["tokens"][0]}).json
    assert [a["id"] for a in private["choose_from"]] == [award]
    refused(rig, info, "bag-1", "award", award, "CARD_NOT_IN_DECK")
    public = rig.client.get(f"/api/tables/{info['id']}").get_data(as_text=True)
    pushed = json.dumps(screen.get_received())
    title = load_catalog().awards[award].title
    for text in (public, pushed):
        assert award not in text and title not in text
    assert '"drawn": 1' in json.dumps(json.loads(public)["view"]["pending"])
    replays(rig, info)


def test_a_card_bought_by_tag_and_the_wrong_cards(rig: Rig) -> None:
    """Two slots: the card goes into the suggested one at once, and one tap moves it to the
    other (one move: the record holds the final one); every wrong card an alert."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    state = table.state
    assert (state.phase, state.current) == ("buying", 0)
    buys = [m for m in state.legal_moves() if m.kind == "buy_movie"]
    card = buys[0].card
    refused(rig, info, "bag-2", "movie", card, "NOT_PLAYERS_TURN")
    refused(rig, info, "bag-1", "movie", state.movie_pool[0], "CARD_NOT_IN_MARKET")
    refused(rig, info, "bag-1", "movie", state.players[1].movies[0], "CARD_ALREADY_OWNED")
    tile = state.columns[1][0]
    refused(rig, info, "bag-1", "theater", tile, "CARD_NOT_BUYABLE")  # round 1
    award = state.award_pool[0]
    refused(rig, info, "bag-1", "award", award, "CARD_NOT_EXPECTED")
    before = table.state.to_dict()
    assert card_tap(rig, "bag-1", "movie", card) == "ok"
    view = rig.client.get(f"/api/tables/{info['id']}").json["view"]
    choice = view["card_choice"]
    assert choice["player"] == 0 and choice["card"] == card and choice["kind"] == "movie"
    assert choice["moves"] == [m.to_dict() for m in buys if m.card == card]
    placed = choice["placed"]
    assert len(choice["moves"]) == 2 and table.entries[-1]["move"] == choice["moves"][placed]
    assert table.state.players[0].movies[choice["moves"][placed]["slot"]] == card
    other = 1 - placed
    moved = rig.client.post(f"/api/tables/{info['id']}/choice", json={"index": other})
    assert moved.status_code == 200, moved.json
    assert table.state.players[0].movies[choice["moves"][other]["slot"]] == card
    assert table.state.players[0].movies[choice["moves"][placed]["slot"]] != card
    assert table.card_choice["placed"] == other
    assert [e["move"] for e in table.entries if e["move"]["move"] == "buy_movie"] == [
        choice["moves"][other]]  # one purchase, the final one
    undone = rig.client.post(f"/api/tables/{info['id']}/undo",
                             headers={"X-Table-Pin": info["pin"]})
    assert undone.status_code == 200 and table.state.to_dict() == before  # one Undo
    assert card_tap(rig, "bag-1", "movie", card) == "ok"
    other = next(m.card for m in buys if m.card != card)
    refused(rig, info, "bag-1", "movie", other, "CARD_NOT_BUYABLE")  # one movie a turn
    refused(rig, info, "bag-1", "movie", card, "CARD_ALREADY_OWNED")
    replays(rig, info)


def test_a_card_with_one_legal_slot_is_bought_at_once(rig: Rig) -> None:
    """With one theater only (a position set up for the test), the tap buys into it."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    with rig.hub.lock:
        state = table.state.clone()
        state.players[0].theaters[1] = None  # the test's position: one theater in slot 0
        table.state = state
    card = next(m.card for m in state.legal_moves() if m.kind == "buy_movie")
    assert card_tap(rig, "bag-1", "movie", card) == "ok"
    assert table.state.players[0].movies[0] == card
    assert table.entries[-1]["move"] == {"move": "buy_movie", "player": 0, "card": card,
                                         "slot": 0}
    assert table.card_choice is None


def test_the_suggested_slot_and_bad_rechoices(rig: Rig) -> None:
    """With hints on the card goes where the advisor's buying rule says; with hints off into
    the first legal slot; a move to another slot without a card placed, or to a slot the
    choice does not offer, is refused with nothing changed."""
    from companion.games.popcorn.advisor.buying import suggested_buy
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    url = f"/api/tables/{info['id']}/choice"
    none = rig.client.post(url, json={"index": 0})
    assert none.status_code == 409 and none.json["code"] == "NO_CHOICE"
    buys = [m for m in table.state.legal_moves() if m.kind == "buy_movie"]
    card = buys[0].card
    mine = [m for m in buys if m.card == card]
    assert card_tap(rig, "bag-1", "movie", card) == "ok"
    assert table.entries[-1]["move"] == suggested_buy(rig.state(info), mine).to_dict() or \
        table.card_choice["placed"] == table.card_choice["moves"].index(
            table.entries[-1]["move"])
    events = table.count
    for bad in (5, -1, "left", None):
        answer = rig.client.post(url, json={"index": bad})
        assert answer.status_code == 400 and answer.json["code"] == "BAD_REQUEST", bad
    assert table.count == events
    pin = {"X-Table-Pin": info["pin"]}
    assert rig.client.post(f"/api/tables/{info['id']}/undo", headers=pin).status_code == 200
    assert rig.client.post(f"/api/tables/{info['id']}/hints", json={"hints": False},
                           headers=pin).status_code == 200
    assert card_tap(rig, "bag-1", "movie", card) == "ok"
    assert table.card_choice["placed"] == 0
    assert table.entries[-1]["move"] == mine[0].to_dict()


def test_a_card_choice_is_cleared_by_any_move(rig: Rig) -> None:
    """The choice is a prompt: ending the turn instead clears it."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    card = next(m.card for m in table.state.legal_moves() if m.kind == "buy_movie")
    assert card_tap(rig, "bag-1", "movie", card) == "ok"
    assert table.card_choice is not None
    move = table.state.legal_moves()[0]  # whatever the table does next
    assert rig.move(info, move.to_dict()).status_code == 200
    assert table.card_choice is None
    assert rig.client.get(f"/api/tables/{info['id']}").json["view"]["card_choice"] is None


def test_the_demo_players_tap_the_cards(rig: Rig) -> None:
    """With card tags and no "deal for us", the demo's players tap every starting movie,
    reveal and award draw, and what they buy (choosing the slot when the hub asks). No tap
    is an alert, and the game replays from its record."""
    from companion.games.popcorn.demo import ScriptedPlayers

    info = rig.client.post("/api/tables", json={"players": ["Ana", "Bob"],
                                                "readers": ["bag-1", "bag-2"]}).json
    table = rig.hub.tables[info["id"]]
    players = ScriptedPlayers(rig.hub, table, rig.bank, rig.uids, delay=0, seed=2,
                              cards=rig.cards).start()
    try:
        assert wait_for(lambda: table.state.round >= 2, 120)
    finally:
        players.stop.set()
        assert players.thread is not None
        players.thread.join(10)
    taps = [body for _, kind, body in rig.hub.store.events(info["id"]) if kind == "tag"]
    assert not [b for b in taps if "alert" in b]
    kinds = {b["move"]["move"] if "move" in b else "choice" for b in taps}
    assert {"deal_starting", "reveal_movie", "reveal_theater", "draw_award"} <= kinds
    assert kinds & {"buy_movie", "choice"}, kinds
    replays(rig, info)
