"""What the hub knows of where each pawn is: only what the table showed it.

Pawns of one color look alike. Players fill their bags, exit zones and the reserve with
whichever pawns of the right color come to hand, and a move entered on the tablet says only
"a blue guest from Ana's exit zone": the hand takes any blue there. What the table shows the
hub is exact all the same:

- **the count of each color in each place**, which every move keeps (the engine's state,
  whose ``loc`` names one arrangement of the pawns with exactly those counts);
- **each pawn's tag, at the moment it is tapped**: that pawn is there, then.

:class:`Whereabouts` keeps, for every pawn, the set of places it *may* be in. A move by
color out of a place ``X`` into ``Y`` adds ``Y`` to every pawn that may have been in ``X``
(any of them may be the one the hand took); a tap makes the tapped pawn's set one place. The
counts tie the sets together: a set of places is only worth keeping if some arrangement puts
the pawn there with every other pawn in its own set and every place holding its count. That
is a matching between a color's pawns and its places, and :meth:`Whereabouts.moved` keeps
each set down to the places some such matching uses (the pruning, by the strongly connected
parts of a small graph, after Dulmage and Mendelsohn), so a set holds exactly the places the
pawn can be in, as far as the sets can say.

A tap is a move when some arrangement explains it (:meth:`Whereabouts.may_be`); the hub
then makes the engine's arrangement one that does (:meth:`Whereabouts.swaps_for`: a chain
of look-alike pawns trading places, a relabel), and an alert is left for a tap no
arrangement explains. The sets may keep a few arrangements that the full history rules out
(they forget which pawns moved together); they never lose one the history allows, so the
hub never raises an alert that a legal play explains.

Pure: no I/O, no clock. The engine's state is read, never changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Swap = tuple[int, int]
"""Two pawns of one color that trade places (and names) in the engine's arrangement."""


class Whereabouts:
    """The places each pawn may be in (``maybe[pawn]``), for the pawns of ``colors``.

    Immutable: every change returns a new object, so that a copied game state can share it.
    """

    __slots__ = ("maybe", "colors", "_by_color")

    def __init__(self, maybe: Sequence[frozenset[int]], colors: Sequence[str],
                 by_color: dict[str, tuple[int, ...]] | None = None) -> None:
        """``maybe``: per pawn id, the places it may be in; ``colors``: per pawn id, its
        color."""
        self.maybe: tuple[frozenset[int], ...] = tuple(maybe)
        self.colors: tuple[str, ...] = tuple(colors)
        self._by_color = by_color if by_color is not None else _group(self.colors)

    @classmethod
    def start(cls, loc: Sequence[int], colors: Sequence[str]) -> Whereabouts:
        """What the hub knows before the first tap: the counts only. Each pawn may be in any
        place that holds its color (whoever filled the bags took any pawn of the color)."""
        places: dict[str, set[int]] = {}
        for pawn, where in enumerate(loc):
            places.setdefault(colors[pawn], set()).add(where)
        maybe = [frozenset(places[colors[pawn]]) for pawn in range(len(loc))]
        return cls(maybe, colors)._pruned(set(colors), loc)

    # -- questions -------------------------------------------------------------------------

    def may_be(self, pawn: int, place: int) -> bool:
        """Whether some arrangement the table's moves and taps allow has ``pawn`` at
        ``place``."""
        return place in self.maybe[pawn]

    def certain(self, pawn: int) -> int | None:
        """The place ``pawn`` is in for sure, or None when it may be in several."""
        places = self.maybe[pawn]
        return next(iter(places)) if len(places) == 1 else None

    def certain_pawns(self, place: int) -> list[int]:
        """The pawns known to be in ``place``, lowest first."""
        return [p for p, places in enumerate(self.maybe) if places == {place}]

    # -- changes ---------------------------------------------------------------------------

    def moved(self, before: Sequence[int], after: Sequence[int]) -> Whereabouts:
        """What the hub knows after a move that took the arrangement from ``before`` to
        ``after`` (each a location per pawn): a pawn that moved from ``X`` to ``Y`` is, to
        the hub, *a pawn of its color* from ``X``, so every pawn of that color that may have
        been in ``X`` may now be in ``Y``."""
        changed = [p for p, (x, y) in enumerate(zip(before, after, strict=True)) if x != y]
        if not changed:
            return self
        maybe = list(self.maybe)
        for pawn in changed:
            src, dst = before[pawn], after[pawn]
            for other in self._by_color[self.colors[pawn]]:
                if src in maybe[other]:
                    maybe[other] = maybe[other] | {dst}
        grown = Whereabouts(maybe, self.colors, self._by_color)
        return grown._pruned({self.colors[p] for p in changed}, after)

    def observed(self, pawn: int, place: int, loc: Sequence[int]) -> Whereabouts:
        """What the hub knows once a tap showed ``pawn`` at ``place`` (where the arrangement
        ``loc`` has it: see :meth:`swaps_for`)."""
        maybe = list(self.maybe)
        maybe[pawn] = frozenset({place})
        return Whereabouts(maybe, self.colors, self._by_color)._pruned(
            {self.colors[pawn]}, loc)

    def swaps_for(self, pawn: int, place: int, loc: Sequence[int]) -> list[Swap] | None:
        """The relabel that makes the arrangement ``loc`` one with ``pawn`` at ``place``: a
        chain of swaps of look-alikes, each pawn ending in a place it may be in ([] when
        ``loc`` already has it there); None when no arrangement has ``pawn`` at ``place``.

        The chain: ``pawn`` takes the place of a pawn ``b1`` at ``place``, ``b1`` takes a
        place ``b2`` leaves, and so on, until the last one takes the place ``pawn`` left; a
        breadth-first search finds the shortest.
        """
        home = loc[pawn]
        if home == place:
            return []
        if not self.may_be(pawn, place):
            return None
        chain = self._chain(pawn, place, home, loc)
        if chain is None:
            return None
        order = [pawn, *chain]
        return [(order[i], order[i + 1]) for i in range(len(chain))]

    def _chain(self, pawn: int, place: int, home: int, loc: Sequence[int]) -> list[int] | None:
        """The pawns ``b1 .. bk`` of :meth:`swaps_for`'s chain: ``b1`` is at ``place``, each
        next one at a place the one before may be in, the last may be in ``home``."""
        color = self.colors[pawn]
        at: dict[int, list[int]] = {}
        for other in self._by_color[color]:
            if other != pawn:
                at.setdefault(loc[other], []).append(other)
        came: dict[int, tuple[int, int | None]] = {}  # pawn -> (its place, pawn before it)
        frontier: list[tuple[int, int | None]] = [(b, None) for b in at.get(place, [])]
        seen_places = {place}
        while frontier:
            following: list[tuple[int, int | None]] = []
            for b, before in frontier:
                if b in came:
                    continue
                came[b] = (loc[b], before)
                if home in self.maybe[b]:
                    return _walk_back(came, b)
                for nxt in sorted(self.maybe[b] - seen_places):
                    seen_places.add(nxt)
                    following += [(c, b) for c in at.get(nxt, [])]
            frontier = following
        return None

    def _pruned(self, colors: Iterable[str], loc: Sequence[int]) -> Whereabouts:
        """Each set of ``colors``' pawns cut down to the places some arrangement uses."""
        maybe = list(self.maybe)
        for color in colors:
            _prune(maybe, self._by_color[color], loc)
        return Whereabouts(maybe, self.colors, self._by_color)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Whereabouts) and self.maybe == other.maybe

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        unsure = {p: sorted(m) for p, m in enumerate(self.maybe) if len(m) > 1}
        return f"Whereabouts(uncertain={unsure})"


