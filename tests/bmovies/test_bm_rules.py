"""B Movies rules, one test per rule of the rulebook and per settled question (clarification N).

Every refused move is checked for its code and for leaving ``state.to_dict()`` unchanged.
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.bmovies.engine import (
    CODES,
    Facts,
    FactsError,
    Move,
    State,
    Violation,
    move_from_dict,
    new_game,
    play_random,
    studio_deals,
)
from tests.bmovies.turns import FACTS, draw_owed, game, pitch, refused, tiny_facts, turn, vote

# --- facts ------------------------------------------------------------------------------


def test_facts_match_the_components() -> None:
    """Rulebook, Components: 98 tokens (25/28/25/15/5), 6 vote sets of Yes, Yes!, No, 12
    studio cards = 6 studios x 2 copies. (The clarifications' "sum 169" is a slip: these
    counts add up to 143 points, and the rulebook's counts win.)"""
    assert FACTS.token_counts == (25, 28, 25, 15, 5)
    assert FACTS.tokens_total == 98
    assert sum(v * c for v, c in enumerate(FACTS.token_counts)) == 143
    assert FACTS.vote_cards == ("yes", "yes!", "no")
    assert (FACTS.studios, FACTS.studio_copies) == (6, 2)


def test_facts_clapboards_players_pitch_and_chart() -> None:
    """Rulebook, Setup and Hidden Team; clarification 1: 3-6 players, clapboards 5/4/3/3,
    pitches of 2-4 cards, and the Hidden Team chart."""
    assert (FACTS.min_players, FACTS.max_players) == (3, 6)
    assert FACTS.clapboards == {3: 5, 4: 4, 5: 3, 6: 3}
    assert (FACTS.pitch_min, FACTS.pitch_max) == (2, 4)
    assert FACTS.hidden_deal == {3: (2, 1), 4: (2, 2), 5: (2, 2, 1), 6: (2, 2, 2)}


def test_token_ids_run_through_values_ascending() -> None:
    """Spec: tokens are numbered 0..97 by value, ids 0-24 are 0s, 25-52 are 1s..."""
    assert [FACTS.token_value(t) for t in (0, 24, 25, 52, 53, 77, 78, 92, 93, 97)] == [
        0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    with pytest.raises(ValueError):
        FACTS.token_value(98)


def test_facts_round_trip_and_refuse_a_bad_document() -> None:
    """Facts are data: the document reads back equal, and a broken one is refused."""
    assert Facts.from_dict(FACTS.to_dict()) == FACTS
    broken = FACTS.to_dict()
    broken["hidden_deal"]["4"] = [2, 1]
    with pytest.raises(FactsError):
        Facts.from_dict(broken)
    with pytest.raises(FactsError):
        Facts.from_dict({"tokens": [1]})


# --- setup and rounds ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 7])
def test_player_count_outside_3_to_6_is_refused(n: int) -> None:
    """Clarification 1: 3 to 6 players."""
    with pytest.raises(Violation) as caught:
        new_game(FACTS, n)
    assert caught.value.code == "BAD_SETUP"


@pytest.mark.parametrize(("first", "variant"), [(3, "standard"), (-1, "standard"),
                                                (0, "teams")])
def test_bad_first_player_or_variant_is_refused(first: int, variant: str) -> None:
    """Spec new_game: the first player is a seat; the variant is standard or hidden."""
    with pytest.raises(Violation) as caught:
        new_game(FACTS, 3, first, variant)
    assert caught.value.code == "BAD_SETUP"


def test_round_one_starts_with_a_clapboard_discarded() -> None:
    """Rulebook, Rounds: each round begins with the first player discarding a clapboard;
    the first player pitches first."""
    state = game(3, first=1)
    assert (state.phase, state.round, state.rounds, state.clapboards) == ("pitch", 1, 5, 4)
    assert state.screenwriter == 1 and state.waiting_players() == [1]
    assert sum(state.bucket) == 98 and all(h == ("yes", "yes!", "no") for h in state.hands)


@pytest.mark.parametrize(("n", "rounds"), [(3, 5), (4, 4), (5, 3), (6, 3)])
def test_rounds_by_player_count(n: int, rounds: int) -> None:
    """Clarification 2: 3 players play 5 rounds, 4 play 4, 5 or 6 play 3; the game ends when
    the first player has no clapboard at a round's start."""
    _, state = play_random(FACTS, n, 11)
    assert state.is_over and state.round == rounds and state.clapboards == 0
    assert len(state.history) == n * rounds


def test_every_player_pitches_once_per_round_clockwise_from_the_first() -> None:
    """Clarification 2 and Rulebook, End of Turn: clockwise from the first player, who
    never changes."""
    state = game(4, first=2)
    while not state.is_over:
        turn(state, "no", cards=2)
    order = [t.screenwriter for t in state.history]
    assert order == [2, 3, 0, 1] * 4
    assert [t.round for t in state.history] == [r for r in (1, 2, 3, 4) for _ in range(4)]
    assert state.first_player == 2


def test_any_move_after_the_final_cut_is_refused() -> None:
    """Rulebook, Rounds: no clapboard left, the game is over (GAME_OVER)."""
    _, state = play_random(FACTS, 3, 2)
    refused(state, Move("pitch", player=state.screenwriter, cards=2), "GAME_OVER")
    assert state.legal_moves() == [] and state.chance_outcomes() == []
    assert state.waiting_players() == []


# --- pitch --------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [0, 1, 5])
def test_pitch_is_2_to_4_cards(cards: int) -> None:
    """Rulebook, Pitch: the screenwriter selects 2-4 cards."""
    refused(game(), Move("pitch", player=0, cards=cards), "BAD_PITCH_SIZE")
    assert [m.cards for m in game().legal_moves()] == [2, 3, 4]


def test_only_the_screenwriter_pitches() -> None:
    """Rulebook, Player Turns: the player whose turn it is is the screenwriter."""
    error = refused(game(), Move("pitch", player=1, cards=3), "NOT_YOUR_TURN")
    assert error.params["screenwriter"] == 0 and error.params["player"] == 1


def test_title_text_is_optional_and_bounded() -> None:
    """Spec pitch: an optional title of at most 120 characters."""
    refused(game(), Move("pitch", player=0, cards=3, title="x" * 121), "TITLE_TOO_LONG")
    state = game()
    pitch(state, 3, "x" * 120)
    assert state.pitch is not None and state.pitch.title == "x" * 120


def test_a_pitch_during_the_vote_is_refused() -> None:
    """Rulebook, Vote: once pitched, the producers vote (WRONG_PHASE)."""
    state = game()
    pitch(state)
    refused(state, Move("pitch", player=0, cards=2), "WRONG_PHASE")


def test_a_pitch_while_draws_are_owed_is_refused() -> None:
    """Spec flow: the next pitch waits until every owed draw is reported (DRAWS_PENDING)."""
    state = game()
    pitch(state)
    vote(state, {1: "no", 2: "no"})
    refused(state, Move("pitch", player=1, cards=2), "DRAWS_PENDING")


# --- vote ---------------------------------------------------------------------------------


def test_the_screenwriter_does_not_vote() -> None:
    """Clarification 3: producers are every player except the screenwriter."""
    state = game()
    pitch(state)
    assert state.producers() == [1, 2]
    refused(state, Move("vote", player=0, vote="yes"), "NOT_A_PRODUCER")


def test_a_vote_is_a_vote_card() -> None:
    """Rulebook, Setup: each player has Yes, Yes! and No (BAD_VOTE otherwise)."""
    state = game()
    pitch(state)
    refused(state, Move("vote", player=1, vote="maybe"), "BAD_VOTE")


def test_votes_stay_secret_until_the_last_producer_and_reveal_at_once() -> None:
    """Rulebook, Vote: all producers select a card face down, then all reveal."""
    state = game(4)
    pitch(state)
    vote(state, {1: "yes", 3: "no"})
    assert state.phase == "vote" and state.reveal is None
    assert state.voted() == [1, 3] and state.waiting_players() == [2]
    vote(state, {2: "no"})
    assert state.reveal is not None and state.reveal.votes == {1: "yes", 2: "no", 3: "no"}
    assert state.votes == {} and state.phase == "draw"


def test_a_producer_may_change_their_vote_before_the_reveal() -> None:
    """Spec vote: a new vote before the reveal replaces the old one."""
    state = game()
    pitch(state)
    vote(state, {1: "no"})
    assert any(m.player == 1 for m in state.legal_moves())
    vote(state, {1: "yes!", 2: "no"})
    assert state.reveal is not None and state.reveal.votes[1] == "yes!"
    assert state.reveal.made and state.hands[1] == ("yes", "no")


def test_yes_and_yes_bang_each_count_one_and_a_tie_is_made() -> None:
    """Rulebook, YES and clarification 3: Yes and Yes! count one Yes each; made when
    Yes >= No."""
    state = game(5)
    pitch(state, 2)
    vote(state, {1: "yes", 2: "yes!", 3: "no", 4: "no"})
    assert state.reveal is not None
    assert (state.reveal.yes, state.reveal.no, state.reveal.made) == (2, 2, True)


def test_more_no_than_yes_rejects() -> None:
    """Rulebook, NO and clarification 3: rejected when No > Yes; no movie."""
    state = game(4)
    pitch(state, 4)
    vote(state, {1: "yes!", 2: "no", 3: "no"})
    assert state.reveal is not None and not state.reveal.made
    assert state.movies[0] == []


def test_rejected_pitch_draws_one_per_no_voter() -> None:
    """Clarification 4: rejected, each No voter draws 1; Yes and Yes! voters none."""
    state = game(4)
    pitch(state, 4)
    vote(state, {1: "yes!", 2: "no", 3: "no"})
    assert state.reveal is not None and state.reveal.draws == {1: 0, 2: 1, 3: 1}
    assert state.owed == [0, 0, 1, 1]


def test_made_pitch_draws_one_per_yes_and_a_card_count_per_yes_bang() -> None:
    """Rulebook, YES and clarification 4: Yes draws 1, Yes! one per Title card, No none;
    the movie goes to the screenwriter with its title and round."""
    state = game(4)
    pitch(state, 4, "Attack of the Fifty Foot Popcorn")
    vote(state, {1: "yes", 2: "yes!", 3: "no"})
    assert state.owed == [0, 1, 4, 0]
    assert [(m.cards, m.title, m.round) for m in state.movies[0]] == [
        (4, "Attack of the Fifty Foot Popcorn", 1)]


def test_the_screenwriter_never_draws() -> None:
    """Clarification 4: the screenwriter never draws for their own pitch."""
    state = game()
    pitch(state, 4)
    vote(state, {1: "yes!", 2: "yes!"})
    assert state.owed[0] == 0 and 0 not in state.waiting_players()
    refused(state, Move("draw_token", player=0, value=1), "NO_DRAW_OWED")
    draw_owed(state)
    assert state.piles[0] == [] and len(state.piles[1]) == len(state.piles[2]) == 4


@pytest.mark.parametrize("outcome", ["made", "rejected"])
def test_yes_bang_is_removed_after_the_reveal_whatever_the_outcome(outcome: str) -> None:
    """Clarification 5 and Rulebook, End of Turn: Yes! leaves the game once revealed."""
    state = game(4)
    pitch(state)
    vote(state, {1: "yes!", 2: "yes" if outcome == "made" else "no", 3: "no"})
    assert state.reveal is not None and state.reveal.made == (outcome == "made")
    assert state.hands[1] == ("yes", "no") and state.hands[2] == ("yes", "yes!", "no")


def test_a_used_yes_bang_cannot_be_voted_again() -> None:
    """Clarification 5: a producer without a Yes! votes Yes or No (VOTE_CARD_GONE)."""
    state = game()
    turn(state, {1: "yes!", 2: "no"})
    turn(state, "no")
    pitch(state)
    assert state.screenwriter == 2
    refused(state, Move("vote", player=1, vote="yes!"), "VOTE_CARD_GONE")
    assert [m.vote for m in state.legal_moves(1)] == ["yes", "no"]


# --- draws --------------------------------------------------------------------------------


def test_a_draw_outside_the_draw_phase_is_refused() -> None:
    """Rulebook, Vote: tokens are drawn after the tally (WRONG_PHASE before)."""
    refused(game(), Move("draw_token", player=1, value=0), "WRONG_PHASE")


def test_a_producer_owed_nothing_cannot_draw() -> None:
    """Clarification 4: a made pitch gives No voters nothing (NO_DRAW_OWED)."""
    state = game(4)
    pitch(state)
    vote(state, {1: "yes", 2: "yes", 3: "no"})
    refused(state, Move("draw_token", player=3, value=0), "NO_DRAW_OWED")


def test_a_producer_cannot_draw_beyond_what_they_were_owed() -> None:
    """Clarification 4: a Yes voter draws exactly 1 (DRAW_BEYOND_OWED for a second)."""
    state = game()
    pitch(state, 3)
    vote(state, {1: "yes", 2: "yes!"})
    state.apply(Move("draw_token", player=1, value=2))
    refused(state, Move("draw_token", player=1, value=2), "DRAW_BEYOND_OWED")
    assert state.waiting_players() == [2] and state.owed == [0, 0, 3]


def test_a_tagged_token_names_its_value_and_is_drawn_once() -> None:
    """Spec draw_token: the token id's value must match (TOKEN_VALUE_MISMATCH) and a token
    in a pile cannot be drawn again (TOKEN_ALREADY_DRAWN)."""
    state = game()
    pitch(state, 2)
    vote(state, {1: "yes!", 2: "yes!"})
    refused(state, Move("draw_token", player=1, value=1, token=0), "TOKEN_VALUE_MISMATCH")
    state.apply(Move("draw_token", player=1, value=4, token=97))
    error = refused(state, Move("draw_token", player=2, value=4, token=97),
                    "TOKEN_ALREADY_DRAWN")
    assert error.params["owner"] == 1 and state.drawn == {97: 1}
    assert state.pile_tokens[1] == [97] and state.piles[1] == [4]


@pytest.mark.parametrize(("value", "token"), [(5, None), (1, 98)])
def test_a_value_or_token_id_out_of_range_is_bad(value: int, token: int | None) -> None:
    """Rulebook, Components: values 0-4, ids 0-97 (BAD_MOVE)."""
    state = game()
    pitch(state, 2)
    vote(state, {1: "no", 2: "no"})
    refused(state, Move("draw_token", player=1, value=value, token=token), "BAD_MOVE")


def test_no_token_of_a_value_left_in_the_bucket() -> None:
    """Rulebook, Components: the bucket holds 5 tokens of 4; here 1 (NO_TOKEN_OF_VALUE)."""
    state = game(facts=tiny_facts((25, 28, 25, 15, 1)))
    pitch(state, 2)
    vote(state, {1: "yes!", 2: "yes!"})
    state.apply(Move("draw_token", player=1, value=4))
    refused(state, Move("draw_token", player=2, value=4), "NO_TOKEN_OF_VALUE")
    assert [m.value for m in state.chance_outcomes(2)] == [0, 1, 2, 3]


def test_an_empty_bucket_cancels_the_draws_still_owed() -> None:
    """Clarification 6: an empty bucket gives nothing; the turn goes on."""
    state = game(facts=tiny_facts((1, 1, 0, 0, 0)))
    pitch(state, 4)
    vote(state, {1: "yes!", 2: "yes"})
    state.apply(Move("draw_token", player=1, value=0))
    state.apply(Move("draw_token", player=1, value=1))
    assert state.phase == "pitch" and state.screenwriter == 1 and state.owed == [0, 0, 0]
    last = state.history[-1]
    assert last.reveal.draws == {1: 4, 2: 1} and last.received == {1: 2, 2: 0}
    pitch(state, 2)
    vote(state, {0: "no", 2: "no"})
    assert state.phase == "pitch" and state.screenwriter == 2
    assert state.history[-1].reveal.draws == {0: 1, 2: 1}
    assert state.history[-1].received == {0: 0, 2: 0} and sum(state.bucket) == 0


def test_draw_outcomes_list_each_value_left_for_each_owed_player() -> None:
    """Spec chance_outcomes: draws without token ids, one per value left, per owed player."""
    state = game()
    pitch(state)
    vote(state, {1: "no", 2: "yes"})
    assert [(m.player, m.value) for m in state.chance_outcomes()] == [(2, v) for v in range(5)]
    assert state.chance_outcomes(1) == [] and state.legal_moves() == []


def test_after_the_draws_the_next_player_pitches_and_the_reveal_stays_visible() -> None:
    """Rulebook, End of Turn: the next player clockwise takes their turn."""
    state = game()
    turn(state, {1: "yes", 2: "no"})
    assert state.phase == "pitch" and state.screenwriter == 1
    assert state.reveal is not None and state.reveal.made
    assert state.history[-1].received == {1: 1, 2: 0}
    pitch(state)
    assert state.reveal is None


# --- hidden team --------------------------------------------------------------------------


def test_hidden_team_waits_for_the_studio_deal() -> None:
    """Rulebook, Hidden Team Variant: studios are dealt during setup, before round 1."""
    state = game(4, variant="hidden")
    assert (state.phase, state.round, state.clapboards) == ("setup", 0, 4)
    assert state.waiting_players() == [] and state.legal_moves() == []
    refused(state, Move("pitch", player=0, cards=2), "WRONG_PHASE")
    state.apply(Move("deal_studios", studios=(3, 5, 5, 3)))
    assert (state.phase, state.round, state.clapboards) == ("pitch", 1, 3)
    assert state.studios == [3, 5, 5, 3]
    refused(state, Move("deal_studios", studios=(3, 5, 5, 3)), "WRONG_PHASE")


def test_the_standard_game_has_no_deal() -> None:
    """Rulebook, Setup: in the standard game studio cards are face-up markers."""
    refused(game(3), Move("deal_studios", studios=(0, 0, 1)), "WRONG_PHASE")
    assert game(3).chance_outcomes() == []


@pytest.mark.parametrize(("n", "chart", "count"), [
    (3, [2, 1], 90), (4, [2, 2], 90), (5, [2, 2, 1], 1800), (6, [2, 2, 2], 1800)])
def test_hidden_team_deals_follow_the_chart(n: int, chart: list[int], count: int) -> None:
    """Clarification 9: 3 players 2+1, 4 players 2+2, 5 players 2+2+1, 6 players 2+2+2;
    every listed deal follows the chart and applies."""
    deals = studio_deals(FACTS, n)
    assert len(deals) == len(set(deals)) == count
    for deal in deals[:: max(1, count // 40)]:
        assert sorted(Counter(deal).values(), reverse=True) == chart
        state = game(n, variant="hidden")
        state.apply(Move("deal_studios", studios=deal))
        assert state.phase == "pitch"
    assert len(game(n, variant="hidden").chance_outcomes()) == count


@pytest.mark.parametrize(("n", "deal"), [
    (3, (0, 1, 2)), (3, (0, 0, 0)), (4, (0, 0, 1, 2)), (4, (0, 0, 1)), (5, (0, 0, 1, 1, 1)),
    (5, (0, 1, 2, 3, 4)), (6, (0, 0, 1, 1, 2, 3)), (6, (0, 0, 1, 1, 6, 6))])
def test_a_deal_off_the_chart_is_refused(n: int, deal: tuple[int, ...]) -> None:
    """Clarification 9: the deal must match the chart (BAD_STUDIO_DEAL)."""
    refused(game(n, variant="hidden"), Move("deal_studios", studios=deal), "BAD_STUDIO_DEAL")


# --- moves, codes, state ------------------------------------------------------------------


@pytest.mark.parametrize(("data", "code"), [
    ([], "BAD_MOVE"), ({"move": "dance"}, "UNKNOWN_MOVE"), ({"player": 0}, "UNKNOWN_MOVE"),
    ({"move": "pitch", "player": 0}, "BAD_MOVE"),
    ({"move": "pitch", "player": 0, "cards": 2, "vote": "yes"}, "BAD_MOVE"),
    ({"move": "vote", "player": "1", "vote": "yes"}, "BAD_MOVE"),
    ({"move": "vote", "player": 1, "vote": 3}, "BAD_MOVE"),
    ({"move": "draw_token", "player": 1, "value": -1}, "BAD_MOVE"),
    ({"move": "deal_studios", "studios": "0011"}, "BAD_MOVE")])
def test_malformed_moves_are_refused(data: object, code: str) -> None:
    """Spec move_from_dict: BAD_MOVE or UNKNOWN_MOVE for a malformed move."""
    with pytest.raises(Violation) as caught:
        move_from_dict(data)
    assert caught.value.code == code


def test_moves_round_trip_through_json() -> None:
    """Spec Move.to_dict drops None fields; move_from_dict reads it back equal."""
    for move in (Move("pitch", player=0, cards=2), Move("pitch", player=1, cards=4, title="T"),
                 Move("vote", player=2, vote="yes!"), Move("draw_token", player=1, value=3),
                 Move("draw_token", player=1, value=3, token=80),
                 Move("deal_studios", studios=(1, 1, 2))):
        assert move_from_dict(move.to_dict()) == move
    assert Move("pitch", player=0, cards=2).to_dict() == {"move": "pitch", "player": 0,
                                                          "cards": 2}


@pytest.mark.parametrize(("move", "code"), [
    (Move("dance", player=0), "UNKNOWN_MOVE"), (Move("pitch", player=0), "BAD_MOVE"),
    (Move("pitch", player=0, cards=2, vote="no"), "BAD_MOVE"),
    (Move("pitch", player=5, cards=2), "BAD_MOVE")])
def test_malformed_moves_built_in_python_change_nothing(move: Move, code: str) -> None:
    """Spec apply: check everything, raise with nothing changed."""
    state = game()
    before = state.to_dict()
    with pytest.raises(Violation) as caught:
        state.apply(move)
    assert caught.value.code == code and state.to_dict() == before


def test_every_code_has_a_meaning_and_the_contract_codes_exist() -> None:
    """Spec: the violation codes the other parts rely on."""
    for code in ("BAD_MOVE", "UNKNOWN_MOVE", "BAD_SETUP", "GAME_OVER", "WRONG_PHASE",
                 "NOT_YOUR_TURN", "BAD_PITCH_SIZE", "NOT_A_PRODUCER", "VOTE_CARD_GONE",
                 "NO_DRAW_OWED", "DRAW_BEYOND_OWED", "TOKEN_ALREADY_DRAWN",
                 "TOKEN_VALUE_MISMATCH", "NO_TOKEN_OF_VALUE", "BAD_STUDIO_DEAL",
                 "DRAWS_PENDING"):
        assert CODES[code]
    with pytest.raises(ValueError):
        Violation("NOPE", "x")


def test_state_round_trips_and_clones_independently() -> None:
    """Spec State: to_dict/from_dict give equal states; clone() is independent."""
    moves, _ = play_random(FACTS, 4, 5, "hidden")
    state = game(4, variant="hidden")
    for move in moves[:40]:
        state.apply(move)
    assert State.from_dict(state.to_dict()) == state
    assert State.from_dict(state.to_dict()).to_dict() == state.to_dict()
    copy = state.clone()
    assert copy == state
    copy.apply(moves[40])
    assert copy != state and State.from_dict(state.to_dict()) == state
    with pytest.raises(Violation) as caught:
        State.from_dict({"n": 3})
    assert caught.value.code == "BAD_STATE"


def test_waiting_players_follow_the_phases() -> None:
    """Spec waiting_players: screenwriter, then producers not voted, then owed players."""
    state = game(4)
    assert state.waiting_players() == [0]
    pitch(state)
    vote(state, {2: "no"})
    assert state.waiting_players() == [1, 3]
    vote(state, {1: "no", 3: "yes"})
    assert state.waiting_players() == [1, 2]


def test_secrets_stay_out_of_what_the_engine_lists_publicly() -> None:
    """Clarification 10: tokens (and votes before the reveal) are private; the engine's
    public answers (who voted, the outcomes, a finished turn) never carry a value."""
    state = game()
    pitch(state)
    vote(state, {1: "yes!"})
    assert state.voted() == [1] and state.reveal is None
    vote(state, {2: "yes"})
    state.apply(Move("draw_token", player=1, value=4, token=95))
    assert all(m.token is None for m in state.chance_outcomes())
    draw_owed(state, 3)
    last = state.history[-1].to_dict()
    assert last["received"] == {"1": 3, "2": 1}
    assert set(last) == {"round", "screenwriter", "cards", "title", "votes", "yes", "no",
                         "made", "draws", "received"}



def test_the_engine_is_pure() -> None:
    """Design, "the engine stays pure": B Movies' engine imports nothing from the rest of
    the project (not even Popcorn's engine) and does no I/O and reads no clock."""
    from pathlib import Path

    engine = Path(__file__).parents[2] / "companion" / "games" / "bmovies" / "engine"
    banned = ("import companion", "from companion", "open(", "import os", "import time",
              "import socket", "datetime", "print(", "from ..")
    files = list(engine.glob("*.py"))
    assert len(files) >= 7
    for path in files:
        text = path.read_text(encoding="utf-8")
        for word in banned:
            assert word not in text, f"{path.name} uses {word!r}"
        if path.name != "simulator.py":  # the simulator's generator is passed in
            assert "import random" not in text, path.name
