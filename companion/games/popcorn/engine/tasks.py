"""Pending steps: reveals, award draws, gained guests, bonus choices, draw-to-seat.

A pending :class:`~.state.Task` blocks its owner until it is resolved: a chance task by the
outcome the table reports, a decision task by the owner's choice. This module lists both and
applies them. Tasks that cannot do anything are dropped by :func:`settle_task`.
"""

from __future__ import annotations

from . import effects as E
from . import pawns as P
from .base_state import BaseState, Task
from .listing import listed, listed_each
from .moves import Move
from .violations import Violation, require


def chance_for(state: BaseState, task: Task) -> list[Move]:
    """The outcomes the table may report for a chance task (empty for a decision task)."""
    kind = task.kind
    if kind == "deal_starting":
        return listed_each("deal_starting", task.player, "card", state.starting_pool)
    if kind == "lineup":
        return listed_each("reveal_movie", None, "card", state.movie_pool)
    if kind == "theater":
        assert task.size is not None
        return listed_each("reveal_theater", None, "card", state.theater_pool[task.size])
    if kind == "award" and task.remaining > 0:
        return listed_each("draw_award", task.player, "card", state.award_pool)
    if kind == "draw_seat" and task.pawn is None:
        assert task.player is not None
        bag = state.pawns_at(P.bag(task.player))
        return listed_each("draw_pawn", task.player, "pawn", bag)
    return []


def decisions_for(state: BaseState, task: Task) -> list[Move]:
    """The choices open to the owner of a decision task (empty for a chance task)."""
    p = task.player
    kind = task.kind
    if kind == "award" and task.remaining == 0:
        return [listed("keep_award", player=p, card=c) for c in dict.fromkeys(task.drawn)]
    if kind == "gain":
        assert p is not None and task.color is not None
        if task.color == "white":
            return [listed("gain_pawn", player=p, pawn=i, target=t)
                    for i in E.white_sources(state, p) for t in range(state.n)]
        return listed_each("gain_pawn", p, "pawn", E.gain_sources(state, p, task.color))
    if kind == "bonus":
        assert p is not None and task.action is not None
        moves = [listed("bonus_action", player=p, pawn=i)
                 for i in E.action_options(state, p, task.action)]
        return [*moves, listed("decline", player=p)]
    if kind == "draw_seat" and task.pawn is not None:
        assert p is not None
        seats = draw_seat_targets(state, p)
        if not seats:
            return [listed("to_exit", player=p, pawn=task.pawn)]
        return [listed("place", player=p, pawn=task.pawn, slot=s, seat=k) for s, k in seats]
    return []


def draw_seat_targets(state: BaseState, player: int) -> list[tuple[int, int]]:
    """Seats not yet activated this showing that a drawn guest may take.

    In a theater not resolved yet: any occupied seat (its guest is pushed to the exit zone)
    or the first empty seat. In the theater being resolved: the same, after the acting seat.
    """
    show = state.showings[player]
    out = []
    for slot in range(3):
        theater = state.theater(player, slot)
        if theater is None or state.movie(player, slot) is None or show.activated[slot]:
            continue
        start = show.cursor + 1 if slot == show.active else 0
        first_empty = next((k for k in range(start, theater.seats)
                            if state.occupant(player, slot, k) is None), None)
        for k in range(start, theater.seats):
            if k == first_empty or state.occupant(player, slot, k) is not None:
                out.append((slot, k))
    return out


# -- applying --------------------------------------------------------------------------------


def _front(state: BaseState, move: Move, kinds: tuple[str, ...]) -> Task:
    task = state.task_for(move.player)
    require(task is not None and task.kind in kinds, "NOT_EXPECTED",
            lambda: f"No step waits for {move.kind} now.")
    assert task is not None
    owner = task.player
    if owner is not None:
        require(move.player == owner, "NOT_YOUR_TURN",
                lambda: f"{state.names[owner]} must resolve this step first.")
    return task


def apply_deal_starting(state: BaseState, move: Move) -> None:
    """A starting movie dealt to a player: it shows in slot 0, with its extra guest."""
    task = _front(state, move, ("deal_starting",))
    require(move.card in state.starting_pool, "CARD_NOT_AVAILABLE",
            lambda: f"{move.card} is not a starting movie still to deal.")
    assert move.card is not None and task.player is not None
    state.starting_pool.remove(move.card)
    p = task.player
    state.players[p].movies[0] = move.card
    color = state.catalog.movies[move.card].color
    extra = [i for i in state.pawns_at(P.RESERVE) if state.pawn_color[i] == color]
    for pawn in extra[: state.catalog.guest_setup.bag_extra_of_starting_color]:
        state.move_pawn(pawn, P.bag(p))
    state.tasks.remove(task)


