"""``GET /api/tables/<id>/advice``: the advisor over HTTP, through the app's test client and
from a real ``serve`` process."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.engine.moves import move_from_dict
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError, call
from tests.hub.client import READERS, advice, draw_for_ana, post


def test_unknown_table_is_404(api) -> None:
    """A table id the hub does not know."""
    _, client, _ = api
    answer = advice(client, "nosuchtable")
    assert answer.status_code == 404 and answer.json["code"] == "TABLE_NOT_FOUND"


@pytest.mark.parametrize("player", ["2", "-1", "x", "", "\u00b2", "99999999999999999999"])
def test_bad_player_is_400(api, player) -> None:
    """A seat the table does not have, or not a number."""
    _, client, table_id = api
    answer = advice(client, table_id, player)
    assert answer.status_code == 400 and answer.json["code"] == "BAD_PLAYER"


def test_missing_player_is_400(api) -> None:
    """The query parameter is required."""
    _, client, table_id = api
    answer = client.get(f"/api/tables/{table_id}/advice")
    assert answer.status_code == 400 and answer.json["code"] == "BAD_PLAYER"


def test_no_draw_waiting_is_409(api) -> None:
    """During the Buying phase nobody has guests to seat."""
    _, client, table_id = api
    answer = advice(client, table_id)
    assert answer.status_code == 409 and answer.json["code"] == "NO_DRAW_WAITING"
    assert answer.json["message"]


def test_advice_after_the_draw_can_be_played_through_the_api(api) -> None:
    """The suggestion's placement moves are accepted by the moves route, one by one, and
    asking again halfway gives the activations; the answer is the same when asked twice."""
    hub, client, table_id = api
    draw_for_ana(hub, client, table_id)
    assert advice(client, table_id, "1").status_code == 409  # Bob has not drawn yet
    answer = advice(client, table_id)
    assert answer.status_code == 200, answer.json
    assert advice(client, table_id).json == answer.json
    body = answer.json
    assert body["player"] == 0 and body["table"] == table_id
    assert set(body["best"]["gains"]) == {"money", "popcorn", "audience", "guests", "awards",
                                          "culled"}
    values = [body["best"]["value"]] + [a["value"] for a in body["alternatives"]]
    assert values == sorted(values, reverse=True)
    placing = [m for m in body["best"]["moves"] if m["move"] in ("place", "to_exit")]
    assert placing and body["best"]["moves"][:len(placing)] == placing
    for move in placing:
        post(client, table_id, move)
    state = hub.tables[table_id].state
    assert not state.at.get(P.hand(0))
    rest = advice(client, table_id).json
    assert all(m["move"] not in ("place", "to_exit") for m in rest["best"]["moves"])
    assert rest["best"]["moves"] == body["best"]["moves"][len(placing):]


def test_advice_from_a_real_serve_process(tmp_path: Path) -> None:
    """Over real HTTP from ``popcorn-companion serve``: the codes, then an advice whose
    moves the hub accepts one by one until the plan's end or its first pause."""
    server = ServeProcess(tmp_path / "hub.db", readers=READERS).start()
    try:
        created = server.create_table({"players": ["Ana", "Bob"], "readers": READERS,
                                       "deal_seed": 9})
        remote = RemoteTable(server.base, created, load_catalog())
        url = f"{server.base}/api/tables/{remote.id}/advice"
        for path, status, code in ((url + "?player=0", 409, "NO_DRAW_WAITING"),
                                   (url + "?player=5", 400, "BAD_PLAYER"),
                                   (url.replace(remote.id, "00000000") + "?player=0", 404,
                                    "TABLE_NOT_FOUND")):
            with pytest.raises(HttpError) as refused:
                call(path)
            assert (refused.value.status, refused.value.code) == (status, code)
        while True:
            state = remote.state
            if state.phase == "showings" and state.showings[0].to_draw == 0 \
                    and state.task_for(0) is None:
                break
            if state.phase == "showings":
                remote.decide(state.chance_outcomes(0)[0])
                continue
            legal = state.legal_moves()
            remote.decide((state.chance_outcomes() or [m for m in legal
                                                       if m.kind == "end_turn"] or legal)[0])
        best = call(url + "?player=0")["best"]
        stop = best["waits"][0]["after"] if best["waits"] else len(best["moves"])
        for move in best["moves"][:stop]:
            remote.decide(move_from_dict(move))
        assert not remote.state.at.get(P.hand(0))
    finally:
        server.stop()


def test_skip_the_rest_ends_every_guest_still_to_act(api) -> None:
    """``GET .../rest``: the end_guest moves of every guest of the player's cinema still to
    act, which the moves route takes as one batch; nothing before the guests are seated, and a
    bad player is ``BAD_PLAYER``."""
    hub, client, table_id = api
    url = f"/api/tables/{table_id}/rest"
    assert client.get(f"{url}?player=0").json["moves"] == []  # Buying: nobody acts
    assert client.get(f"{url}?player=9").json["code"] == "BAD_PLAYER"
    draw_for_ana(hub, client, table_id)
    for move in advice(client, table_id).json["best"]["moves"]:
        if move["move"] not in ("place", "to_exit"):
            break
        post(client, table_id, move)
    moves = client.get(f"{url}?player=0").json["moves"]
    seated = [q for q in range(60) if hub.tables[table_id].state.loc[q] >= P.FIRST_SEAT
              and P.seat_owner(hub.tables[table_id].state.loc[q]) == 0]
    assert moves and all(m["move"] == "end_guest" and m["player"] == 0 for m in moves)
    assert len(moves) <= len(seated)
    sent = client.post(f"/api/tables/{table_id}/moves", json={"moves": moves})
    assert sent.status_code == 200, sent.json
    state = hub.tables[table_id].state
    assert not any(m.player == 0 and m.kind == "end_guest" for m in state.legal_moves())
