"""A small model of one theater's resolution, fast enough to try every placement.

The search (:mod:`.search`) asks the same question thousands of times: "these guests sit in
this theater in this order; what is the best their seat and movie actions can bring?". Asking
the engine would mean cloning the whole game for every try, so this module answers it on a
few numbers instead: a :class:`Context` holds what the actions read and change (advertising
tokens, the audience cube, the award deck, the bag and the exit zone), and a gains tuple
counts what they bring in the order of :data:`.weights.TERMS`.

The model follows the engine's rules for the actions it takes (grey or same-colored seats,
movie actions of the guest's color, each movie action once a round, an action is taken only
when the engine would call it usable). It does not pick every pawn the engine would allow:
``exit_to_bag`` sends back the most useful colored guest of the exit zone and
``guest_to_reserve`` only sends a white guest of the exit zone away. A plan it chooses is
replayed through the engine (:mod:`.plan`), and a property test checks that the engine
measures exactly the gains the model predicted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..engine.catalog import GUEST_COLORS, Catalog
from ..engine.effects import amount
from .weights import Weights

Gains = tuple[int, int, int, int, int, int]
"""Money, popcorn, audience steps, guests gained, award draws, white guests culled."""

NO_GAINS: Gains = (0, 0, 0, 0, 0, 0)
WHITE = GUEST_COLORS.index("white")


class Context(NamedTuple):
    """What a guest's actions read and change, as they stand when the guest acts.

    The model builds new contexts with the constructor rather than ``_replace``, which is
    several times slower and sits in the search's innermost loop.
    """

    tokens: int
    """Advertising tokens in the player's supply."""
    audience: int
    """Index of the audience cube."""
    deck: int
    """Award cards left in the deck."""
    bag: int
    """Guests in the player's bag."""
    exit: tuple[int, ...]
    """Guests in the player's exit zone, counted per color of ``GUEST_COLORS``."""


class Choice(NamedTuple):
    """What one guest does: the seat action and the movie action it takes, if any.

    Each is ``(index, color)``: ``index`` is the movie action's index (``None`` for a seat
    action that is not ``movie_action``), ``color`` the color of the pawn the action moves
    (``exit_to_bag``, ``guest_to_reserve``), else ``None``.
    """

    seat: tuple[int | None, str | None] | None
    movie: tuple[int, str | None] | None


@dataclass(frozen=True)
class Rules:
    """The fixed facts the model needs: the audience track and the player's color taste."""

    bonuses: tuple[str | None, ...]
    """The entry bonus of each audience space."""
    past_end: str
    """The action an ``audience_up`` gives once the cube is on the last space."""
    keep_order: tuple[int, ...]
    """Colored guests the player would rather have back in the bag, best first (indexes)."""
    weights: Weights

    @classmethod
    def build(cls, catalog: Catalog, movie_colors: Sequence[str], weights: Weights) -> Rules:
        """The rules for a player whose movies show ``movie_colors`` (slot order)."""
        liked = [c for c in movie_colors if c != "white"]
        order = list(dict.fromkeys([*liked, *GUEST_COLORS[1:]]))
        return cls(tuple(s.bonus for s in catalog.audience_track), catalog.audience_past_end,
                   tuple(GUEST_COLORS.index(c) for c in order), weights)


@dataclass(frozen=True)
class Theater:
    """One theater as the model sees it: its seats, and the movie actions still free."""

    slot: int
    seat_colors: tuple[str, ...]
    seat_actions: tuple[str, ...]
    movie_color: str
    free_actions: tuple[tuple[int, str], ...]
    """``(index, action)`` of each uncovered movie action not used yet this round."""


class Outcome(NamedTuple):
    """The best resolution found: its value, gains, each guest's choice, the context after."""

    value: float
    gains: Gains
    choices: tuple[Choice, ...]
    after: Context


