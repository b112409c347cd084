"""Setting up a game: the fixed part of the setup, then the dealt part as chance steps.

:func:`new_game` lays out what needs no luck: money by seat from the first player, the
default theaters, and the guests (each player's bag and exit zone, the reserve, the box).
What the table deals is left as pending chance steps, in this order (any order gives the
same game): each player's starting movie (with its extra guest from the reserve), the
Features then the Premiers row, the three theater columns, and each player's two award
cards, of which they keep one.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import pawns as P
from .catalog import COLORS, Catalog
from .flow import settle
from .state import GameState, PlayerState, Task
from .violations import Violation


def new_game(catalog: Catalog, names: Sequence[str], first_player: int = 0) -> GameState:
    """A game for 2 to 4 named players, waiting for the first dealt card.

    Money, theaters and guests are laid out; the dealt part of the setup (starting movies, the
    movie rows, the theater columns, the awards) waits as chance steps: report each with the
    moves :func:`~.game.chance_outcomes` lists, and each award kept with ``keep_award``. The
    phase becomes ``buying`` once the last one is resolved. Bad names or seats are
    ``BAD_MOVE``.
    """
    names = tuple(names)
    if len(names) not in catalog.setups:
        raise Violation("BAD_MOVE", f"Popcorn is for 2 to 4 players, not {len(names)}.")
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise Violation("BAD_MOVE", "Each player needs a distinct, non-empty name.")
    if not 0 <= first_player < len(names):
        raise Violation("BAD_MOVE", f"There is no seat {first_player} for the first player.")
    state = GameState(catalog, names, first_player)
    _players(state)
    _guests(state)
    _decks(state)
    order = [(first_player + i) % state.n for i in range(state.n)]
    state.tasks = [Task("deal_starting", p) for p in order]
    state.tasks.append(Task("lineup"))
    state.tasks += [Task("theater", size=s) for s in catalog.theater_sizes()]
    draw = catalog.guest_setup.award_draw
    state.tasks += [Task("award", p, remaining=draw) for p in order]
    settle(state)
    return state


def _players(state: GameState) -> None:
    catalog = state.catalog
    money = catalog.setups[state.n].starting_money
    defaults: list[str | None] = [t.id for t in catalog.default_theaters]
    defaults += [None] * (3 - len(defaults))
    state.players = [PlayerState(0, list(defaults), catalog.tokens_per_player)
                     for _ in range(state.n)]
    for i, amount in enumerate(money):
        state.players[(state.first_player + i) % state.n].money = amount


def _guests(state: GameState) -> None:
    setup = state.catalog.guest_setup
    free = {c: [i for i, pc in enumerate(state.pawn_color) if pc == c] for c in ("white", *COLORS)}

    def take(color: str, count: int, loc: int) -> None:
        if len(free[color]) < count:
            raise Violation("BAD_MOVE", f"The box has too few {color} guests for this setup.")
        for pawn in free[color][:count]:
            state.move_pawn(pawn, loc)
        del free[color][:count]

    for p in range(state.n):
        for color, count in setup.bag.items():
            take(color, count, P.bag(p))
        for color, count in setup.exit_zone.items():
            take(color, count, P.exit_zone(p))
    for color in COLORS:
        take(color, setup.reserve_per_color, P.RESERVE)


def _decks(state: GameState) -> None:
    catalog = state.catalog
    state.movie_pool = sorted(m.id for m in catalog.regular_movies)
    below = catalog.setups[state.n].final_showing_below
    state.above_final = len(state.movie_pool) - below
    state.starting_pool = sorted(m.id for m in catalog.starting_movies)
    for size in catalog.theater_sizes():
        state.theater_pool[size] = sorted(t.id for t in catalog.theaters.values()
                                          if t.seats == size)
        state.theater_queue[size] = []
        state.columns[size] = []
    state.award_pool = sorted(catalog.awards)
