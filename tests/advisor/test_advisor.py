"""The seating advisor: legal moves, model equal to engine, order, determinism, policy."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.popcorn.advisor import AdviceError, advise
from companion.games.popcorn.advisor.advice import Advice
from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.advisor.weights import load_weights as advice_weights
from companion.games.popcorn.engine import game as G
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.engine.setup import new_game
from companion.games.popcorn.engine.simulator import DEFAULT_NAMES, random_move
from companion.games.popcorn.engine.state import GameState
from tests.engine.positions import CATALOG


def drawn(state: GameState, p: int) -> bool:
    """Player ``p`` has drawn every guest and placed none: the advisor's first moment."""
    show = state.showings[p]
    return (show.to_draw == 0 and state.task_for(p) is None and not state.seated_count[p]
            and bool(state.at.get(P.hand(p))))


def advised_showings(seed: int, players: int = 4, limit: int = 12):
    """Yield ``(state, player)`` at the first ``limit`` draws of an eager game."""
    rng = random.Random(seed)
    state = new_game(CATALOG, DEFAULT_NAMES[:players], rng.randrange(players))
    asked: set[tuple[int, int]] = set()
    while state.phase != "over" and len(asked) < limit:
        for p in range(state.n) if state.phase == "showings" else ():
            if (state.round, p) not in asked and drawn(state, p):
                asked.add((state.round, p))
                yield state, p
        G.apply_listed(state, random_move(state, rng, "eager"))


def replay(state: GameState, p: int, option, rng: random.Random) -> GameState:
    """Apply an option's moves with the full engine check, resolving award draws by chance."""
    trial = state.clone()
    waits = {n for n, _ in option.plan.waits}
    for n, move in enumerate(option.plan.moves, start=1):
        G.apply(trial, move)
        if n in waits:
            while (task := trial.task_for(p)) is not None and task.kind == "award":
                outcomes = G.chance_outcomes(trial, p)
                G.apply(trial, rng.choice(outcomes or G.legal_moves(trial, p)))
        elif n < len(option.plan.moves):
            assert trial.task_for(p) is None, (move, trial.task_for(p).kind)
    if option.plan.then is not None:
        assert trial.task_for(p).kind == option.plan.then
    return trial


def check(advice: Advice) -> None:
    """The best option is worth at least every alternative, and they come best first."""
    values = [o.value for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert all(advice.best.value >= v for v in values)
    keys = [o.placement.key() for o in advice.options]
    assert len(set(keys)) == len(keys)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_every_suggested_sequence_applies_and_the_model_matches_the_engine(seed, players):
    """Over simulated games: each option's moves pass ``apply``; the gains the search
    predicted are the gains the engine measures (when the plan runs to its end)."""
    rng = random.Random(seed)
    for state, p in advised_showings(seed, players):
        before = state.to_dict()
        advice = advise(state, p)
        assert state.to_dict() == before, "advise changed the state"
        check(advice)
        for option in advice.options:
            assert option.plan.then in (None, "draw_seat")
            trial = replay(state, p, option, rng)
            assert not trial.at.get(P.hand(p)), "the placement left a guest in hand"
            if option.plan.then is None:
                assert option.plan.gains == option.placement.gains, option.placement
                assert option.value == advice_weights().value(option.plan.gains)
                assert trial.phase != "showings" or not trial.seated_count[p]


def last_to_act(seed: int, rounds: int = 12):
    """Yield ``(state, 0)`` each round once every other player is done and Ana has drawn."""
    rng = random.Random(seed)
    state = new_game(CATALOG, DEFAULT_NAMES[:3], 0)
    while state.phase != "over" and state.round <= rounds:
        if state.phase != "showings":
            G.apply_listed(state, random_move(state, rng, "eager"))
            continue
        others = [q for q in G.waiting_players(state) if q != 0]
        if not others and drawn(state, 0):
            yield state, 0
            state = state.clone()
            G.apply_listed(state, G.legal_moves(state, 0)[0])
            continue
        q = others[0] if others else 0
        moves = G.chance_outcomes(state, q) or G.legal_moves(state, q)
        G.apply_listed(state, moves[0] if q == 0 else rng.choice(moves))


def test_the_last_player_to_act_ends_the_round_in_the_plan() -> None:
    """When the others are done, the plan's copy ends the round with Ana's last guest;
    every option still applies and measures what the search predicted."""
    rng, seen = random.Random(0), 0
    for seed in range(6):
        for state, p in last_to_act(seed):
            for option in advise(state, p).options:
                assert option.plan.then in (None, "draw_seat")
                trial = replay(state, p, option, rng)
                seen += 1
                if option.plan.then is None:
                    assert option.plan.gains == option.placement.gains
                    assert trial.phase != "showings" or trial.round > state.round
    assert seen


def test_same_state_same_answer() -> None:
    """Asking twice, or on a copy, gives the same answer to the last field."""
    for state, p in advised_showings(7, limit=6):
        first = advise(state, p).to_dict()
        assert advise(state.clone(), p).to_dict() == first
        assert advise(state, p).to_dict() == first


def test_the_answer_lists_three_placements_best_first() -> None:
    """With several guests and seats there are three distinct options, best first."""
    seen = 0
    for state, p in advised_showings(11, limit=8):
        advice = advise(state, p)
        check(advice)
        if len(advice.options) == 3:
            seen += 1
            data = advice.to_dict()
            assert data["best"]["value"] >= data["alternatives"][0]["value"]
            assert data["alternatives"][0]["value"] >= data["alternatives"][1]["value"]
            assert [m["move"] for m in data["best"]["moves"]][0] in ("place", "to_exit")
    assert seen


def test_no_advice_before_the_draw() -> None:
    """Outside a finished draw the advisor refuses with a stable code."""
    state = new_game(CATALOG, DEFAULT_NAMES[:2], 0)
    for code, player in (("NO_DRAW_WAITING", 0), ("BAD_PLAYER", 5)):
        try:
            advise(state, player)
        except AdviceError as exc:
            assert exc.code == code
        else:
            raise AssertionError("advice given before any draw")


def test_halfway_through_a_showing_it_plans_the_rest() -> None:
    """Once the guests are seated, asking again plans only the activations."""
    state, p = next(advised_showings(5))
    state = state.clone()
    for move in advise(state, p).best.plan.moves:
        if move.kind not in ("place", "to_exit"):
            break
        G.apply(state, move)
    rest = advise(state, p)
    assert all(m.kind not in ("place", "to_exit") for m in rest.best.plan.moves)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), by_hand=st.integers(1, 3))