READS: dict[str, frozenset[str]] = {
    "audience_up": frozenset({"audience", "deck"}),
    "award_draw": frozenset({"deck"}),
    "exit_to_bag": frozenset({"exit"}),
    "guest_to_reserve": frozenset({"exit"}),
    "draw_guest_to_seat": frozenset({"bag", "exit"}),
}
"""The :class:`Context` fields each action reads (``ad_*`` actions read ``tokens``); money,
popcorn and blank actions read none. An audience step reads the deck for its award bonus."""


def reads(action: str) -> frozenset[str]:
    """The context fields ``action`` reads."""
    return frozenset({"tokens"}) if action.startswith("ad_") else READS.get(action, frozenset())


@lru_cache(maxsize=4096)
def theater_reads(theater: Theater) -> frozenset[str]:
    """Every context field some seat or free movie action of ``theater`` reads."""
    actions = [*theater.seat_actions, *(a for _, a in theater.free_actions)]
    return frozenset().union(*(reads(a) for a in actions))


def project(ctx: Context, fields: frozenset[str]) -> Context:
    """``ctx`` with the fields not in ``fields`` set to zero.

    Two contexts that differ only in fields no later theater reads lead to the same best
    plans, so the search merges them: fewer partial plans to carry, more memo hits.
    """
    return Context(ctx.tokens if "tokens" in fields else 0,
                   ctx.audience if "audience" in fields else 0,
                   ctx.deck if "deck" in fields else 0,
                   ctx.bag if "bag" in fields else 0,
                   ctx.exit if "exit" in fields else (0,) * len(ctx.exit))


