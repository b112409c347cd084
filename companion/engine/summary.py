"""What each player ends the game with, in the shape final scoring takes.

Before scoring, every guest a player owns is gathered (bag, hand, seats, exit zone) and
every movie still showing joins the archive, so "movies" is every movie owned.
"""

from __future__ import annotations

from .catalog import GUEST_COLORS
from .scoring import PlayerFinal
from .state import GameState


def final_position(state: GameState, player: int) -> PlayerFinal:
    """One player's belongings, as :func:`~.scoring.score_game` counts them."""
    ps = state.players[player]
    guests = dict.fromkeys(GUEST_COLORS, 0)
    for pawn in state.owned_pawns(player):
        guests[state.pawn_color[pawn]] += 1
    return PlayerFinal(
        name=state.names[player],
        bucket=ps.popcorn,
        money=ps.money,
        theaters=tuple(ps.theaters),
        movies=tuple(state.movies_owned(player)),
        guests=guests,
        audience=state.draw_value(player),
        ad_tokens=tuple(space for who, space, _ in state.board if who == player),
        awards=tuple(ps.awards),
    )


def final_positions(state: GameState) -> list[PlayerFinal]:
    """Every player's :func:`final_position`, in seat order."""
    return [final_position(state, p) for p in range(state.n)]


def state_summary(state: GameState) -> dict[str, object]:
    """A short public picture of the game: round, phase, and each player's table."""
    players = []
    for p in range(state.n):
        ps = state.players[p]
        final = final_position(state, p)
        players.append({
            "name": state.names[p], "money": ps.money, "popcorn": ps.popcorn,
            "audience": state.draw_value(p), "guests": final.guests,
            "theaters": list(ps.theaters), "movies": list(ps.movies),
            "archive": list(ps.archive), "awards": len(ps.awards),
            "tokens_on_board": list(final.ad_tokens),
        })
    return {
        "round": state.round, "phase": state.phase, "first_player": state.names[state.first_player],
        "last_round": state.last_round, "features": list(state.features),
        "premiers": list(state.premiers), "players": players,
    }