def apply_reveal_movie(state: BaseState, move: Move) -> None:
    """A movie card revealed into the first row that is not full (Features, then Premiers)."""
    _front(state, move, ("lineup",))
    require(move.card in state.movie_pool, "CARD_NOT_AVAILABLE",
            lambda: f"{move.card} is not in the movie deck.")
    _reveal_movie(state, move)


def _reveal_movie(state: BaseState, move: Move) -> None:
    assert move.card is not None
    state.movie_pool.remove(move.card)
    if state.above_final > 0:
        state.above_final -= 1
    size = state.catalog.guest_setup.row_size
    row = state.features if len(state.features) < size else state.premiers
    row.append(move.card)


def apply_reveal_theater(state: BaseState, move: Move) -> None:
    """A theater tile revealed into the column of its size."""
    task = _front(state, move, ("theater",))
    assert task.size is not None
    require(move.card in state.theater_pool[task.size], "CARD_NOT_AVAILABLE",
            lambda: f"{move.card} is not in the {task.size}-seat theater stack.")
    _reveal_theater(state, move)


def _reveal_theater(state: BaseState, move: Move) -> None:
    task = state.task_for(move.player)
    assert task is not None and task.size is not None and move.card is not None
    size = task.size
    state.theater_pool[size].remove(move.card)
    state.columns[size].append(move.card)


def apply_draw_award(state: BaseState, move: Move) -> None:
    """An award card drawn by a player (kept or returned by the next decision)."""
    task = _front(state, move, ("award",))
    require(task.remaining > 0, "NOT_EXPECTED", "Both award cards are drawn: keep one.")
    require(move.card in state.award_pool, "CARD_NOT_AVAILABLE",
            lambda: f"{move.card} is not in the award deck.")
    _draw_award(state, move)


def _draw_award(state: BaseState, move: Move) -> None:
    task = state.task_for(move.player)
    assert task is not None and move.card is not None
    state.award_pool.remove(move.card)
    task.drawn.append(move.card)
    task.remaining -= 1


EFFECTS = {"reveal_movie": _reveal_movie, "reveal_theater": _reveal_theater,
           "draw_award": _draw_award}
"""What the frequent reveals and draws do once they are known to be legal: each ``apply_``
handler checks its move and ends by calling one of these (see :func:`.game.apply_listed`)."""


def apply_keep_award(state: BaseState, move: Move) -> None:
    """The player keeps one drawn award; the other goes under the deck."""
    task = _front(state, move, ("award",))
    require(task.remaining == 0, "PENDING_STEP", "Draw both award cards first.")
    require(move.card in task.drawn, "AWARD_NOT_DRAWN",
            lambda: f"{move.card} is not one of the awards just drawn ({', '.join(task.drawn)}).")
    assert move.card is not None and task.player is not None
    state.players[task.player].awards.append(move.card)
    rest = list(task.drawn)
    rest.remove(move.card)
    state.award_queue.extend(rest)
    state.tasks.remove(task)


def apply_gain_pawn(state: BaseState, move: Move) -> None:
    """The guest a player takes for a Premiers purchase or an advertising token."""
    task = _front(state, move, ("gain",))
    p, color, pawn = task.player, task.color, move.pawn
    assert p is not None and color is not None and pawn is not None
    require(0 <= pawn < len(state.loc), "BAD_MOVE", lambda: f"There is no pawn {pawn}.")
    if color == "white":
        require(move.target is not None and move.target < state.n, "BAD_TARGET",
                "Say which player's bag the white guest goes into.")
        require(pawn in E.white_sources(state, p), "PAWN_NOT_AVAILABLE",
                lambda: f"Pawn {pawn} ({state.pawn_color[pawn]}) is in {state.where(pawn)}: "
                "the white guest comes from the reserve or your own cinema.")
        assert move.target is not None
        state.move_pawn(pawn, P.bag(move.target))
    else:
        require(move.target is None, "BAD_MOVE", "Only the white space sends a guest elsewhere.")
        _check_gain(state, p, color, pawn)
        state.move_pawn(pawn, P.bag(p))
    state.tasks.remove(task)