def _group(colors: Sequence[str]) -> dict[str, tuple[int, ...]]:
    groups: dict[str, list[int]] = {}
    for pawn, color in enumerate(colors):
        groups.setdefault(color, []).append(pawn)
    return {color: tuple(pawns) for color, pawns in groups.items()}


def _walk_back(came: dict[int, tuple[int, int | None]], last: int) -> list[int]:
    chain = [last]
    before = came[last][1]
    while before is not None:
        chain.append(before)
        before = came[before][1]
    return chain[::-1]


def _prune(maybe: list[frozenset[int]], pawns: Sequence[int], loc: Sequence[int]) -> None:
    """Cut each pawn's set to the places of its strongly connected part (in place).

    The graph: a pawn points to each place it may be in, a place to each pawn the
    arrangement ``loc`` has there. A pawn can be at a place ``X`` other than its own in some
    arrangement exactly when a cycle runs through it and ``X`` (it takes ``X``, a pawn at
    ``X`` moves on, ..., one takes its place), that is when both are in one part. The
    arrangement itself always counts: a set that lost a pawn's own place (a correction
    the table made) gets it back.

    A pawn whose place is certain only leads from its place back to it, so it joins no
    cycle of the others: the graph holds the uncertain pawns alone, and a color whose
    pawns are all certain has nothing to cut (most moves, once the tags have been seen).
    """
    unsure = []
    for pawn in pawns:
        places = maybe[pawn]
        if loc[pawn] not in places:
            maybe[pawn] = places = places | {loc[pawn]}
        if len(places) > 1:
            unsure.append(pawn)
    if not unsure:
        return
    part = _parts(maybe, unsure, loc)
    for pawn in unsure:
        mine = part[pawn]
        kept = frozenset(x for x in maybe[pawn] if part.get(~x) == mine)
        if kept != maybe[pawn]:
            maybe[pawn] = kept


def _parts(maybe: list[frozenset[int]], pawns: Sequence[int],
           loc: Sequence[int]) -> dict[int, int]:
    """Tarjan's strongly connected parts of the pawn-place graph (iterative), each node
    an int: a pawn its id, a place ``X`` the node ``~X`` (negative)."""
    at: dict[int, list[int]] = {}
    for pawn in pawns:
        at.setdefault(~loc[pawn], []).append(pawn)

    def edges(node: int) -> list[int]:
        if node >= 0:
            return [~x for x in maybe[node] if ~x in at]
        return at[node]

    index: dict[int, int] = {}
    low: dict[int, int] = {}
    part: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    parts = 0
    for root in pawns:
        if root in index:
            continue
        work = [(root, iter(edges(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    parts += 1
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        part[top] = parts
                        if top == node:
                            break
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges(child))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return part
