"""What each action does, whether it can be taken, and the choices it offers.

Actions are the catalog's vocabulary (``money_2``, ``audience_up``, ``exit_to_bag``, ...).
The amount of a ``money_N`` or ``popcorn_N`` action is read from its id, which is data.
Each action is checked by :func:`check_action` before :func:`do_action` changes anything,
and :func:`action_options` lists the parameter choices that make it legal.
"""

from __future__ import annotations

from . import pawns as P
from .base_state import BaseState, Task
from .violations import Violation, require

PAWN_ACTIONS = frozenset({"exit_to_bag", "guest_to_reserve"})
"""Actions whose move names the pawn they act on."""


def amount(action: str) -> int:
    """The number in ``money_N`` or ``popcorn_N``."""
    return int(action.rsplit("_", 1)[1])


def ad_space(action: str) -> str | None:
    """The advertising space an ``ad_<space>`` action places a token on, else None."""
    return action[3:] if action.startswith("ad_") else None


def award_deck_size(state: BaseState) -> int:
    """Award cards left in the deck."""
    return len(state.award_pool) + len(state.award_queue)


def exit_pawns(state: BaseState, player: int) -> list[int]:
    """Guests in the player's exit zone."""
    return state.pawns_at(P.exit_zone(player))


def gain_sources(state: BaseState, player: int, color: str) -> list[int]:
    """Pawns a player may take for "gain a guest of ``color``".

    The reserve first; only when it has none of that color, another player's exit zone;
    never the player's own. An empty list means nothing happens.
    """
    colors = state.pawn_color
    reserve = [i for i in state.pawns_at(P.RESERVE) if colors[i] == color]
    if reserve:
        return reserve
    others = [i for q in range(state.n) if q != player for i in state.pawns_at(P.exit_zone(q))]
    return sorted(i for i in others if colors[i] == color)


def white_sources(state: BaseState, player: int) -> list[int]:
    """White guests for the white advertising space: the reserve or the player's cinema."""
    colors = state.pawn_color
    pool = state.pawns_at(P.RESERVE) + state.cinema_pawns(player)
    return sorted(i for i in pool if colors[i] == "white")


def usable(state: BaseState, player: int, action: str) -> bool:
    """Whether taking ``action`` now can do something (some choice of pawn exists)."""
    if action == "none" or action == "movie_action":
        return False
    if ad_space(action):
        return state.players[player].tokens > 0
    if action == "exit_to_bag":
        return bool(exit_pawns(state, player))
    if action == "guest_to_reserve":
        return bool(state.cinema_pawns(player))
    if action == "award_draw":
        return award_deck_size(state) > 0
    if action == "draw_guest_to_seat":
        return bool(state.at.get(P.bag(player)) or state.at.get(P.exit_zone(player)))
    return True


def action_options(state: BaseState, player: int, action: str) -> list[int | None]:
    """The pawn choices that make ``action`` legal (``[None]`` when it takes no pawn)."""
    if not usable(state, player, action):
        return []
    if action == "exit_to_bag":
        return list(exit_pawns(state, player))
    if action == "guest_to_reserve":
        return list(state.cinema_pawns(player))
    return [None]


def check_action(state: BaseState, player: int, action: str, pawn: int | None) -> None:
    """Raise a violation unless ``action`` with ``pawn`` can be taken now."""
    require(action not in ("none", "movie_action"), "ACTION_NOT_USABLE",
            "That action space is blank.")
    if ad_space(action):
        require(state.players[player].tokens > 0, "NO_TOKEN_LEFT",
                lambda: f"{state.names[player]} has no advertising token left to place.")
    if action in PAWN_ACTIONS:
        require(pawn is not None, "BAD_MOVE", lambda: f"{action} needs the pawn it moves.")
        assert pawn is not None
        _check_pawn_id(state, pawn)
        if action == "exit_to_bag":
            require(state.loc[pawn] == P.exit_zone(player), "PAWN_NOT_IN_EXIT",
                    lambda: f"Pawn {pawn} is in {state.where(pawn)}, not in "
                    f"{state.names[player]}'s exit zone.")
        else:
            require(pawn in state.cinema_pawns(player), "PAWN_NOT_IN_CINEMA",
                    lambda: f"Pawn {pawn} is in {state.where(pawn)}: only a guest on a seat or in "
                    f"the exit zone of {state.names[player]} can go to the reserve.")
        return
    require(pawn is None, "BAD_MOVE", lambda: f"{action} does not take a pawn.")
    require(usable(state, player, action), "ACTION_NOT_USABLE",
            lambda: f"{action} can do nothing now for {state.names[player]}.")


def _check_pawn_id(state: BaseState, pawn: int) -> None:
    if not 0 <= pawn < len(state.loc):
        raise Violation("BAD_MOVE", f"There is no pawn {pawn}.")


def do_action(state: BaseState, player: int, action: str, pawn: int | None = None) -> None:
    """Apply an action already checked by :func:`check_action`."""
    ps = state.players[player]
    if action.startswith("money_"):
        ps.money += amount(action)
    elif action.startswith("popcorn_"):
        ps.popcorn += amount(action)
    elif action == "audience_up":
        audience_up(state, player)
    elif action == "award_draw":
        if award_deck_size(state):
            award = state.catalog.guest_setup
            state.tasks.append(Task("award", player, remaining=award.award_draw))
    elif action == "draw_guest_to_seat":
        state.tasks.append(Task("draw_seat", player))
    elif action == "exit_to_bag":
        assert pawn is not None
        state.move_pawn(pawn, P.bag(player))
    elif action == "guest_to_reserve":
        assert pawn is not None
        state.move_pawn(pawn, P.RESERVE)
    elif (space := ad_space(action)) is not None:
        if ps.tokens > 0:
            ps.tokens -= 1
            state.board.append((player, space, state.round))
    else:  # pragma: no cover - the catalog loader rejects unknown actions
        raise Violation("ACTION_NOT_USABLE", f"unknown action {action!r}")


def audience_up(state: BaseState, player: int) -> None:
    """Move the audience cube one space and take that space's bonus (past the end: popcorn)."""
    ps = state.players[player]
    if ps.audience >= state.catalog.last_audience_index:
        do_action(state, player, state.catalog.audience_past_end)
        return
    ps.audience += 1
    bonus = state.catalog.audience_track[ps.audience].bonus
    if bonus:
        do_action(state, player, bonus)


def immediate(action: str) -> bool:
    """Whether an action needs no further choice (it can be applied right away as a bonus)."""
    return action not in PAWN_ACTIONS
