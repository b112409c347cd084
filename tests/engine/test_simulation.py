"""A thousand random games, 2 to 4 players, from setup to final scoring without an error."""

from __future__ import annotations

import random
from collections import Counter

from companion.games.popcorn.engine import final_positions, play_random, score_game
from tests.engine.positions import CATALOG

ROUNDS = {2: range(7, 12), 3: range(7, 14), 4: range(7, 14)}
"""Game length (clarification 20, corrected by the rulebook: the Final Showing card is revealed
when it is drawn, so a game with no Premiers bought lasts 13 rounds with 3 or 4 players)."""


def test_one_thousand_games_play_to_the_end() -> None:
    """1,000 seeded games, a third each of 2, 3 and 4 players: all end and score."""
    lengths: Counter[int] = Counter()
    for number in range(1000):
        players = 2 + number % 3
        game = play_random(CATALOG, players, random.Random(number))
        assert game.state.is_over
        assert game.state.round in ROUNDS[players], (number, players, game.state.round)
        assert game.state.final_revealed and game.state.last_round
        score = score_game(CATALOG, final_positions(game.state))
        assert len(score.players) == players and score.winners
        for player in score.players:
            assert player.total == (player.bucket + player.money + player.trophy
                                    + sum(player.awards.values()))
        lengths[game.state.round] += 1
    assert len(lengths) > 1, "every game had the same length: chance is not reaching the deck"
