"""What the hub knows of each pawn's place (``games/popcorn/whereabouts.py``), checked against
every arrangement a history allows, enumerated by brute force.

A history is moves by color (a pawn of the color leaves a place, nobody says which) and taps
(a pawn is seen where it is, then carried somewhere, known). The brute force keeps the set of
all arrangements the history allows; :class:`Whereabouts` keeps one set of places per pawn.
The hub's promise rests on two properties, checked on random histories:

- **sound**: the truth is always among what the sets allow, so a tap of a pawn where it
  really is never looks impossible (no false alert);
- **tight**: each set holds exactly the places that some arrangement of the sets' own matching
  uses, and a swap chain (:meth:`Whereabouts.swaps_for`) always reaches one.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.popcorn.whereabouts import Whereabouts


def matchings(maybe: list[frozenset[int]], loc: list[int], places: int) -> set[tuple]:
    """Every arrangement with each pawn in its set and each place holding its count."""
    counts = [loc.count(x) for x in range(places)]
    return {arr for arr in itertools.product(range(places), repeat=len(loc))
            if all(arr[p] in maybe[p] for p in range(len(loc)))
            and all(arr.count(x) == counts[x] for x in range(places))}


def play(seed: int, pawns: int, places: int, steps: int):
    """A random history on one color: the truth, the hub's arrangement, its whereabouts and
    the brute force's arrangements after each step."""
    rng = random.Random(seed)
    truth = [rng.randrange(places) for _ in range(pawns)]
    loc = list(truth)
    known = Whereabouts.start(loc, ["blue"] * pawns)
    allowed = {arr for arr in itertools.product(range(places), repeat=pawns)
               if all(arr.count(x) == truth.count(x) for x in range(places))}
    for _ in range(steps):
        src, dst = rng.randrange(places), rng.randrange(places)
        if rng.random() < 0.6:
            here = [p for p in range(pawns) if truth[p] == src]
            if not here or src == dst:
                continue
            truth[rng.choice(here)] = dst
            allowed = {a[:i] + (dst,) + a[i + 1:] for a in allowed for i in range(pawns)
                       if a[i] == src}
            mover = next(p for p in range(pawns) if loc[p] == src)
            before = list(loc)
            loc[mover] = dst
            known = known.moved(before, loc)
        else:
            pawn = rng.randrange(pawns)
            seen = truth[pawn]
            assert known.may_be(pawn, seen), "a pawn seen where it is looked impossible"
            swaps = known.swaps_for(pawn, seen, loc)
            assert swaps is not None
            for a, b in swaps:
                loc[a], loc[b] = loc[b], loc[a]
            assert loc[pawn] == seen
            assert all(loc[p] in known.maybe[p] for p in range(pawns))
            known = known.observed(pawn, seen, loc)
            allowed = {a for a in allowed if a[pawn] == seen}
        yield truth, loc, known, allowed


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(2, 4))
def test_the_truth_is_always_allowed_and_the_sets_are_tight(seed, pawns, places) -> None:
    """Sound and tight (see the module's text), on random histories of moves and taps."""
    for truth, loc, known, allowed in play(seed, pawns, places, 10):
        sets = [frozenset(m) for m in known.maybe]
        assert all(truth[p] in sets[p] for p in range(pawns))
        matched = matchings(sets, loc, places)
        assert tuple(truth) in matched and allowed <= matched
        for pawn in range(pawns):
            assert {a[pawn] for a in matched} == set(sets[pawn])


def test_a_move_by_color_spreads_the_look_alikes_and_a_tap_narrows_them() -> None:
    """Two blue pawns in Ana's exit zone (place 1), one goes to Chloe's bag (place 2): each
    may be in either place. A tap of pawn 0 in Chloe's bag tells where both are."""
    known = Whereabouts.start([1, 1, 0], ["blue", "blue", "red"])
    assert known.certain(0) == 1 and known.certain(2) == 0
    known = known.moved([1, 1, 0], [1, 2, 0])
    assert known.maybe[0] == known.maybe[1] == {1, 2}
    assert known.certain(2) == 0  # another color: untouched
    swaps = known.swaps_for(0, 2, [1, 2, 0])
    assert swaps == [(0, 1)]
    known = known.observed(0, 2, [2, 1, 0])
    assert known.certain(0) == 2 and known.certain(1) == 1


def test_a_place_without_room_is_no_place_for_a_pawn() -> None:
    """A bag with one blue that a tap showed to be pawn 0: pawn 1, which was in the bag or
    the reserve, is in the reserve."""
    known = Whereabouts.start([5, 6], ["blue", "blue"])  # bag 5, reserve 6
    assert known.maybe[0] == known.maybe[1] == {5, 6}
    known = known.observed(0, 5, [5, 6])
    assert known.certain(1) == 6
    assert known.swaps_for(1, 5, [5, 6]) is None
