"""The steps nobody decides: phase changes, refills, guests with nothing left to do.

:func:`settle` runs after every move. It repeats until nothing changes:

* drops pending steps that can do nothing, and applies outcomes that are already known
  (the Final Showing card when no unknown card is left above it, a tile or award card
  whose place under the deck is known);
* passes the Buying turn of a player who can do nothing but pass, and starts the Showings
  after the last turn;
* refills an empty bag when a draw is due, sends a guest with nothing left to do to the
  exit zone, and ends the round when every player is done;
* runs the End of Round (theatrical run, new lineup, first player) or ends the game after
  the last round.
"""

from __future__ import annotations

from . import buying as B
from . import pawns as P
from . import showing_choices as C
from . import showings as S
from . import tasks as T
from .base_state import BaseState, Showing, Task


def settle(state: BaseState) -> None:
    """Apply every automatic step until the game waits for a move."""
    while state.phase != "over" and _step(state):
        pass


def _step(state: BaseState) -> bool:
    if state.tasks:
        for task in state.front_tasks():
            if T.settle_task(state, task):
                return True
    if state.phase == "setup":
        return not state.tasks and _start_round(state)
    if state.phase == "buying":
        return not state.tasks and _buying_step(state)
    if state.phase == "showings":
        return _showings_step(state)
    return False


def _start_round(state: BaseState) -> bool:
    for ps in state.players:
        ps.bought_movie = ps.bought_theater = False
    state.round += 1
    state.phase = "buying"
    state.current = state.first_player
    state.turns_left = state.n
    return True


def _buying_step(state: BaseState) -> bool:
    if state.turns_left == 0:
        state.phase = "showings"
        state.showings = [Showing(state.draw_value(p)) for p in range(state.n)]
        return True
    if not B.has_choice(state):  # only end_turn: nothing to buy, no token to use
        B.next_turn(state)
        return True
    return False


def _showings_step(state: BaseState) -> bool:
    for p, show in enumerate(state.showings):
        if show.to_draw > 0 and state.at.get(P.bag(p)):
            continue  # a draw is due and the bag holds guests: the table draws
        if show.to_draw == 0 and show.active == -1:
            continue  # no draw due, no guest acting
        if state.task_for(p) is None and _player_step(state, p):
            return True
    if not state.tasks and C.all_done(state):
        end_round(state)
        return True
    return False


def _player_step(state: BaseState, p: int) -> bool:
    show = state.showings[p]
    if show.to_draw > 0:
        if state.at.get(P.bag(p)):
            return False
        if not T.refill_bag(state, p):
            show.to_draw = 0
        return True
    if show.active == -1:
        return False
    pawn = state.occupant(p, show.active, show.cursor)
    if pawn is None or not C.guest_has_choice(state, p, show.active):
        S.finish_guest(state, p)
        return True
    return False


def end_round(state: BaseState) -> None:
    """End of Round, or the end of the game after the last round's Showings."""
    state.showings = []
    if state.last_round:
        state.phase = "over"
        return
    for ps in state.players:
        for slot, movie in enumerate(ps.movies):
            if movie:
                size = len(state.catalog.movies[movie].actions)
                ps.covered[slot] = min(size, ps.covered[slot] + 1)
        ps.used = [set(), set(), set()]
    state.features = state.premiers
    state.premiers = []
    state.tasks.append(Task("lineup"))
    state.first_player = (state.first_player + 1) % state.n
    _start_round(state)
