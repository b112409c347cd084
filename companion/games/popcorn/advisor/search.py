"""Every placement of a player's drawn guests, scored by the model: the best few win.

Guests of one color are interchangeable, so a placement is first a *split*: how many guests
of each color go to each theater (and, when seats run short, to the exit zone). For each
theater and the colors it receives, every distinct seat order is resolved by the model, and
the best plan is kept for each context it can leave behind; that answer is memoized for the
theater, the colors and the context it starts in, since thousands of splits share it.

Theaters act one after the other, the one being resolved first. A split's theaters are
combined by a dynamic program over the contexts they pass on, so the joint choice is the
best one, not each theater's greedy best. Every split is scored left to right; other acting
orders are tried only where a bound (:func:`_reorder_bound`) says they could reach the best
few. ``docs/advisor.md`` explains why the result is the model's optimum.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations

from ..engine import pawns as P
from ..engine.catalog import GUEST_COLORS
from ..engine.effects import award_deck_size
from ..engine.showing_choices import free_seat
from ..engine.state import GameState
from .model import (
    NO_GAINS,
    WHITE,
    Choice,
    Context,
    Gains,
    Outcome,
    Rules,
    Theater,
    add,
    project,
    resolve,
    theater_reads,
)
from .weights import TERMS, Weights

EXIT_READERS = frozenset({"exit_to_bag", "guest_to_reserve", "draw_guest_to_seat"})
"""Actions that need a guest in the exit zone (the last one only when the bag is empty)."""


@dataclass(frozen=True)
class Room:
    """A theater the player's guests will act in: the model's view, who sits, what is free."""

    theater: Theater
    seated: tuple[tuple[int, str], ...]
    """``(seat, color)`` of the guests already seated there, in seat order."""
    free: tuple[int, ...]
    """The seats a drawn guest may still take, in the order they fill."""
    taken: tuple[bool, bool]
    """For the theater being resolved: whether its acting guest took its seat/movie action."""
    active: bool = False
    """Whether this is the theater being resolved (it must finish before any other acts)."""


@dataclass(frozen=True)
class Placement:
    """One complete placement, with the activations the model assumes and what they bring."""

    value: float
    gains: Gains
    seating: tuple[tuple[int, tuple[str, ...]], ...]
    """``(slot, colors)``: the colors seated in each room, in seat order, rooms in acting order."""
    exits: tuple[str, ...]
    """Colors of the drawn guests sent to the exit zone."""
    choices: tuple[tuple[int, tuple[Choice, ...]], ...]
    """``(slot, choices)``: each room's guests' choices, already seated guests included."""

    def key(self) -> tuple:
        """The deterministic tie-break between placements of equal value."""
        return (self.seating, self.exits)


def rooms(state: GameState, p: int) -> list[Room]:
    """The theaters of player ``p`` still to resolve, in the order they will act."""
    show = state.showings[p]
    order = ([show.active] if show.active != -1 else []) + [
        s for s in range(3) if s != show.active and not show.activated[s]]
    out = []
    for slot in order:
        theater, movie = state.theater(p, slot), state.movie(p, slot)
        if theater is None or movie is None:
            continue
        used, visible = state.players[p].used[slot], state.visible_actions(p, slot)
        model = Theater(slot, theater.seat_colors, theater.seat_actions, movie.color,
                        tuple((i, movie.actions[i]) for i in range(visible) if i not in used))
        start = show.cursor if slot == show.active else 0
        seated = tuple((k, state.pawn_color[i]) for k in range(start, theater.seats)
                       if (i := state.occupant(p, slot, k)) is not None)
        first = free_seat(state, p, slot) if slot != show.active else None
        free = tuple(range(first, theater.seats)) if first is not None else ()
        taken = (show.seat_taken, show.movie_taken) if slot == show.active else (False, False)
        out.append(Room(model, seated, free, taken, slot == show.active))
    return out


def context(state: GameState, p: int) -> Context:
    """The model's context for player ``p`` as the state stands."""
    exit = [0] * len(GUEST_COLORS)
    for pawn in state.at.get(P.exit_zone(p), ()):
        exit[GUEST_COLORS.index(state.pawn_color[pawn])] += 1
    return Context(state.players[p].tokens, state.players[p].audience, award_deck_size(state),
                   len(state.at.get(P.bag(p), ())), tuple(exit))


def rules_for(state: GameState, p: int, weights: Weights) -> Rules:
    """The model's fixed facts for player ``p``."""
    colors = [m.color for s in range(3) if (m := state.movie(p, s)) is not None]
    return Rules.build(state.catalog, colors, weights)