def add(a: Gains, b: Gains) -> Gains:
    """Two gains tuples summed term by term."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def _with_exit(ctx: Context, color: int, delta: int) -> Context:
    exit = list(ctx.exit)
    exit[color] += delta
    return Context(ctx.tokens, ctx.audience, ctx.deck, ctx.bag, tuple(exit))


def effect(action: str, ctx: Context, rules: Rules) -> tuple[Gains, Context, str | None] | None:
    """What taking ``action`` brings: ``(gains, context after, pawn color)``, or None.

    None means the model does not take it: the engine would find it unusable, or (for the
    two pawn actions) no pawn the model would choose is there.
    """
    if action.startswith("money_"):
        return (amount(action), 0, 0, 0, 0, 0), ctx, None
    if action.startswith("popcorn_"):
        return (0, amount(action), 0, 0, 0, 0), ctx, None
    if action == "audience_up":
        return _audience_up(ctx, rules)
    if action == "award_draw":
        if not ctx.deck:
            return None
        return (0, 0, 0, 0, 1, 0), Context(ctx.tokens, ctx.audience, ctx.deck - 1, ctx.bag,
                                           ctx.exit), None
    if action.startswith("ad_"):
        if not ctx.tokens:
            return None
        return (0, 0, 0, 1, 0, 0), Context(ctx.tokens - 1, ctx.audience, ctx.deck, ctx.bag,
                                           ctx.exit), None
    if action == "exit_to_bag":
        return _exit_to_bag(ctx, rules)
    if action == "guest_to_reserve":
        if not ctx.exit[WHITE]:
            return None
        return (0, 0, 0, 0, 0, 1), _with_exit(ctx, WHITE, -1), "white"
    if action == "draw_guest_to_seat":
        return ((0, 0, 0, 1, 0, 0), ctx, None) if ctx.bag or any(ctx.exit) else None
    return None  # "none", and "movie_action" outside a seat


def _audience_up(ctx: Context, rules: Rules) -> tuple[Gains, Context, None]:
    if ctx.audience >= len(rules.bonuses) - 1:
        gains, ctx, _ = effect(rules.past_end, ctx, rules) or (NO_GAINS, ctx, None)
        return gains, ctx, None
    ctx = Context(ctx.tokens, ctx.audience + 1, ctx.deck, ctx.bag, ctx.exit)
    gains = (0, 0, 1, 0, 0, 0)
    bonus = rules.bonuses[ctx.audience]
    if bonus:
        more = effect(bonus, ctx, rules)
        if more:
            gains, ctx = add(gains, more[0]), more[1]
    return gains, ctx, None


def _exit_to_bag(ctx: Context, rules: Rules) -> tuple[Gains, Context, str] | None:
    for color in rules.keep_order:
        if ctx.exit[color]:
            exit = list(ctx.exit)
            exit[color] -= 1
            ctx = Context(ctx.tokens, ctx.audience, ctx.deck, ctx.bag + 1, tuple(exit))
            return (0, 0, 0, 1, 0, 0), ctx, GUEST_COLORS[color]
    return None


def resolve(theater: Theater, guests: Sequence[tuple[int, str]], ctx: Context, rules: Rules,
            taken: tuple[bool, bool] = (False, False)) -> dict[Context, Outcome]:
    """The best ways for ``guests`` (``(seat, color)`` in seat order) to act in ``theater``,
    one per context they can leave behind.

    Keeping the best plan *for each context after* (not only the best overall) is what lets
    the search combine theaters exactly: a plan worth a little less here may leave the last
    advertising token, or a guest in the exit zone, for a later theater. ``taken`` says
    whether the first guest has already taken its seat action and its movie action (a theater
    resolved halfway). Every option is tried, "take nothing" first; among plans of equal
    value the first found wins.
    """
    memo: dict[tuple, dict[Context, Outcome]] = {}
    return _best(theater, tuple(guests), 0, frozenset(), ctx, rules, taken, memo)


def _best(theater: Theater, guests: tuple[tuple[int, str], ...], i: int, used: frozenset[int],
          ctx: Context, rules: Rules, taken: tuple[bool, bool], memo: dict
          ) -> dict[Context, Outcome]:
    if i == len(guests):
        return {ctx: Outcome(0.0, NO_GAINS, (), ctx)}
    key = (i, used, ctx)
    if key in memo:
        return memo[key]
    seat, color = guests[i]
    first = taken if i == 0 else (False, False)
    best: dict[Context, Outcome] = {}
    for seat_choice, gains1, used1, ctx1 in _seat_options(theater, seat, color, used, ctx,
                                                          rules, first[0]):
        for movie_choice, gains2, used2, ctx2 in _movie_options(theater, color, used1, ctx1,
                                                                rules, first[1]):
            after = _with_exit(ctx2, GUEST_COLORS.index(color), 1)
            here = add(gains1, gains2)
            choice = Choice(seat_choice, movie_choice)
            for end, rest in _best(theater, guests, i + 1, used2, after, rules,
                                   (False, False), memo).items():
                gains = add(here, rest.gains)
                value = rules.weights.value(gains)
                if end not in best or value > best[end].value:
                    best[end] = Outcome(value, gains, (choice, *rest.choices), end)
    memo[key] = best
    return best


def best_of(outcomes: dict[Context, Outcome]) -> Outcome:
    """The outcome worth most; on a tie, the first one."""
    best = None
    for outcome in outcomes.values():
        if best is None or outcome.value > best.value:
            best = outcome
    assert best is not None
    return best


def _seat_options(theater: Theater, seat: int, color: str, used: frozenset[int], ctx: Context,
                  rules: Rules, taken: bool) -> list:
    options: list = [(None, NO_GAINS, used, ctx)]
    if taken or theater.seat_colors[seat] not in ("grey", color):
        return options
    action = theater.seat_actions[seat]
    if action != "movie_action":
        done = effect(action, ctx, rules)
        if done:
            options.append(((None, done[2]), done[0], used, done[1]))
        return options
    for index, movie_action in theater.free_actions:
        done = effect(movie_action, ctx, rules) if index not in used else None
        if done:
            options.append(((index, done[2]), done[0], used | {index}, done[1]))
    return options


def _movie_options(theater: Theater, color: str, used: frozenset[int], ctx: Context,
                   rules: Rules, taken: bool) -> list:
    options: list = [(None, NO_GAINS, used, ctx)]
    if taken or theater.movie_color != color:
        return options
    for index, action in theater.free_actions:
        done = effect(action, ctx, rules) if index not in used else None
        if done:
            options.append(((index, done[2]), done[0], used | {index}, done[1]))
    return options
