"""Which slot a card bought goes into: the advisor's choice, so the tablet need not ask.

A movie or a theater tile can usually go into two or three slots. The table's screen used to
ask which one after every purchase; now the hub puts the card where this rule says, and one tap
on another slot moves it (``docs/advisor.md``, "Where a bought card goes"). The rule is
short, since a slot's worth comes from the guests who will sit there later:

- **a movie** goes where it will be shown to the most guests of its color: a slot with a
  theater and no movie first (a movie in an empty slot waits for a theater), then the theater
  with the most seats its color's guests may take (its color or grey), then the most seats;
  a movie already showing is covered only when every slot has one, and then the one with
  the fewest actions left in sight (the lobby slider covers the rest);
- **a theater tile** goes into a slot without a theater first, else over the smallest one.

Ties go to the leftmost slot.

**An advertising token** that a guest tapped on the reader activates (the table shows the
guest, not the token) is the one on the space of the guest's color first, then the
multicolor space's: the multicolor token, which may call any color, stays on the board.

Pure: it reads the state and the legal moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import GameState, Move


def suggested_buy(state: GameState, moves: Sequence[Move]) -> Move:
    """The move among ``moves`` (buys of one card into different slots) the advisor takes."""
    return min(moves, key=lambda move: _cost(state, move))


def suggested_ad(ads: Sequence[Move], color: str) -> Move | None:
    """The ``activate_ad`` move among ``ads`` that gains a guest of ``color``, as the hub
    takes it for a guest tapped on the reader: the token on that color's space first, then
    the multicolor space's called for that color; None when no token gains that color."""
    return next((m for m in ads if m.space == color), None) or next(
        (m for m in ads if m.space == "any" and m.color == color), None)


def gained_color(move: Move) -> str | None:
    """The color of the guest an ``activate_ad`` move gains: its space's, or the color the
    multicolor space calls."""
    return move.color if move.space == "any" else move.space


def _cost(state: GameState, move: Move) -> tuple[int, ...]:
    """How little a slot suits the bought card (lower is better), then the slot."""
    p, slot = move.player, move.slot
    assert p is not None and slot is not None
    theater = state.theater(p, slot)
    if move.kind == "buy_theater":
        return (0, 0, slot) if theater is None else (1, theater.seats, slot)
    color = state.catalog.movies[str(move.card)].color
    showing = state.movie(p, slot)
    covered = 0 if showing is None else 1
    if theater is None:
        return (covered, 2, 0, 0, slot)
    fits = sum(1 for c in theater.seat_colors if c in (color, "grey"))
    left = 0 if showing is None else state.visible_actions(p, slot)
    return (covered, 0 if showing is None else 1, left, -fits, -theater.seats, slot)