def best_placements(state: GameState, p: int, weights: Weights, count: int = 3
                    ) -> list[Placement]:
    """The ``count`` best placements of ``p``'s drawn guests, best first.

    Ties are broken by :meth:`Placement.key`, so the same state always gives the same list.
    """
    hand = [state.pawn_color[i] for i in state.pawns_at(P.hand(p))]
    counts = [hand.count(c) for c in GUEST_COLORS]
    room_list = rooms(state, p)
    rules, start = rules_for(state, p, weights), context(state, p)
    capacity = sum(len(r.free) for r in room_list)
    overflow = max(0, len(hand) - capacity)
    memo: dict[tuple, tuple] = {}
    arranged = [_arrange(split, room_list, start)
                for split in _splits(counts, [len(r.free) for r in room_list], overflow)]
    first_guess = [(_score(a.left_to_right(), a.exits, a.ctx, rules, memo), a) for a in arranged]
    first_guess.sort(key=lambda fa: (-fa[0].value, fa[0].key()))
    found: list[Placement] = []
    for placement, a in first_guess:
        bound = _reorder_bound(a, rules)
        if bound and not _beaten(found, placement.value + bound, count):
            placement = max((_score(o, a.exits, a.ctx, rules, memo) for o in a.orders()),
                            key=lambda pl: pl.value)  # the first of equal values: left to right
        if not _beaten(found, placement.value, count):
            found.append(placement)
            found.sort(key=lambda pl: (-pl.value, pl.key()))
    return found[:count]


def _beaten(found: list[Placement], value: float, count: int) -> bool:
    """Whether ``count`` placements already found are all worth more than ``value``."""
    return len(found) >= count and found[count - 1].value > value


def _splits(counts: list[int], capacities: list[int], overflow: int
            ) -> Iterator[list[list[int]]]:
    """Each way to share the color counts among the rooms (and the exit zone, last).

    ``split[b][c]`` guests of color ``c`` go to bin ``b``. With seats to spare no guest goes
    to the exit zone; otherwise every seat is filled and exactly ``overflow`` guests go there.
    """
    caps = [*capacities, overflow]
    bins = [[0] * len(counts) for _ in caps]

    def share(color: int, left: int, b: int) -> Iterator[list[list[int]]]:
        if color == len(counts):
            yield [list(row) for row in bins]
            return
        if b == len(caps) - 1:
            if left <= caps[b]:
                bins[b][color], caps[b] = left, caps[b] - left
                yield from share(color + 1, counts[color + 1] if color + 1 < len(counts)
                                 else 0, 0)
                bins[b][color], caps[b] = 0, caps[b] + left
            return
        for n in range(min(left, caps[b]), -1, -1):
            bins[b][color], caps[b] = n, caps[b] - n
            yield from share(color, left - n, b + 1)
            bins[b][color], caps[b] = 0, caps[b] + n

    yield from share(0, counts[0] if counts else 0, 0)


@dataclass(frozen=True)
class Arranged:
    """A split laid out for acting: the theater being resolved first, then the theaters with
    guests (whose order may be chosen), then the empty ones; the exit zone already holds the
    guests the split sends there."""

    first: tuple[tuple[Room, tuple[int, ...]], ...]
    busy: tuple[tuple[Room, tuple[int, ...]], ...]
    idle: tuple[tuple[Room, tuple[int, ...]], ...]
    exits: tuple[str, ...]
    ctx: Context

    def left_to_right(self) -> list[tuple[Room, tuple[int, ...]]]:
        """The default acting order."""
        return [*self.first, *self.busy, *self.idle]

    def orders(self) -> list[list[tuple[Room, tuple[int, ...]]]]:
        """Every acting order, left to right first."""
        return [[*self.first, *order, *self.idle] for order in permutations(self.busy)]


def _arrange(split: list[list[int]], room_list: list[Room], ctx: Context) -> Arranged:
    exits = tuple(c for c, n in zip(GUEST_COLORS, split[-1], strict=True) for _ in range(n))
    for color in exits:
        ctx = ctx._replace(exit=_bump(ctx.exit, GUEST_COLORS.index(color)))
    pairs = [(r, tuple(row)) for r, row in zip(room_list, split, strict=False)]
    return Arranged(tuple((r, row) for r, row in pairs if r.active),
                    tuple((r, row) for r, row in pairs if not r.active and _busy(r, row)),
                    tuple((r, row) for r, row in pairs if not r.active and not _busy(r, row)),
                    exits, ctx)


def _busy(room: Room, row: tuple[int, ...]) -> bool:
    return bool(room.seated) or any(row)


