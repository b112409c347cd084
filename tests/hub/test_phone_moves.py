"""A phone plays its own player's turn and never another's (issue 24, point 5).

docs/api.md, "POST /api/tables/{id}/moves": a request that carries a player token (the
``X-Player-Token`` header or ``"token"`` in the body) may make only that player's moves;
a move of another seat, alone or anywhere in a batch, is ``403 WRONG_TOKEN`` (with the
batch's ``index``), and nothing changes. The same holds for ``POST .../choice``: a phone
moves only its own player's card. A token that is no seat's is refused, never read as the
tablet. Without a token the tablet plays every seat, as before. A real hub with virtual
bag readers on pseudo-terminals, every pawn and card enrolled.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.popcorn.demo import box_book, card_uids
from companion.games.popcorn.engine import pawns as P
from tests.hub.rig import Rig
from tests.waiting import wait_for


@pytest.fixture
def rig(tmp_path: Path):
    """A hub with four virtual readers, every pawn and card of the box enrolled."""
    r = Rig(tmp_path)
    r.cards = card_uids(box_book(), 1)
    yield r
    r.close()


def post(rig: Rig, info: dict, body: dict, token: str | None = None):
    """``POST .../moves`` with ``body``, and the phone's token in the header if given."""
    headers = {"X-Player-Token": token} if token else {}
    return rig.client.post(f"/api/tables/{info['id']}/moves", json=body, headers=headers)


def choose(rig: Rig, info: dict, index: int, token: str | None = None):
    """``POST .../choice``: move the card just placed to the choice's move ``index``."""
    headers = {"X-Player-Token": token} if token else {}
    return rig.client.post(f"/api/tables/{info['id']}/choice", json={"index": index},
                           headers=headers)


class Unchanged:
    """The table's state, log and card choice before a refusal, to check nothing moved."""

    def __init__(self, rig: Rig, info: dict) -> None:
        self.table = rig.hub.tables[info["id"]]
        self.state, self.count = self.table.state.to_dict(), self.table.count
        self.choice = self.table.card_choice

    def holds(self) -> bool:
        """Whether the table is as it was."""
        return (self.table.state.to_dict(), self.table.count, self.table.card_choice) == (
            self.state, self.count, self.choice)


def refused(answer, index: int | None = None) -> None:
    """A ``403 WRONG_TOKEN`` with a sentence (and the batch's ``index`` when given)."""
    assert answer.status_code == 403, answer.json
    assert answer.json["code"] == "WRONG_TOKEN" and answer.json["message"]
    assert answer.json.get("index") == index


def last_source(rig: Rig, info: dict) -> str:
    """Who sent the table's last move (the cards "deal for us" dealt after it aside)."""
    moves = [body for _, kind, body in rig.hub.store.events(info["id"])
             if kind == "move" and body.get("source") != "deal"]
    return moves[-1]["source"]


def draw_all(rig: Rig, info: dict) -> None:
    """End the Buying and report every player's draws, as the bag readers would."""
    rig.end_buying(info)
    table = rig.hub.tables[info["id"]]
    for player in range(len(info["tokens"])):
        while table.state.showings[player].to_draw and table.state.task_for(player) is None:
            draw = table.state.chance_outcomes(player)[0]
            assert post(rig, info, {"move": draw.to_dict()}).status_code == 200


def test_a_phone_makes_its_own_moves_and_no_one_elses(rig: Rig) -> None:
    """Bob's phone may not end Ana's turn (header or body token); Ana's phone may, and the
    log says the phone made it."""
    info = rig.table()
    ana, bob = info["tokens"]
    table = rig.hub.tables[info["id"]]
    assert (table.state.phase, table.state.current) == ("buying", 0)
    end = {"move": "end_turn", "player": 0}
    before = Unchanged(rig, info)
    refused(post(rig, info, {"move": end}, bob))
    refused(post(rig, info, {"move": end, "token": bob}))
    assert "Bob's" in post(rig, info, {"move": end}, bob).json["message"]
    assert before.holds()
    assert post(rig, info, {"move": end}, ana).status_code == 200
    assert table.state.current == 1
    assert last_source(rig, info) == "phone"


def test_a_bad_token_is_refused_even_for_a_move_the_tablet_may_make(rig: Rig) -> None:
    """A mistyped token, another table's, or one that is not a string: refused, not read as
    the tablet."""
    info = rig.table()
    other = rig.table(("Cy", "Dee"), readers=["bag-3", "bag-4"])
    before = Unchanged(rig, info)
    end = {"move": "end_turn", "player": 0}
    for token in ("nope", other["tokens"][0], info["tokens"][0] + "x"):
        refused(post(rig, info, {"move": end}, token))
    refused(post(rig, info, {"move": end, "token": 7}))
    refused(post(rig, info, {"moves": [end], "token": "nope"}))
    assert before.holds()
    assert post(rig, info, {"move": end}).status_code == 200  # no token: the tablet