def _check_gain(state: BaseState, p: int, color: str, pawn: int) -> None:
    sources = E.gain_sources(state, p, color)
    if pawn in sources:
        return
    where = state.where(pawn)
    if state.pawn_color[pawn] != color:
        raise Violation("PAWN_NOT_AVAILABLE", f"Pawn {pawn} is {state.pawn_color[pawn]}, "
                        f"but {state.names[p]} gains a {color} guest.")
    if sources and state.loc[pawn] != P.RESERVE and state.loc[sources[0]] == P.RESERVE:
        raise Violation("RESERVE_FIRST", f"Pawn {pawn} is in {where}, but the reserve still "
                        f"has a {color} guest: take that one.")
    raise Violation("PAWN_NOT_AVAILABLE", f"Pawn {pawn} is in {where}: a gained guest comes "
                    "from the reserve, else from another player's exit zone.")


def apply_bonus_action(state: BaseState, move: Move) -> None:
    """The pawn chosen for a showing bonus such as ``exit_to_bag``."""
    task = _front(state, move, ("bonus",))
    assert task.player is not None and task.action is not None
    E.check_action(state, task.player, task.action, move.pawn)
    state.tasks.remove(task)
    E.do_action(state, task.player, task.action, move.pawn)


def apply_decline(state: BaseState, move: Move) -> None:
    """The player gives up an optional bonus choice."""
    task = _front(state, move, ("bonus",))
    state.tasks.remove(task)


def settle_task(state: BaseState, task: Task) -> bool:
    """Resolve what needs no one: drop a task that can do nothing, apply a known outcome.

    Returns True when it changed something.
    """
    kind = task.kind
    if kind == "deal_starting":
        return _drop_if(state, task, not state.starting_pool)
    if kind == "lineup":
        return _settle_lineup(state, task)
    if kind == "theater":
        return _settle_theater(state, task)
    if kind == "award":
        return _settle_award(state, task)
    if kind == "gain":
        assert task.player is not None and task.color is not None
        if task.color == "white":
            return _drop_if(state, task, not E.white_sources(state, task.player))
        return _drop_if(state, task, not E.gain_sources(state, task.player, task.color))
    if kind == "bonus":
        assert task.player is not None and task.action is not None
        return _drop_if(state, task, not E.action_options(state, task.player, task.action))
    if kind == "draw_seat" and task.pawn is None:
        assert task.player is not None
        if state.pawns_at(P.bag(task.player)):
            return False
        refilled = refill_bag(state, task.player)
        return refilled or _drop_if(state, task, True)
    return False


def _drop_if(state: BaseState, task: Task, condition: bool) -> bool:
    if condition:
        state.tasks.remove(task)
    return condition


def _settle_lineup(state: BaseState, task: Task) -> bool:
    size = state.catalog.guest_setup.row_size
    if len(state.premiers) >= size or (not state.movie_pool and state.above_final == 0
                                       and state.final_revealed):
        return _drop_if(state, task, True)
    if state.above_final == 0 and not state.final_revealed:
        state.final_revealed = True
        state.last_round = state.phase != "setup"
        return True
    return _drop_if(state, task, not state.movie_pool)


def _settle_theater(state: BaseState, task: Task) -> bool:
    assert task.size is not None
    column = state.columns[task.size]
    if len(column) >= state.catalog.guest_setup.column_size:
        return _drop_if(state, task, True)
    if state.theater_pool[task.size]:
        return False
    queue = state.theater_queue[task.size]
    if queue:
        column.append(queue.pop(0))
        return True
    return _drop_if(state, task, True)


def _settle_award(state: BaseState, task: Task) -> bool:
    if task.remaining > 0 and not state.award_pool:
        if state.award_queue:
            task.drawn.append(state.award_queue.pop(0))
            task.remaining -= 1
            return True
        task.remaining = 0
        return _drop_if(state, task, not task.drawn)
    return False


def refill_bag(state: BaseState, player: int) -> bool:
    """Pour the exit zone into the empty bag; True if any guest moved."""
    exits = state.pawns_at(P.exit_zone(player))
    for pawn in exits:
        state.move_pawn(pawn, P.bag(player))
    return bool(exits)