def _reorder_bound(arranged: Arranged, rules: Rules) -> float:
    """How much more than left to right another acting order could be worth (0: nothing).

    The order matters only through the exit zone: each theater's guests join it after
    acting, so a theater acting later may find a guest there to send back to the bag
    (``exit_to_bag`` takes a colored one), to the reserve (``guest_to_reserve``, a white
    one), or to draw when the bag is empty. The model's gain for these does not depend on
    which guest, only on one being there. (Tokens, award cards and audience steps are shared
    too, but the search already takes the best joint use of them, and each is worth the same
    whichever theater takes it.) Guests the exit zone holds before anyone acts serve in every
    order, so only the uses beyond them could be starved by the left-to-right order: dropping
    those from the best plan of another order leaves a plan of the left-to-right one.
    """
    if len(arranged.busy) < 2:
        return 0.0
    uses = Counter[str]()
    for room, row in arranged.busy:
        uses.update(_reader_actions(room, row))
    exit, w = arranged.ctx.exit, rules.weights.values
    whites, colored = exit[WHITE], sum(exit) - exit[WHITE]
    guests, culled = max(0.0, w[TERMS.index("guests")]), max(0.0, w[TERMS.index("culled")])
    starved = guests * max(0, uses["exit_to_bag"] - colored)
    starved += culled * max(0, uses["guest_to_reserve"] - whites)
    if not arranged.ctx.bag and sum(exit) <= uses["guest_to_reserve"]:
        starved += guests * uses["draw_guest_to_seat"]  # the exit zone may run dry
    return starved


def _reader_actions(room: Room, row: tuple[int, ...]) -> Counter[str]:
    """At most how often this room's guests could take each exit-reading action: a seat's
    action if some guest may use that seat, a movie action only as often as there are
    guests of the movie's color or on ``movie_action`` seats."""
    theater = room.theater
    seats = [k for k, _ in room.seated] + list(room.free[:sum(row)])
    colors = {"grey", *(c for _, c in room.seated),
              *(c for c, n in zip(GUEST_COLORS, row, strict=True) if n)}
    usable = [k for k in seats if theater.seat_colors[k] in colors]
    out = Counter(a for k in usable if (a := theater.seat_actions[k]) in EXIT_READERS)
    takers = sum(1 for k in usable if theater.seat_actions[k] == "movie_action")
    takers += sum(1 for _, c in room.seated if c == theater.movie_color)
    takers += row[GUEST_COLORS.index(theater.movie_color)]
    movie = Counter(a for _, a in theater.free_actions if a in EXIT_READERS)
    out.update({a: min(n, takers) for a, n in movie.items()})
    return out


def _score(pairs: list[tuple[Room, tuple[int, ...]]], exits: tuple[str, ...], ctx: Context,
           rules: Rules, memo: dict) -> Placement:
    """The placement's value with the rooms acting in this order: theaters combined exactly,
    one best partial plan kept per context reached (a dynamic program over the rooms)."""
    later = _later_reads([room for room, _ in pairs])
    states: dict[Context, tuple[float, Gains, tuple, tuple]] = {
        project(ctx, later[0]): (0.0, NO_GAINS, (), ())}
    for i, (room, row) in enumerate(pairs):
        slot = room.theater.slot
        reached: dict[Context, tuple[float, Gains, tuple, tuple]] = {}
        for start, (_, gains, seating, choices) in states.items():
            key = (slot, tuple(row), start)
            if key not in memo:
                memo[key] = _best_orders(room, row, start, rules)
            for after, (order, outcome) in memo[key].items():
                end = project(after, later[i + 1])
                total = add(gains, outcome.gains)
                value = rules.weights.value(total)
                if end not in reached or value > reached[end][0]:
                    reached[end] = (value, total, (*seating, (slot, order)),
                                    (*choices, (slot, outcome.choices)))
        states = reached
    value, gains, seating, choices = max(states.values(), key=lambda s: s[0])
    return Placement(value, gains, seating, exits, choices)


def _later_reads(room_list: list[Room]) -> list[frozenset[str]]:
    """For each room, the context fields it or a room after it reads (one more, empty)."""
    out = [frozenset[str]()]
    for room in reversed(room_list):
        out.append(out[-1] | theater_reads(room.theater))
    return out[::-1]


def _bump(exit: tuple[int, ...], color: int) -> tuple[int, ...]:
    return exit[:color] + (exit[color] + 1,) + exit[color + 1:]


def _best_orders(room: Room, row: Sequence[int], ctx: Context, rules: Rules) -> dict:
    """For each context these colors can leave behind in this room, the best seat order and
    its outcome: ``{context after: (colors, outcome)}``."""
    colors = [c for c, n in zip(GUEST_COLORS, row, strict=True) for _ in range(n)]
    best: dict[Context, tuple[tuple[str, ...], Outcome]] = {}
    for order in sorted(set(permutations(colors))):
        guests = room.seated + tuple(zip(room.free, order, strict=False))
        for end, outcome in resolve(room.theater, guests, ctx, rules, room.taken).items():
            if end not in best or outcome.value > best[end][1].value:
                best[end] = (order, outcome)
    return best