def test_a_batch_with_another_players_move_is_refused_whole(rig: Rig) -> None:
    """Ana's phone sends her end of turn and then Bob's: refused at index 1, nothing made;
    the tablet may send the same batch."""
    info = rig.table()
    ana = info["tokens"][0]
    batch = {"moves": [{"move": "end_turn", "player": 0}, {"move": "end_turn", "player": 1}]}
    before = Unchanged(rig, info)
    refused(post(rig, info, batch, ana), index=1)
    refused(post(rig, info, {**batch, "token": ana}), index=1)
    assert before.holds()
    assert post(rig, info, batch).status_code == 200
    assert rig.hub.tables[info["id"]].state.current == 0  # a new Buying turn: Ana's again


def test_a_phone_cannot_seat_another_players_guest(rig: Rig) -> None:
    """In the Showings Ana's phone may not seat Bob's drawn guest, nor send his placement
    as a batch after one of her own; Bob's phone seats it through the same route."""
    info = rig.table()
    ana, bob = info["tokens"]
    draw_all(rig, info)
    table = rig.hub.tables[info["id"]]
    bobs = [m for m in table.state.legal_moves() if m.player == 1 and m.kind == "place"]
    anas = [m for m in table.state.legal_moves() if m.player == 0 and m.kind == "place"]
    assert bobs and anas
    before = Unchanged(rig, info)
    refused(post(rig, info, {"move": bobs[0].to_dict()}, ana))
    refused(post(rig, info, {"moves": [anas[0].to_dict(), bobs[0].to_dict()]}, ana), 1)
    placement = rig.client.get(f"/api/tables/{info['id']}/placement?player=1").json["moves"]
    refused(post(rig, info, {"moves": placement}, ana), 0)
    assert before.holds()
    assert post(rig, info, {"moves": placement}, bob).status_code == 200
    assert not table.state.pawns_at(P.hand(1))  # all of Bob's drawn guests placed


def test_a_reveal_is_the_tables_not_a_phones(rig: Rig) -> None:
    """A move that names no player (a card revealed) is refused from a phone."""
    info = rig.table()
    table = rig.hub.tables[info["id"]]
    card = table.state.movie_pool[0]
    before = Unchanged(rig, info)
    answer = post(rig, info, {"move": {"move": "reveal_movie", "card": card}},
                  info["tokens"][0])
    refused(answer)
    assert "the table's" in answer.json["message"]
    assert before.holds()


def tap_card(rig: Rig, reader: str, kind: str, card: str) -> str:
    """Tap a card's tag; wait for the reader's feedback and return it."""
    seq = rig.tap(reader, rig.cards[(kind, card)])
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.hub.settled()
    return rig.feedback(reader, seq)


def test_a_phone_moves_only_its_own_players_card(rig: Rig) -> None:
    """Ana taps a movie: Bob's phone may not move it, nor may a bad token; Ana's phone
    moves it to the other slot (one purchase in the record)."""
    info = rig.table()
    ana, bob = info["tokens"]
    table = rig.hub.tables[info["id"]]
    card = next(m.card for m in table.state.legal_moves() if m.kind == "buy_movie")
    assert tap_card(rig, "bag-1", "movie", card) == "ok"
    choice = table.card_choice
    assert choice["player"] == 0 and len(choice["moves"]) == 2
    other = 1 - choice["placed"]
    before = Unchanged(rig, info)
    refused(choose(rig, info, other, bob))
    refused(choose(rig, info, other, "nope"))
    answer = rig.client.post(f"/api/tables/{info['id']}/choice",
                             json={"index": other, "token": bob})
    refused(answer)
    assert "Ana's" in answer.json["message"]
    assert before.holds()
    moved = choose(rig, info, other, ana)
    assert moved.status_code == 200, moved.json
    assert table.card_choice["placed"] == other
    slot = choice["moves"][other]["slot"]
    assert table.state.players[0].movies[slot] == card
    buys = [e["move"] for e in table.entries if e["move"]["move"] == "buy_movie"]
    assert buys == [choice["moves"][other]]
    assert last_source(rig, info) == "phone"


def test_a_phone_keeps_its_award_and_not_anothers(rig: Rig) -> None:
    """Award moves keep their rule: the player's own token, never another's."""
    created = rig.client.post("/api/tables", json={"players": ["Ana", "Bob"],
                                                   "readers": ["bag-1", "bag-2"],
                                                   "deal_seed": 3})
    info = created.json
    ana, bob = info["tokens"]
    private = rig.client.get(f"/api/tables/{info['id']}/players/0/private",
                             headers={"X-Player-Token": ana}).json
    keep = private["legal"][0]
    before = Unchanged(rig, info)
    refused(post(rig, info, {"move": keep}, bob))
    refused(post(rig, info, {"move": keep}))
    assert before.holds()
    assert post(rig, info, {"move": keep}, ana).status_code == 200
