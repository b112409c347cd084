"""B Movies secrets: no public route or push carries a vote before the reveal, a token's
value, or a studio before the Final Cut (issue 15, tests: privacy).

Two kinds of check. The views are tested by *difference*: two states that differ only in a
secret (the votes cast so far, the values in the piles, the studios dealt) must give the
same public view, so nothing in it can depend on the secret. The hub is tested by
*listening*: a whole Hidden Team game is played while a screen joined to the table's public
room records every push, and every public route is read between moves; none of it may hold
a secret, and the public room never receives a phone's private push.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.bmovies.demo import BMoviesPlayers
from companion.games.bmovies.engine import State, new_game, random_move
from companion.games.bmovies.facts_file import load_facts
from companion.games.bmovies.views import public_view
from tests.bmovies.rig import Rig
from tests.waiting import wait_for

FACTS = load_facts()
NAMES = ["Ana", "Bob", "Chloe", "Dev", "Eve", "Finn"]
PLAYER_KEYS = {"seat", "name", "tokens", "owed", "voted", "has_yes_bang", "movies"}


def game_at(seed: int, n: int, steps: int) -> State:
    """A Hidden Team game after ``steps`` random moves (studios dealt at random)."""
    rng = random.Random(seed)
    state = new_game(FACTS, n, 0, "hidden")
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(random_move(state, rng))
    return state


def with_secrets(state: State, rng: random.Random) -> State:
    """The same table with other secrets: other votes (from each producer's cards), other
    token values (same counts, the bucket holding the rest), another studio deal."""
    doc = state.to_dict()
    hands = doc["hands"]
    doc["votes"] = {p: rng.choice(hands[int(p)]) for p in doc["votes"]}
    everything = [v for v, count in enumerate(FACTS.token_counts) for _ in range(count)]
    rng.shuffle(everything)
    piles = []
    for pile in doc["piles"]:
        piles.append([everything.pop() for _ in pile])
    doc["piles"], doc["pile_tokens"] = piles, [[] for _ in piles]
    doc["bucket"] = [everything.count(v) for v in range(len(FACTS.token_counts))]
    if doc["studios"] is not None:
        doc["studios"] = rng.sample(doc["studios"], len(doc["studios"]))
    return State.from_dict(doc)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), steps=st.integers(0, 150))
def test_the_public_view_does_not_depend_on_any_secret(seed: int, n: int, steps: int) -> None:
    """Clarification 10 and item 4: before the Final Cut, changing the votes not yet
    revealed, the values of the tokens drawn or the studios dealt changes nothing the
    tablet is sent."""
    state = game_at(seed, n, steps)
    if state.is_over:
        return
    other = with_secrets(state, random.Random(seed + 1))
    assert public_view(other, NAMES[:n]) == public_view(state, NAMES[:n])


def test_the_difference_check_can_fail() -> None:
    """The check above is not vacuous: at the Final Cut, secrets are shown, so other
    secrets give another view."""
    state = game_at(3, 4, 10**4)
    assert state.is_over
    other = with_secrets(state, random.Random(4))
    assert public_view(other, NAMES[:4]) != public_view(state, NAMES[:4])


def no_secret_in(view: dict[str, Any]) -> None:
    """What a public view may hold, field by field (it is public before the Final Cut)."""
    if view["phase"] == "vote":
        assert view["reveal"] is None  # the last reveal is cleared by the next pitch
    for player in view["players"]:
        assert set(player) == PLAYER_KEYS
        assert type(player["tokens"]) is int
    for turn in view["history"]:
        assert set(turn["received"].values()) <= set(range(5))  # counts, never values
    assert view["final_cut"] is None
    assert "'studio'" not in repr(view) and "'studios'" not in repr(view)


@pytest.fixture
def rig(tmp_path: Path):
    rig = Rig(tmp_path, 5)
    yield rig
    rig.close()


def test_no_public_route_or_push_carries_a_secret_during_a_whole_game(rig: Rig) -> None:
    """Issue 15, tests: privacy, on the real hub: every ``state`` push to the table's room
    and every public route, read after each move, holds no vote before its reveal, no
    token value, no studio; the public room never gets a ``private`` push."""
    info = rig.create("hidden")
    screen = rig.socketio.test_client(rig.app)
    screen.emit("join", {"table": info["id"]})
    players = BMoviesPlayers(rig.table(info), rig.bank, rig.uids, rig.send_as_devices(info),
                             lock=rig.hub.lock, delay=0, seed=11)
    pushes: list[dict[str, Any]] = []
    votes_seen = 0
    while not rig.table(info).state.is_over:
        assert players.step()
        assert rig.hub.settled()
        got = screen.get_received()
        assert {m["name"] for m in got} <= {"state", "alert", "readers"}  # never "private"
        pushes += [m["args"][0]["view"] for m in got if m["name"] == "state"]
        public = rig.client.get(f"/api/tables/{info['id']}").json
        if not public["view"]["final_cut"]:
            no_secret_in(public["view"])
            assert rig.client.get(f"/api/tables/{info['id']}/scores").status_code == 409
        votes_seen += len(rig.table(info).state.votes)
    assert votes_seen > 0 and len(pushes) > 50

    def final_pushed() -> bool:  # a tap's push leaves once its batch is committed
        pushes.extend(m["args"][0]["view"] for m in screen.get_received() if m["name"] == "state")
        return pushes[-1]["final_cut"] is not None
    assert wait_for(final_pushed)
    for view in pushes:
        if view["final_cut"] is None:
            no_secret_in(view)
    assert pushes[-1]["final_cut"]["players"][0]["studio"] is not None
    listing = repr(rig.client.get("/api/tables").json)
    assert "studio\'" not in listing and "votes" not in listing
