"""The public summary (engine/summary.py): every zone, whose turn, what is pending, and never
an award card's id."""

from __future__ import annotations

import json
import random

from companion.games.popcorn.engine import Move, new_game, play_random, state_summary
from companion.games.popcorn.views import public_view
from tests.engine.positions import CATALOG, dealt_game, end_turns, play


def test_the_summary_names_whose_buying_turn_it_is() -> None:
    """Rulebook, Phase 1: players take their turns in turn order; the summary says whose."""
    state = dealt_game(2)
    summary = state_summary(state)
    assert (summary["turn"], summary["turns_left"], summary["waiting"]) == ("Ana", 2, ["Ana"])
    play(state, Move("end_turn", player=0))
    assert state_summary(state)["turn"] == "Bob"
    end_turns(state)
    assert state_summary(state)["turn"] is None and state.phase == "showings"


def test_every_pawn_is_in_one_summarized_zone() -> None:
    """Rulebook, setup: 60 guests in the box, bags, exit zones and reserve; the summary lists
    each zone's pawns, and with the hands and seats they are every pawn in play."""
    game = play_random(CATALOG, 3, random.Random(2))
    state = new_game(CATALOG, game.names, game.first_player)
    for move in game.moves[:150]:
        state.apply(move)
    summary = state_summary(state)
    pawns = list(summary["reserve"])
    for player in summary["players"]:
        pawns += player["bag"] + player["exit"] + player["hand"]
        pawns += [p for seats in player["seats"] for p in seats if p is not None]
    assert sorted(pawns) == sorted(set(range(60)) - set(state.pawns_at(0)))
    for p, player in enumerate(summary["players"]):
        assert player["audience_space"] == state.players[p].audience
        assert player["used"] == [sorted(u) for u in state.players[p].used]
        assert player["covered"] == state.players[p].covered
        assert player["to_draw"] == (state.showings[p].to_draw if state.showings else 0)


def test_pending_steps_show_award_draws_without_the_cards() -> None:
    """Rulebook, setup: each player draws 2 awards and keeps 1, in secret; the summary shows the
    pending step and how many cards are drawn, never which."""
    state = new_game(CATALOG, ("Ana", "Bob"), 0)
    while not (state.tasks and state.tasks[0].kind == "award" and state.tasks[0].drawn):
        state.apply((state.chance_outcomes() or state.legal_moves())[0])
    summary = state_summary(state)
    first = summary["pending"][0]
    assert first == {"kind": "award", "player": "Ana", "drawn": 1, "remaining": 1}
    assert state.tasks[0].drawn[0] not in json.dumps(summary)


def test_the_public_view_says_whose_buying_turn_it_is() -> None:
    """Rulebook, Phase 1 (docs/api.md, the public view): ``turn`` is the seat whose Buying turn
    it is, and null in the Showings; ``current`` stays as it was for the dashboard."""
    state = dealt_game(2)
    play(state, Move("end_turn", player=0))
    assert (public_view(state)["turn"], public_view(state)["current"]) == (1, 1)
    end_turns(state)
    assert public_view(state)["turn"] is None
