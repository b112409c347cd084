"""The advisor policy's advertising tokens: the ones the hub takes for a guest tapped on the
reader, as a table that takes every suggestion activates them."""

from __future__ import annotations

import random

from companion.games.popcorn.advisor.buying import gained_color, suggested_ad
from companion.games.popcorn.advisor.policy import play_advised
from companion.games.popcorn.engine import new_game
from companion.games.popcorn.facts_file import load_catalog

CATALOG = load_catalog()


def test_an_advised_player_activates_the_token_the_hub_would_take() -> None:
    checked = spare = 0
    for seed in range(1, 9):
        game = play_advised(CATALOG, 4, random.Random(f"taps:{seed}"), names=list("ABCD"))
        state = new_game(CATALOG, list(game.names), game.first_player)
        for move in game.moves:
            if move.kind == "activate_ad":
                ads = [m for m in state.legal_moves(move.player) if m.kind == "activate_ad"]
                color = gained_color(move)
                assert color is not None and suggested_ad(ads, color) == move
                checked += 1
                spare += sum(gained_color(m) == color for m in ads) > 1  # a choice was open
            state.apply(move)
    assert checked > 10 and spare > 0  # the games have ads, and some with two tokens for one color