def test_after_guests_seated_by_hand_it_seats_the_rest(seed, by_hand):
    """A table that seats some guests itself (a tap on a guest, one on a seat) and then asks
    again gets a plan that seats every guest still drawn, and whose moves all apply. (The
    plan once skipped a room's drawn guests when the room already held one seated by hand,
    and its activations then failed with PLACEMENT_NOT_DONE.)"""
    rng = random.Random(seed)
    tried = 0
    for state, p in advised_showings(seed, 4, limit=8):
        state = state.clone()
        for _ in range(by_hand):
            seats = [m for m in G.legal_moves(state, p) if m.kind == "place"]
            if len(state.at.get(P.hand(p), ())) < 2 or not seats:
                break
            G.apply(state, rng.choice(seats))
        else:
            tried += 1
            for option in advise(state, p).options:
                trial = replay(state, p, option, rng)
                assert not trial.at.get(P.hand(p)), "the plan left a drawn guest in hand"
    assert tried or by_hand > 1, "no showing had two drawn guests and a free seat"


def test_advised_games_play_to_the_end() -> None:
    """Games of advised seats against eager ones end normally."""
    for number in range(3):
        game = play_advised(CATALOG, 4, random.Random(number), advised={number % 4})
        assert game.state.is_over


def test_simulate_command_has_the_advisor_policy(capsys) -> None:
    """``simulate --policy advisor`` plays and says which policy it used."""
    assert main(["simulate", "--games", "1", "--policy", "advisor", "--seed", "3"]) == 0
    assert "advisor policy" in capsys.readouterr().out


def test_a_pending_step_comes_first() -> None:
    """While a player's award draw or drawn guest waits, the advisor refuses with
    ``PENDING_STEP``, the engine's own code for it."""
    rng = random.Random(4)
    state = new_game(CATALOG, DEFAULT_NAMES[:4], 0)
    refused = 0
    while state.phase != "over" and refused < 5:
        if state.phase == "showings":
            for p in range(state.n):
                if state.task_for(p) is not None and state.task_for(p).player == p:
                    try:
                        advise(state, p)
                    except AdviceError as exc:
                        assert exc.code == "PENDING_STEP"
                        refused += 1
                    else:
                        raise AssertionError("advice given over a pending step")
        G.apply_listed(state, random_move(state, rng, "eager"))
    assert refused


def test_the_weights_file_names_every_term() -> None:
    """The packaged weights load; a file missing a term, or with a word for a number, fails."""
    from companion.games.popcorn.advisor.weights import TERMS, Weights

    assert len(advice_weights().values) == len(TERMS)
    for terms in ({t: 1 for t in TERMS[1:]}, {**{t: 1 for t in TERMS}, "money": "a lot"}):
        try:
            Weights.from_dict({"terms": terms})
        except ValueError:
            continue
        raise AssertionError(f"weights accepted: {terms}")


def test_pruned_acting_orders_lose_nothing(monkeypatch) -> None:
    """The search tries other acting orders only where a bound says they could win; trying
    every order for every placement gives the same three placements and values."""
    from companion.games.popcorn.advisor import search

    weights = advice_weights()
    pruned = [[(pl.value, pl.key()) for pl in search.best_placements(state, p, weights)]
              for seed in range(6) for state, p in advised_showings(seed, 4, 30)]
    monkeypatch.setattr(search, "_reorder_bound", lambda arranged, rules: 1e9)
    full = [[(pl.value, pl.key()) for pl in search.best_placements(state, p, weights)]
            for seed in range(6) for state, p in advised_showings(seed, 4, 30)]
    assert pruned == full
