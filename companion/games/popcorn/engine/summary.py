"""What each player ends the game with, in the shape final scoring takes, and the public
summary of a game at any moment.

Before scoring, every guest a player owns is gathered (bag, hand, seats, exit zone) and
every movie still showing joins the archive, so "movies" is every movie owned.
:func:`state_summary` is what ``popcorn-companion replay`` prints and what a referee reads.
"""

from __future__ import annotations

from . import pawns as P
from .buying import token_ready
from .catalog import GUEST_COLORS
from .scoring import PlayerFinal
from .state import GameState, Task


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
    """The public picture of a game at any moment, as plain JSON data.

    What everyone at the table can see or count: the round, the phase and whose Buying turn it
    is (``turn``, a name, or None outside the Buying phase), who must act now (``waiting``),
    the movie rows and theater columns, the pawns in the reserve, the tokens on the board,
    the pending steps (an award draw shows how many cards are drawn, never which), and per
    player the cinema, every zone's pawns, the audience space, the actions covered and used,
    and the guests still to draw. Award cards held are counted, not named.
    """
    buying = state.phase == "buying"
    return {
        "round": state.round, "phase": state.phase, "first_player": state.names[state.first_player],
        "turn": state.names[state.current] if buying else None,
        "turns_left": state.turns_left if buying else 0,
        "waiting": [state.names[p] for p in state.waiting_players()],
        "last_round": state.last_round, "features": list(state.features),
        "premiers": list(state.premiers),
        "columns": {str(size): list(tiles) for size, tiles in state.columns.items()},
        "deck": {"movies": len(state.movie_pool), "above_final": state.above_final,
                 "awards": len(state.award_pool) + len(state.award_queue)},
        "reserve": state.pawns_at(P.RESERVE),
        "board": [{"player": state.names[who], "space": space, "round": placed,
                   "ready": token_ready(state, placed)} for who, space, placed in state.board],
        "pending": [_step(state, task) for task in state.tasks],
        "players": [_player(state, p) for p in range(state.n)],
    }


def _player(state: GameState, p: int) -> dict[str, object]:
    ps = state.players[p]
    final = final_position(state, p)
    show = state.showings[p].to_dict() if state.showings else None
    return {
        "name": state.names[p], "money": ps.money, "popcorn": ps.popcorn,
        "audience": state.draw_value(p), "audience_space": ps.audience,
        "guests": final.guests, "theaters": list(ps.theaters), "movies": list(ps.movies),
        "archive": list(ps.archive), "awards": len(ps.awards), "tokens": ps.tokens,
        "tokens_on_board": list(final.ad_tokens),
        "bag": state.pawns_at(P.bag(p)), "exit": state.pawns_at(P.exit_zone(p)),
        "hand": state.pawns_at(P.hand(p)),
        "seats": [[state.occupant(p, slot, k) for k in range(_seat_count(state, p, slot))]
                  for slot in range(3)],
        "covered": list(ps.covered), "used": [sorted(u) for u in ps.used],
        "visible": [state.visible_actions(p, slot) for slot in range(3)],
        "to_draw": show["to_draw"] if show else 0, "showing": show,
    }


def _seat_count(state: GameState, p: int, slot: int) -> int:
    theater = state.theater(p, slot)
    return theater.seats if theater else 0


def _step(state: GameState, task: Task) -> dict[str, object]:
    """A pending step as the table sees it: its kind, its player's name, and what it waits for."""
    out: dict[str, object] = {"kind": task.kind,
                              "player": None if task.player is None else state.names[task.player]}
    if task.kind == "award":
        out.update(drawn=len(task.drawn), remaining=task.remaining)
    for key in ("color", "action", "size", "pawn"):
        if getattr(task, key) is not None:
            out[key] = getattr(task, key)
    return out
