"""B Movies token corrections and pile audits, pure: the game's own functions on states of
random games (some tokens drawn by tap, with their ids, some reported by hand, by value).

What must hold whatever the pile and the taps: a correction keeps the bucket and the piles in
step, and a refused one changes nothing; the fixes an audit proposes, once applied, leave a
pile that the same taps find right; the table's screen's report holds no value, no token id
and no other pile, and says the same as the phone's with those left out. And the cases the
comparison value by value is for: a token the hub knew by value only, one it has nowhere to
take from, one drawn without a tag that was not tapped.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.bmovies import BMovies
from companion.games.bmovies.audit import PUBLIC
from companion.games.bmovies.corrections import correct, untagged
from companion.games.bmovies.engine import Move, State, new_game, random_move
from companion.games.bmovies.facts_file import load_facts
from companion.kit.errors import TableError
from companion.kit.game import AuditTap, Piece

FACTS = load_facts()
GAME = BMovies(FACTS)
NAMES = ["Ana", "Bob", "Chloe", "Dev", "Eve", "Finn"]


def game_at(seed: int, n: int, steps: int) -> State:
    """A game after ``steps`` random moves, each draw tapped (with a token id of its value
    no pile holds) or, one time in three, reported by hand (by value only)."""
    rng = random.Random(seed)
    state = new_game(FACTS, n, 0)
    for _ in range(steps):
        if state.is_over:
            break
        move = random_move(state, rng)
        if move.kind == "draw_token" and rng.random() < 2 / 3:
            assert move.value is not None
            free = [t for t in range(FACTS.tokens_total)
                    if FACTS.token_value(t) == move.value and t not in state.drawn]
            move = Move("draw_token", player=move.player, value=move.value,
                        token=rng.choice(free))
        state.apply(move)
    return state


def check_invariants(state: State) -> None:
    """The bucket holds what no pile holds; each pile's ids are among its values; no token
    is in two piles."""
    for value, count in enumerate(FACTS.token_counts):
        assert state.bucket[value] + sum(p.count(value) for p in state.piles) == count
    ids = [t for tokens in state.pile_tokens for t in tokens]
    assert len(ids) == len(set(ids))
    for seat in range(state.n):
        assert len(untagged(state, seat)) == len(state.piles[seat]) - len(
            state.pile_tokens[seat])


def taps_of(tokens: list[int]) -> list[AuditTap]:
    return [AuditTap(Piece("token", t, FACTS.token_value(t), "b-movies"), f"uid{t}")
            for t in tokens]


def random_taps(state: State, seat: int, rng: random.Random) -> list[int]:
    """Most of the pile's known tokens, a few tokens from anywhere, now and then one twice."""
    taps = [t for t in state.pile_tokens[seat] if rng.random() < 0.8]
    taps += [rng.randrange(FACTS.tokens_total) for _ in range(rng.randrange(4))]
    if taps and rng.random() < 0.3:
        taps.append(rng.choice(taps))
    rng.shuffle(taps)
    return taps


def apply_fixes(state: State, fixes: tuple[dict[str, Any], ...]) -> State:
    """The fixes applied as the table applies them (a move, or the game's correction)."""
    trial = state.clone()
    for fix in fixes:
        if "move" in fix:
            trial.apply(GAME.move_from_dict(fix["move"]))
        else:
            GAME.corrections.correct(trial, dict(fix["correct"]))
    return trial


def random_correction(state: State, rng: random.Random) -> dict[str, Any]:
    zone = rng.choice(["pile", "bucket", "box"])
    body: dict[str, Any] = {"zone": zone, "player": rng.randrange(-1, state.n + 1)}
    if rng.random() < 0.6:
        body["token"] = rng.randrange(-1, FACTS.tokens_total + 1)
    else:
        body["value"] = rng.randrange(-1, len(FACTS.token_counts) + 1)
    return body


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), steps=st.integers(0, 120))
def test_corrections_keep_the_bucket_and_the_piles_in_step(seed: int, n: int,
                                                           steps: int) -> None:
    """Random corrections, good and bad: a good one keeps every invariant and logs what a
    replay applies the same way; a refused one changes nothing."""
    state, rng = game_at(seed, n, steps), random.Random(seed)
    for _ in range(20):
        before = state.to_dict()
        body = random_correction(state, rng)
        try:
            logged = GAME.corrections.correct(state, dict(body))
        except TableError as exc:
            assert exc.code in {"BAD_REQUEST", "NO_SUCH_TOKEN", "TOKEN_ALREADY_THERE",
                                "NO_TOKEN_OF_VALUE"}, exc.code
            assert state.to_dict() == before
            continue
        check_invariants(state)
        again = State.from_dict(before)
        GAME.corrections.correct(again, logged)
        assert again.to_dict() == state.to_dict()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), steps=st.integers(0, 120))
def test_the_fixes_leave_a_pile_the_same_taps_find_right(seed: int, n: int,
                                                          steps: int) -> None:
    """Whatever the taps: once the fixes are applied (none refused), the same taps audit
    clean but for the taps that are no difference (twice), and the counts agree value by
    value; the table's report is the phone's with the values left out."""
    state, rng = game_at(seed, n, steps), random.Random(seed)
    seat = rng.randrange(n)
    tokens = random_taps(state, seat, rng)
    phone = GAME.audits.audit(state, seat, taps_of(tokens), NAMES[:n], True)
    table = GAME.audits.audit(state, seat, taps_of(tokens), NAMES[:n], False)
    assert table.fixes == phone.fixes
    assert [PUBLIC.get(f.code, f.code) for f in phone.findings] == [
        f.code for f in table.findings]
    assert [f.fix for f in phone.findings] == [f.fix for f in table.findings]
    shown = json.dumps(table.to_dict())
    assert '"value"' not in shown and '"token"' not in shown
    assert table.counts == ({"key": "tokens", "tapped": len(set(tokens)),
                             "expected": len(state.piles[seat])},)
    if phone.refused:
        return
    mended = apply_fixes(state, phone.fixes)
    check_invariants(mended)
    again = GAME.audits.audit(mended, seat, taps_of(tokens), NAMES[:n], True)
    assert {f.code for f in again.findings} <= {"AUDIT_PILE_TAPPED_TWICE"}
    assert again.fixes == ()
    assert all(c["tapped"] == c["expected"] for c in again.counts)


def four_player_draw() -> State:
    """Ana pitched and every producer said No: Bob, Chloe and Dev each owe a token."""
    state = new_game(FACTS, 4, 0)
    state.apply(Move("pitch", player=0, cards=2))
    for seat in (1, 2, 3):
        state.apply(Move("vote", player=seat, vote="no"))
    return state


def test_a_tapped_token_stands_for_one_drawn_without_a_tag() -> None:
    """Bob reported a 3 by hand; he taps a 3 the hub has in the bucket: nothing is found
    (tokens of one value are alike), and no token goes anywhere."""
    state = four_player_draw()
    state.apply(Move("draw_token", player=1, value=3))
    report = GAME.audits.audit(state, 1, taps_of([80]), NAMES[:4], True)
    assert report.clean and report.fixes == ()
    assert report.counts == ({"key": "3", "value": 3, "tapped": 1, "expected": 1},)


def test_a_value_drawn_without_a_tag_and_not_tapped_goes_back_by_its_value() -> None:
    """Bob reported a 3 by hand but taps nothing: the fix names the value, not an id."""
    state = four_player_draw()
    state.apply(Move("draw_token", player=1, value=3))
    report = GAME.audits.audit(state, 1, [], NAMES[:4], True)
    assert [f.code for f in report.findings] == ["AUDIT_TOKEN_NOT_TAPPED"]
    assert report.findings[0].params == {"player": 1, "name": "Bob", "value": 3}
    assert report.fixes == ({"correct": {"value": 3, "zone": "bucket", "player": 1}},)


def test_a_token_with_none_of_its_value_left_in_the_bucket_is_refused() -> None:
    """Every 4 is in a pile, one of them reported by hand by Chloe; Bob taps a 4 the hub
    never saw: no correction may take it from the bucket, so the report refuses it, on the
    table's screen without its value."""
    doc = four_player_draw().to_dict()
    doc["bucket"][4] = 0
    doc["piles"] = [[], [], [4], [4, 4, 4, 4]]
    doc["pile_tokens"] = [[], [], [], [94, 95, 96, 97]]
    state = State.from_dict(doc)
    check_invariants(state)
    phone = GAME.audits.audit(state, 1, taps_of([93]), NAMES[:4], True)
    assert [r["code"] for r in phone.refused] == ["AUDIT_TOKEN_NONE_LEFT"]
    assert phone.refused[0]["params"]["value"] == 4 and phone.fixes == ()
    assert not phone.clean
    table = GAME.audits.audit(state, 1, taps_of([93]), NAMES[:4], False)
    assert table.refused == ({"code": "AUDIT_PILE_NONE_LEFT",
                              "message": table.refused[0]["message"],
                              "params": {"player": 1, "name": "Bob"}},)
    assert "4" not in table.refused[0]["message"]


def test_a_missed_draw_counts_only_as_many_as_are_owed() -> None:
    """Bob owes one token and taps two the hub had in the bucket: the first is his missed
    draw, the second a correction into his pile; the turn's draws stay right."""
    state = four_player_draw()
    report = GAME.audits.audit(state, 1, taps_of([0, 30]), NAMES[:4], True)
    assert [f.code for f in report.findings] == ["AUDIT_TOKEN_DRAWN", "AUDIT_TOKEN_FROM_BUCKET"]
    mended = apply_fixes(state, report.fixes)
    assert mended.owed == [0, 0, 1, 1] and mended.received[1] == 1
    assert mended.pile_tokens[1] == [0, 30]


@pytest.mark.parametrize("body, code", [
    ({"zone": "bucket"}, "BAD_REQUEST"),
    ({"token": 3, "value": 0, "zone": "bucket"}, "BAD_REQUEST"),
    ({"token": "3", "zone": "bucket"}, "BAD_REQUEST"),
    ({"value": 1.0, "zone": "pile", "player": 0}, "BAD_REQUEST"),
    ({"value": 1, "zone": "pile", "player": True}, "BAD_REQUEST"),
    ({"value": 1, "zone": "bucket", "player": 0}, "NO_SUCH_TOKEN"),
    ({"token": 3, "zone": "bucket"}, "TOKEN_ALREADY_THERE"),
])
def test_bad_corrections_are_refused_with_their_code(body: dict[str, Any], code: str) -> None:
    state = four_player_draw()
    before = state.to_dict()
    with pytest.raises(TableError) as refused:
        correct(state, body)
    assert refused.value.code == code and refused.value.message
    assert state.to_dict() == before
