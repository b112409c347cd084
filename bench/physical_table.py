"""A physical table for the tests and the benches: its own truth, and hands that read no id.

A real table keeps 60 pawns in cloth bags, exit zones, a reserve, hands and seats, and no
pawn carries a number. :class:`PhysicalTable` plays a whole game of Popcorn that way against
a hub, and keeps, apart from the hub, the truth of where each pawn is (:class:`Truth`):

- the players fill the bags, the exit zones and the reserve with whichever pawns of each
  color come to hand, so the truth starts as a random arrangement with the hub's counts;
- a **draw** takes a random pawn out of the bag (any color: a hand in a cloth bag) and taps
  it on the bag's reader;
- a guest **put into a bag** (a gain, an exit to the bag, a Premiers guest) is any pawn of
  the move's color from the place the move names, tapped on that bag's reader;
- every other move is entered on the tablet, as the hub lists it, and the **hands** move
  *any* pawn of the move's color out of each place it leaves (a gain into an exit zone, a
  guest to the reserve, a pour, a guest seated from a hand that holds two of its color):
  nobody at a table reads which blue pawn the screen meant.

After every action the truth's count of each color in each place must equal the hub's (the
hub keeps counts exactly); a difference is a bug of the hub or of this table and stops the
game (:class:`TableBroke`). An alert on a legal play is a **false alert**: counted, and the
table does what it says (it puts the pawn back and takes another), as a table that trusts
its companion would.

Mistakes (``mistakes``: a share of actions) are the ones a table really makes, injected at
random moments (:data:`MISTAKES`). Each one is tapped, and the hub's answer is judged:
**caught** (exactly one alert, and what its message and fix claim about the pawn's place is
true), **explained** (the hub took the tap for a legal play: some arrangement of the pawns
it knows explains it; the table then notices, undoes it with the PIN and puts the pawn back),
or **wrong** (an alert whose claim is false, or more than one). A caught mistake changes
nothing: the hand puts the pawn back where it came from and the game goes on.

The hub is reached through a :class:`Hub` (a table in this process, or a ``serve`` with
virtual readers): this module knows only the engine's public state and moves, so that
``bench/any_pawn.py --baseline REV`` can play an older hub the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

PASSIVE = frozenset({"end_turn", "end_guest", "decline", "take_back_ad"})
"""Decisions that give something up: taken only when nothing else is legal."""
MISTAKES = ("seat_guest", "tapped_twice", "beyond_audience", "buying_draw", "other_bag",
            "unknown_tag")
"""The mistakes a table makes, by kind: a guest taken from another player's seat and tapped
in a draw; a drawn pawn tapped again; a draw beyond the audience; a draw during Buying; a
pawn taken out of another player's bag in a draw; a tag nobody enrolled."""


PATIENCE = 30
"""How many times in a row a table puts a pawn back and takes another when the hub refuses
a legal tap, before it gives up the game."""


MISHAPS = ("lost_tap", "slipped_back")
"""Slips nobody sees at the time: a guest drawn in Open Cinema whose tap never reached the
hub; a guest of a player's exit zone dropped back into their bag. Either way that player's
bag is audited at once (its real contents tapped), the audit accepted, and whatever it could
not mend corrected by hand, by color (the counts must be the table's again)."""


class TableBroke(Exception):
    """The truth and the hub disagree on a count, or the hub refused a legal play."""


class Hub(Protocol):
    """What the physical table needs of a hub: the table's state (the engine's, as the hub
    has it), a tap on a seat's reader, a move entered on the tablet, and Undo (PIN)."""

    def state(self) -> Any:
        """The hub's state of the game now."""
        ...

    def tap(self, seat: int, pawn: int | None) -> list[dict[str, Any]]:
        """Tap ``pawn`` (None: a tag nobody enrolled) on ``seat``'s reader and wait until
        the hub has logged it; the alerts it raised (none: it was a move)."""
        ...

    def submit(self, move: Any) -> None:
        """Enter ``move`` on the tablet (raises if the hub refuses it)."""
        ...

    def undo(self) -> None:
        """Undo the last input, with the table's PIN."""
        ...

    def choice(self) -> dict[str, Any] | None:
        """The choice a tap left on the screen (the public view's ``card_choice``)."""
        ...

    def choose(self, index: int) -> None:
        """Tap another move of that choice."""
        ...

    def events(self) -> int:
        """How many events the table's log holds."""
        ...

    def audit(self, seat: int, pawns: list[int]) -> dict[str, Any]:
        """Audit ``seat``'s bag: tap ``pawns`` (what it really holds), end the tapping,
        accept; the report."""
        ...

    def correct(self, body: dict[str, Any]) -> None:
        """A correction, with the table's PIN."""
        ...

    def replays(self) -> bool | None:
        """Whether the game's exported record, replayed, gives the hub's scores (None: the
        hub gives no record of this game)."""
        ...

    def source_of(self, pawn: int, before: Any, events: int) -> int | None:
        """Where the hub took ``pawn`` from in the move its tap made after ``events``
        (``before``: its state then), or None when the tap made no move."""
        ...

    def zones(self, seat: int, message: bytes) -> tuple[list[dict[str, Any]],
                                                       list[dict[str, Any]]]:
        """Hand the hub a ``zones`` message of ``seat``'s mat, as the mat's firmware sends
        it (only with mats: ``bench/table_mats.py``); the moves it made of it, and the
        alerts it raised."""
        ...


class Truth:
    """Where each pawn really is: a location per pawn id (the engine's location codes)."""

    def __init__(self, state: Any, rng: random.Random) -> None:
        """The hub's counts in ``state``, filled with random pawns of each color."""
        self.colors: tuple[str, ...] = tuple(state.pawn_color)
        self.loc: list[int] = list(state.loc)
        for color in set(self.colors):
            pawns = [p for p, c in enumerate(self.colors) if c == color]
            places = [self.loc[p] for p in pawns]
            rng.shuffle(places)
            for pawn, place in zip(pawns, places, strict=True):
                self.loc[pawn] = place

    def at(self, place: int, color: str | None = None) -> list[int]:
        """The pawns really in ``place`` (of ``color``), lowest first."""
        return [p for p, x in enumerate(self.loc)
                if x == place and (color is None or self.colors[p] == color)]

    def counts(self) -> Counter[tuple[str, int]]:
        """How many pawns of each color lie in each place."""
        return Counter((self.colors[p], x) for p, x in enumerate(self.loc))


class Oracle:
    """What a perfect hub could know: every arrangement of each color's pawns that agrees
    with every move and tap so far, kept exactly (no hub needs this much; it checks the
    hub's own, smaller knowledge).

    A pawn never tapped is one of its color's anonymous pawns, all alike, so a world (one
    arrangement) is the place of each pawn tapped so far (``named``, in order of first tap);
    the anonymous ones fill each place up to its count. A move by color out of ``X`` gives
    one world per pawn that may be the one taken; a tap keeps the worlds that agree with it.
    A color whose worlds pass :data:`WORLDS`, or come to none (a hub whose audits told the
    table another story), is given up (:meth:`may_be` answers None).
    """

    def __init__(self, state: Any) -> None:
        """Start from the hub's counts in ``state`` (nothing tapped)."""
        self.colors: tuple[str, ...] = tuple(state.pawn_color)
        self.count: Counter[tuple[str, int]] = Counter(zip(self.colors, state.loc,
                                                           strict=True))
        self.named: dict[str, list[int]] = {c: [] for c in set(self.colors)}
        self.worlds: dict[str, set[tuple[int, ...]] | None] = {c: {()} for c in self.named}
        self.largest = 1

    def moved(self, color: str, src: int, dst: int) -> None:
        """A guest of ``color`` went from ``src`` to ``dst``, nobody knows which."""
        worlds = self.worlds[color]
        if worlds is not None:
            grown: set[tuple[int, ...]] = set()
            for world in worlds:
                here = [i for i, x in enumerate(world) if x == src]
                grown.update(world[:i] + (dst,) + world[i + 1:] for i in here)
                if self.count[(color, src)] - len(here) >= 1:
                    grown.add(world)
            self._keep(color, grown)
        self.count[(color, src)] -= 1
        self.count[(color, dst)] += 1

    def seen(self, pawn: int, place: int) -> None:
        """A tap showed ``pawn`` at ``place``."""
        color = self.colors[pawn]
        worlds, named = self.worlds[color], self.named[color]
        if pawn not in named:
            named.append(pawn)
            if worlds is not None:
                self._keep(color, {w + (place,) for w in worlds
                                   if self.count[(color, place)] - w.count(place) >= 1})
            return
        i = named.index(pawn)
        if worlds is not None:
            self._keep(color, {w for w in worlds if w[i] == place})

    def carried(self, pawn: int, src: int, dst: int) -> None:
        """A tapped ``pawn`` (seen at ``src``) went to ``dst``."""
        color = self.colors[pawn]
        worlds, i = self.worlds[color], self.named[color].index(pawn)
        if worlds is not None:
            self._keep(color, {w[:i] + (dst,) + w[i + 1:] for w in worlds})
        self.count[(color, src)] -= 1
        self.count[(color, dst)] += 1

    def may_be(self, pawn: int, place: int) -> bool | None:
        """Whether some world has ``pawn`` at ``place`` (None: the color was given up)."""
        color = self.colors[pawn]
        worlds, named = self.worlds[color], self.named[color]
        if worlds is None:
            return None
        if pawn in named:
            i = named.index(pawn)
            return any(w[i] == place for w in worlds)
        return any(self.count[(color, place)] - w.count(place) >= 1 for w in worlds)

    def _keep(self, color: str, worlds: set[tuple[int, ...]]) -> None:
        """Keep a color's worlds; give the color up when there are too many, or none (a
        story no arrangement agrees with: a hub that told its table something else)."""
        self.largest = max(self.largest, len(worlds))
        self.worlds[color] = worlds if 0 < len(worlds) <= WORLDS else None


WORLDS = 200_000
"""The most worlds :class:`Oracle` keeps for one color."""


@dataclass
class Tally:
    """What a game (or several) came to."""

    actions: int = 0
    taps: int = 0
    draws: int = 0
    look_alike_moves: int = 0
    """Moves entered by color out of a place that held look-alikes of the moved guest."""
    asked: int = 0
    """Taps of a guest the hub asked the origin of (it may have come from several places)."""
    rechosen: int = 0
    """Of those, the ones whose first guess was wrong: one more tap on the screen."""
    false_alerts: int = 0
    false_codes: Counter[str] = field(default_factory=Counter)
    injected: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    explained: Counter[str] = field(default_factory=Counter)
    wrong: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)
    """Mistakes the hub explained that no arrangement explains (the oracle's word)."""
    refused: Counter[str] = field(default_factory=Counter)
    """Mistakes the hub alerted on although some arrangement explains them."""
    worlds: int = 0
    """The most arrangements the oracle kept for one color."""
    mishaps: Counter[str] = field(default_factory=Counter)
    """Slips nobody saw at the time (a draw whose tap was lost, a guest dropped back into its
    bag), each found by an audit of that bag."""
    corrections: int = 0
    """Corrections the table made by hand after an audit (the audit could not mend it)."""
    replayed: int = 0
    """Finished games whose exported record, replayed, gives the hub's scores."""
    no_record: int = 0
    """Finished games the hub gives no record of (an older hub, after a correction)."""
    finished: int = 0
    broke: list[str] = field(default_factory=list)
    mat_actions: Counter[str] = field(default_factory=Counter)
    """With mats: the moves hands made on a mat, by kind (``bench/table_mats.py``)."""
    mat_tablet: int = 0
    """With mats: seating moves entered on the tablet all the same (the hub refused the
    mat's, or its seat is not the one the mat's rule gives)."""
    mat_tidy: int = 0
    """With mats: pawns the hands moved on the mats after the rules moved them."""
    mat_reports: int = 0
    mat_scans: int = 0
    mat_ms: float = 0.0
    """With mats: the modeled time of every mat's scans, in milliseconds."""
    noise: Counter[str] = field(default_factory=Counter)
    """With mats: noise events injected, by kind (hover, passed, flicker)."""
    noise_absorbed: Counter[str] = field(default_factory=Counter)
    """Of those, the ones on a zone whose reports were the noise-free firmware's."""
    noise_reports: int = 0
    """Zone states the hub got that the noise-free firmware would not have sent."""
    noise_phantoms: int = 0
    """Of those, the ones that show a tag no hand moved (taken up and set down again)."""
    noise_moves: int = 0
    """Moves the hub made that no hand meant, in a window noise reached the hub in."""
    noise_alerts: Counter[str] = field(default_factory=Counter)
    """Alerts the hub raised on a noise report, by code."""
    stray_moves: int = 0
    """Moves no hand meant, in a window no noise reached the hub in: a bug found."""
    mat_findings: list[str] = field(default_factory=list)
    """What a stray move or a false alert on a mat was, to reproduce it."""

    def add(self, other: Tally) -> None:
        """Add another tally's figures to this one's."""
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, Counter | list):
                mine.update(value) if isinstance(value, Counter) else mine.extend(value)
            elif name == "worlds":
                self.worlds = max(mine, value)
            else:
                setattr(self, name, mine + value)


class PhysicalTable:
    """Random players at a real table, against ``hub`` (see the module's text)."""

    def __init__(self, hub: Hub, rng: random.Random, mistakes: float = 0.0,
                 pawns: Any = None, mishaps: float = 0.0, mats: Any = None) -> None:
        """``mistakes``: the share of actions that inject one; ``pawns``: the engine's
        ``pawns`` module (location codes) of the hub's version; ``mishaps``: the share of
        actions that slip (:data:`MISHAPS`), each found by an audit at once; ``mats``: the
        cinema mats the hands seat and send out guests on (``table_mats.Mats``), or None."""
        self.hub, self.rng, self.mistakes, self.mishaps = hub, rng, mistakes, mishaps
        self.mats = mats
        self.last_action = "none"
        """The last legal play, as the bench's findings name it."""
        self.P = pawns if pawns is not None else _pawns()
        self.truth = Truth(hub.state(), rng)
        self.oracle = Oracle(hub.state())
        self.tally = Tally()
        self.last_drawn: tuple[int, int] | None = None
        """The last pawn drawn and the seat whose reader took it (a second tap of it is a
        mistake of its own)."""

    def play(self, limit: int = 5000) -> Tally:
        """Play to the end of the game (or ``limit`` actions); the tally. A false alert or a
        count the hub and the truth disagree on ends the game early (``broke``)."""
        try:
            while not self.hub.state().is_over and self.tally.actions < limit:
                self.step()
            if self.hub.state().is_over:
                self.tally.finished += 1
                replays = self.hub.replays()
                self.tally.replayed += replays is True
                self.tally.no_record += replays is None
        except TableBroke as exc:
            self.tally.broke.append(str(exc))
        self.tally.worlds = self.oracle.largest
        if self.mats is not None:
            self.tally.mat_ms = sum(mat.ms for mat in self.mats.mats)
        return self.tally

    def step(self) -> None:
        """One action, then (with mats) the hands move on the mats what the rules moved."""
        self.act()
        if self.mats is not None:
            self.mats.tidy(self)

    def act(self) -> None:
        """One action: maybe a mistake first, then a legal play."""
        state = self.hub.state()
        if self.mistakes and self.rng.random() < self.mistakes:
            self.mistake(state)
            state = self.hub.state()
        if self.mishaps and self.rng.random() < self.mishaps:
            self.mishap(state)
            state = self.hub.state()
        waiting = state.waiting_players() or [None]
        who = self.rng.choice(waiting)
        self.tally.actions += 1
        if any(m.kind == "draw_pawn" for m in state.chance_outcomes(who)):
            self.draw(who)
            return
        moves = state.legal_moves(who)
        if not moves:
            return
        if self.mats is not None:  # a guest set down on a theater takes the seat it gives
            moves = [m for m in moves if m.kind != "place" or self.mats.takes(state, m)] \
                or moves
        move = self.rng.choice([m for m in moves if m.kind not in PASSIVE] or moves)
        self.last_action = f"{move.to_dict()} (state: {state.phase})"
        if self.into_bag(state, move):
            self.put_in_bag(state, move)
        elif self.mats is not None and self.mats.takes(state, move):
            if not self.mats.hand(self, state, move):
                self.tally.mat_tablet += 1
                self.enter(self.hub.state(), move)
        else:
            self.tally.mat_tablet += self.mats is not None and move.kind in ("place",
                                                                            "to_exit")
            self.enter(state, move)

    # -- legal plays -----------------------------------------------------------------------

    def draw(self, seat: int) -> None:
        """A hand in the bag takes any pawn and taps it on the bag's reader."""
        self.last_action = f"a draw from bag {seat + 1}"
        pawn = self.legal_tap(seat, lambda: self.truth.at(self.P.bag(seat)))
        self.tally.draws += 1
        self.last_drawn = (pawn, seat)

    def put_in_bag(self, state: Any, move: Any) -> None:
        """A guest of the move's color, from the place the move names, goes into a bag and
        is tapped on its reader."""
        source, color = state.loc[move.pawn], state.pawn_color[move.pawn]
        bag = move.target if move.target is not None else move.player
        self.legal_tap(bag, lambda: self.truth.at(source, color))

    def legal_tap(self, seat: int, hand: Callable[[], list[int]]) -> int:
        """Tap a pawn ``hand`` offers in a legal play; the pawn tapped. The hub must take
        it: each alert is a false one, and the table does what it says (puts the pawn back,
        takes another) up to :data:`PATIENCE` times. The pawn goes where the hub says it
        went, and every other pawn the tap moved is moved by color."""
        before = self.hub.state()
        for _ in range(PATIENCE):
            pawn = self.rng.choice(hand())
            alerts = self.hub.tap(seat, pawn)
            self.tally.taps += 1
            if not alerts:
                break
            self.tally.false_alerts += len(alerts)
            self.tally.false_codes.update(a["code"] for a in alerts)
        else:
            raise TableBroke(f"the hub refused {PATIENCE} legal taps in a row: "
                             f"{alerts[0]['code']}: {alerts[0]['message']}")
        start = self.truth.loc[pawn]
        self.say_where_from(start)
        self.followed(pawn, start, before)
        return pawn

    def followed(self, pawn: int, start: int, before: Any) -> None:
        """The hub moved the pawn a hand showed it (tapped, or set down on a mat) from
        ``start`` (``before``: the hub's state until then): the pawn goes where the hub
        says, and every other pawn the hub moved is moved by color."""
        after = self.hub.state()
        self.truth.loc[pawn] = after.loc[pawn]
        self.oracle.seen(pawn, start)
        self.oracle.carried(pawn, start, after.loc[pawn])
        self.follow_counts(before, after, {(self.truth.colors[pawn], start): 1},
                           {(self.truth.colors[pawn], after.loc[pawn]): 1}, pawn)

    def say_where_from(self, start: int) -> None:
        """When the hub asks where a tapped guest came from (it may have come from several
        places) and guessed wrong, tap the place the hand took it from."""
        choice = self.hub.choice()
        if not choice or choice.get("kind") != "guest":
            return
        names = list(self.hub.state().names)
        index = next(i for i, place in enumerate(choice["places"])
                     if self.region(place, names) == {start})
        self.tally.asked += 1
        if index != choice["placed"]:
            self.hub.choose(index)
            self.tally.rechosen += 1

    def enter(self, state: Any, move: Any) -> None:
        """Enter a decision on the tablet; the hands move any pawns of the moved colors out
        of the places the hub's arrangement moved pawns from."""
        before = list(state.loc)
        self.hub.submit(move)
        after = self.hub.state()
        taken: set[int] = set()
        for pawn, (src, dst) in enumerate(zip(before, after.loc, strict=True)):
            if src == dst:
                continue
            color = state.pawn_color[pawn]
            here = [p for p in self.truth.at(src, color) if p not in taken]
            if not here:
                raise TableBroke(f"the hub moved a {color} guest out of {src}, where the "
                                 "table has none")
            self.tally.look_alike_moves += len(here) > 1
            hand = self.rng.choice(here)
            taken.add(hand)
            self.truth.loc[hand] = dst
            self.oracle.moved(color, src, dst)
        self.check(after)

    def follow_counts(self, before: Any, after: Any, left: dict[tuple[str, int], int],
                      went: dict[tuple[str, int], int], shown: int | None = None) -> None:
        """Move, by color, what the hub's counts say moved besides the tapped pawn
        (``shown``, which ``left`` one place and ``went`` to another): each place that lost
        guests of a color gives any of them but ``shown`` to a place that gained that color
        (a bag emptied by a draw, say, refilled from the exit zone; the guest a drawn guest
        pushed out of its seat, never the drawn guest itself)."""
        change: Counter[tuple[str, int]] = Counter()
        change.update(zip(after.pawn_color, after.loc, strict=True))
        change.subtract(zip(before.pawn_color, before.loc, strict=True))
        change.update(left)
        change.subtract(went)
        came = {key: n for key, n in change.items() if n > 0}
        for (color, place), n in sorted(change.items()):
            for _ in range(-n):
                dst = next((k for k in sorted(came) if k[0] == color and came[k] > 0), None)
                if dst is None:
                    raise TableBroke(f"a {color} guest left {place}, and no place took it")
                came[dst] -= 1
                here = [p for p in self.truth.at(place, color) if p != shown]
                self.truth.loc[self.rng.choice(here)] = dst[1]
                self.oracle.moved(color, place, dst[1])
        self.check(after)

    def check(self, state: Any) -> None:
        """The truth's counts must be the hub's."""
        hub = Counter(zip(state.pawn_color, state.loc, strict=True))
        if hub != self.truth.counts():
            diff = (hub - self.truth.counts()) + (self.truth.counts() - hub)
            raise TableBroke(f"the hub's counts and the table's differ: {dict(diff)}")

    def into_bag(self, state: Any, move: Any) -> bool:
        """Whether a decision puts a guest into a bag (a pawn the players then tap)."""
        if move.pawn is None or move.kind == "place":
            return False
        trial = state.clone()
        trial.apply(move)
        return trial.loc[move.pawn] in {self.P.bag(q) for q in range(trial.n)}

    # -- mishaps: slips found by an audit ---------------------------------------------------

    def mishap(self, state: Any) -> None:
        """One slip that fits the moment, if any, then the audit of that bag."""
        P = self.P
        for kind in self.rng.sample(MISHAPS, len(MISHAPS)):
            seat = self._slip(kind, state)
            if seat is None:
                continue
            self.tally.mishaps[kind] += 1
            try:
                report = self.hub.audit(seat, self.truth.at(P.bag(seat)))
                self.audited(seat, report)
                self.mend()
            except TableBroke:
                raise
            except Exception as exc:  # noqa: BLE001 - a hub that refused the audit or the fix
                raise TableBroke(f"after a {kind}, the audit or its correction failed: "
                                 f"{exc}") from exc
            return

    def _slip(self, kind: str, state: Any) -> int | None:
        """Make the slip (in the truth only); the seat whose bag it touched, or None."""
        P = self.P
        if kind == "lost_tap" and state.phase == "showings":
            seats = [s for s in range(state.n) if state.showings[s].to_draw > 0
                     and state.task_for(s) is None and len(self.truth.at(P.bag(s))) > 1]
            if seats:
                seat = self.rng.choice(seats)
                pawn = self.rng.choice(self.truth.at(P.bag(seat)))
                self.truth.loc[pawn] = P.hand(seat)
                self.oracle.moved(self.truth.colors[pawn], P.bag(seat), P.hand(seat))
                return seat
        if kind == "slipped_back" and state.phase == "buying" and not state.tasks:
            seats = [s for s in range(state.n) if self.truth.at(P.exit_zone(s))]
            if seats:
                seat = self.rng.choice(seats)
                pawn = self.rng.choice(self.truth.at(P.exit_zone(seat)))
                self.truth.loc[pawn] = P.bag(seat)
                return seat
        return None

    def audited(self, seat: int, report: dict[str, Any]) -> None:
        """What the accepted audit told the hub, told the oracle too: each fix, then the
        guests it saw in the bag."""
        P = self.P
        for fix in report["fixes"]:
            body = fix.get("correct")
            if body is not None and body.get("by") == "tag" and "from" in body:
                pawn, src = body["pawn"], self._place_of(body["from"])
                self.oracle.seen(pawn, src)
                self.oracle.carried(pawn, src, P.bag(seat))
        unsure = {f["params"].get("pawn") for f in report["findings"]
                  if f["code"] == "AUDIT_FOUND_UNSURE"}
        for pawn in self.truth.at(P.bag(seat)):
            if pawn not in unsure:  # the hub learns where each other guest is
                self.oracle.seen(pawn, P.bag(seat))

    def _place_of(self, place: dict[str, Any]) -> int:
        """The location of a correction's place (``zone``, ``player``)."""
        P, zone = self.P, place["zone"]
        if zone in ("box", "reserve"):
            return int(P.BOX if zone == "box" else P.RESERVE)
        return int(P.bag(place["player"]) if zone == "bag" else P.exit_zone(place["player"]))

    def mend(self) -> None:
        """Correct by hand, by color, whatever counts the audit could not mend."""
        state = self.hub.state()
        hub = Counter(zip(state.pawn_color, state.loc, strict=True))
        truth = self.truth.counts()
        extra, missing = hub - truth, truth - hub
        for (color, src), n in sorted(extra.items()):
            for _ in range(n):
                dst = next(k for k in sorted(missing) if k[0] == color and missing[k] > 0)
                missing[dst] -= 1
                self.hub.correct({"color": color, "from": self._zone(src), **self._to(dst[1])})
                self.oracle.moved(color, src, dst[1])
                self.tally.corrections += 1
        self.check(self.hub.state())

    def _zone(self, place: int) -> dict[str, Any]:
        P = self.P
        if place in (P.BOX, P.RESERVE):
            return {"zone": "box" if place == P.BOX else "reserve"}
        owner = P.owner(place)
        return {"zone": "bag" if place == P.bag(owner) else "exit", "player": owner}

    def _to(self, place: int) -> dict[str, Any]:
        return self._zone(place)

    # -- mistakes --------------------------------------------------------------------------

    def mistake(self, state: Any) -> None:
        """Inject one mistake that fits the moment, if any does, and judge the hub's answer
        (see the module's text); the oracle says whether any arrangement explains it."""
        fits = {k: f for k in MISTAKES if (f := self._fits(k, state)) is not None}
        if not fits:
            return
        kind = self.rng.choice(sorted(fits))
        seat, pawn = fits[kind]
        self.tally.injected[kind] += 1
        truth_before, events = list(self.truth.loc), self.hub.events()
        draw_due = any(m.kind == "draw_pawn" for m in state.chance_outcomes(seat))
        alerts = self.hub.tap(seat, pawn)
        if not alerts:
            self.tally.explained[kind] += 1
            source = self.hub.source_of(pawn, state, events)
            if pawn is None or source is None or self.oracle.may_be(pawn, source) is False:
                self.tally.missed[kind] += 1
            self.hub.undo()
            self.truth.loc = truth_before
            self.check(self.hub.state())
            return
        if pawn is not None and draw_due and self.oracle.may_be(pawn, self.P.bag(seat)):
            self.tally.refused[kind] += 1
        if len(alerts) == 1 and self.true_alert(alerts[0], pawn, truth_before):
            self.tally.caught[kind] += 1
        else:
            self.tally.wrong[kind] += 1
        self.check(self.hub.state())

    def _fits(self, kind: str, state: Any) -> tuple[int, int | None] | None:
        """The seat and pawn a mistake of ``kind`` would tap now, or None."""
        P, rng, n = self.P, self.rng, state.n
        draws = [s for s in range(n)
                 if any(m.kind == "draw_pawn" for m in state.chance_outcomes(s))]
        if kind == "seat_guest" and draws:
            seat = rng.choice(draws)
            seated = [p for p, x in enumerate(self.truth.loc)
                      if P.is_seat(x) and P.owner(x) != seat]
            return (seat, rng.choice(seated)) if seated else None
        if kind == "tapped_twice" and self.last_drawn is not None:
            pawn, seat = self.last_drawn
            return (seat, pawn) if self.truth.loc[pawn] == P.hand(seat) else None
        if kind == "beyond_audience" and state.phase == "showings":
            done = [s for s in range(n) if state.showings[s].to_draw == 0
                    and s not in draws and self.truth.at(P.bag(s))]
            seat = rng.choice(done) if done else None
            return None if seat is None else (seat, rng.choice(self.truth.at(P.bag(seat))))
        if kind == "buying_draw" and state.phase == "buying" and not state.tasks:
            seat = state.current
            bag = self.truth.at(P.bag(seat))
            return (seat, rng.choice(bag)) if bag else None
        if kind == "other_bag" and draws:
            seat = rng.choice(draws)
            others = [p for s in range(n) if s != seat for p in self.truth.at(P.bag(s))]
            return (seat, rng.choice(others)) if others else None
        if kind == "unknown_tag":
            return (rng.randrange(n), None)
        return None

    def true_alert(self, alert: dict[str, Any], pawn: int | None,
                   truth: list[int]) -> bool:
        """Whether what an alert says of the tapped pawn's place is true: the place it
        names (one place, a player's cinema, a player's area) holds the pawn; an unsure
        alert names none."""
        params = alert.get("params", {})
        if pawn is None:
            return alert["code"] == "UNKNOWN_TAG"
        if params.get("kind") == "unsure" or "zone" not in params:
            return True
        return truth[pawn] in self.region(params, list(self.hub.state().names))

    def region(self, params: dict[str, Any], names: list[str]) -> set[int]:
        """The locations a place of an alert's params stands for."""
        P, zone = self.P, params["zone"]
        if zone in ("box", "reserve"):
            return {P.BOX if zone == "box" else P.RESERVE}
        seat = names.index(params["owner"])
        mine = {x for x in range(P.FIRST_SEAT + seat * 100, P.FIRST_SEAT + seat * 100 + 100)}
        if zone == "cinema":
            return mine
        if zone == "area":
            return mine | {P.bag(seat), P.exit_zone(seat), P.hand(seat)}
        if zone == "seat":
            return {P.seat(seat, params["slot"], params["seat"] - 1)}
        return {{"bag": P.bag, "exit": P.exit_zone, "hand": P.hand}[zone](seat)}


def source(events: list[tuple[int, str, dict[str, Any]]], pawn: int,
           before: Any) -> int | None:
    """Where the first move of ``pawn`` among logged ``events`` took it from: its place in
    ``before`` once that event's relabel is made (None when no event moved it)."""
    for _, kind, body in events:
        if kind in ("tag", "move") and body.get("move", {}).get("pawn") == pawn:
            loc = list(before.loc)
            for a, b in _pairs(body.get("relabel")):
                loc[a], loc[b] = loc[b], loc[a]
            return int(loc[pawn])
    return None


def replayed_scores(game: Any, text: str) -> Any:
    """The scores a record gives, replayed by its game's own reader (as ``replay`` does)."""
    recorded = game.records.read(text) if hasattr(game, "records") else game.read_record(text)
    return game.scores(recorded.state, list(recorded.names))


def _pairs(logged: Any) -> list[tuple[int, int]]:
    if not logged:
        return []
    if isinstance(logged[0], int):
        return [(logged[0], logged[1])]
    return [(a, b) for a, b in logged]


def _pawns() -> Any:
    from companion.games.popcorn.engine import pawns
    return pawns


class TableInProcess:
    """A :class:`Hub` on a table of a hub in this process (``hub.tables[id]``): taps go to
    the table's own tag reading, as a reader's would, with the hub's lock held."""

    def __init__(self, hub: Any, table: Any, uids: dict[int, str],
                 thing: Callable[[int], Any]) -> None:
        """``uids``: each pawn's tag; ``thing``: the registry's answer for a pawn id."""
        self.hub, self.table, self.uids, self.thing = hub, table, uids, thing
        self.pawn_of = {uid: pawn for pawn, uid in uids.items()}
        table.piece_of = self._piece_of  # the hub's registry, for the mats (as _register)

    def _piece_of(self, uid: str) -> Any:
        """What the registry knows a tag to be: the pawn's piece (None: no pawn's tag)."""
        return self.thing(self.pawn_of[uid]) if uid in self.pawn_of else None

    def state(self) -> Any:
        """The table's live state."""
        return self.table.state

    def tap(self, seat: int, pawn: int | None) -> list[dict[str, Any]]:
        """Hand the tap to the table as the hub's tag path does."""
        uid = "04ffffffffffff" if pawn is None else self.uids[pawn]
        with self.hub.lock:
            result = self.table.handle_tag(seat, None if pawn is None else self.thing(pawn),
                                           {"uid": uid})
        code = getattr(result, "code", None)
        return [result.to_dict()] if isinstance(code, str) else []

    def submit(self, move: Any) -> None:
        """The move, as the tablet sends it."""
        with self.hub.lock:
            self.table.submit(move)

    def undo(self) -> None:
        """Undo, as the tablet does with the PIN."""
        with self.hub.lock:
            self.table.undo()

    def choice(self) -> dict[str, Any] | None:
        """The table's ``card_choice`` (an older hub's table may have none)."""
        return getattr(self.table, "card_choice", None)

    def choose(self, index: int) -> None:
        """Another move of the choice, as the screen's button sends it."""
        with self.hub.lock:
            self.table.rechoose(index)

    def events(self) -> int:
        """The table's event count."""
        return int(self.table.count)

    def audit(self, seat: int, pawns: list[int]) -> dict[str, Any]:
        """The audit, as the tablet and the reader make it."""
        with self.hub.lock:
            self.table.start_audit(seat)
            for pawn in pawns:
                self.table.audit_tap({"uid": self.uids[pawn]}, self.thing(pawn))
            report = self.table.finish_audit().report.to_dict()
            self.table.accept_audit()
        return dict(report)

    def correct(self, body: dict[str, Any]) -> None:
        """The correction, as the dialog sends it."""
        with self.hub.lock:
            self.table.correct(dict(body))

    def replays(self) -> bool | None:
        """The record replayed by the game's own reader, against the table's scores."""
        with self.hub.lock:
            try:
                text = self.table.record_text()
            except Exception as exc:  # noqa: BLE001 - an older hub's refusal (HAS_CORRECTIONS)
                if getattr(exc, "code", None) == "HAS_CORRECTIONS":
                    return None
                raise
            scores = self.table.scores()
        return replayed_scores(self.table.game, text) == scores

    def source_of(self, pawn: int, before: Any, events: int) -> int | None:
        """The place of ``pawn`` in ``before`` once the first relabel logged after
        ``events`` is made (an older hub's one pair, or a list of pairs)."""
        return source(self.table.store.events(self.table.id)[events:], pawn, before)

    def zones(self, seat: int, message: bytes) -> tuple[list[dict[str, Any]],
                                                       list[dict[str, Any]]]:
        """The message parsed by the hub's protocol, and the change handed to the table as
        the hub's reader path does (``Hub._on_zones``); the moves and alerts it made."""
        from companion.readers.protocol import Zones, parse

        zones = parse(message)
        if not isinstance(zones, Zones):
            raise TableBroke(f"the hub refused the mat's message {message!r}: {zones}")
        tag = {"reader": zones.reader, "boot": zones.boot, "seq": zones.seq,
               "zone": zones.zone, "tags": list(zones.tags)}
        if zones.count > len(zones.tags):
            tag["count"] = zones.count
        with self.hub.lock:
            table = self.table
            moves, last = len(table.entries), max((a["id"] for a in table.alerts), default=-1)
            table.handle_zones(seat, tag)
            return ([dict(e["move"]) for e in table.entries[moves:]],
                    [dict(a) for a in table.alerts if a["id"] > last])


class TableOverHttp:
    """A :class:`Hub` on a table of a ``serve`` process: taps on its virtual bag readers,
    moves over its REST API (the table's PIN and each player's token, as the screens send
    them), and its state as people at a table see the board, without asking the hub: this
    process replays the table's log from the hub's SQLite file, read only, with the hub's own
    restart code (``Table.replay``)."""

    def __init__(self, base: str, info: dict[str, Any], db: Any, bank: Any,
                 uids: dict[int, str], timeout: float = 30) -> None:
        """``info``: the table's creation answer (id, PIN, tokens, readers); ``db``: the
        hub's SQLite file; ``bank``: the virtual readers (``tap(reader, uid)``)."""
        import json
        import sqlite3

        from companion.games import build
        from companion.table.table import Table, TableConfig

        self.base, self.info, self.bank, self.uids = base, info, bank, uids
        self.timeout, self._json = timeout, json
        self.file = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
        row = self.file.execute("SELECT config FROM hub_tables WHERE id=?",
                                (info["id"],)).fetchone()
        config = TableConfig.from_dict(json.loads(row[0]))
        self.copy = Table(config, build()[config.game], None)  # type: ignore[arg-type]
        self.log: list[tuple[int, str, dict[str, Any]]] = []

    def _read(self) -> None:
        rows = self.file.execute("SELECT n, kind, body FROM table_events WHERE table_id=? "
                                 "AND n>? ORDER BY n", (self.info["id"], self.copy.count))
        new = [(n, kind, self._json.loads(body)) for n, kind, body in rows.fetchall()]
        self.log += new
        self.copy.replay(new)

    def state(self) -> Any:
        """The table's state, replayed from the hub's file up to its last event (a copy:
        the replay changes its own in place)."""
        self._read()
        return self.copy.state.clone()

    def events(self) -> int:
        """The table's event count, as the hub's file holds it."""
        self._read()
        return int(self.copy.count)

    def tap(self, seat: int, pawn: int | None) -> list[dict[str, Any]]:
        """Tap on the seat's virtual reader and wait until the hub has logged the tap (and
        the moves it made); the alerts its ``tag`` event carries."""
        import time

        before = self.events()
        uid = "04eeeeeeeeeeee" if pawn is None else self.uids[pawn]
        self.bank.tap(self.info["readers"][seat], uid)
        deadline = time.monotonic() + self.timeout
        while not any(kind == "tag" for _, kind, _ in self.log[self._index(before):]):
            if time.monotonic() > deadline:
                raise TableBroke(f"the hub never logged a tap on seat {seat}")
            time.sleep(0.01)
            self._read()
        return [body["alert"] for n, kind, body in self.log[self._index(before):]
                if kind == "tag" and "alert" in body]

    def _index(self, count: int) -> int:
        return next((i for i, (n, _, _) in enumerate(self.log) if n > count), len(self.log))

    def _call(self, path: str, body: Any = None, method: str = "POST") -> Any:
        from companion.kit.http import call

        headers = {"X-Table-Pin": self.info["pin"]}
        player = body.get("move", {}).get("player") if isinstance(body, dict) else None
        if isinstance(player, int) and body["move"]["move"] in ("keep_award", "draw_award"):
            headers = {"X-Player-Token": self.info["tokens"][player]}
        return call(f"{self.base}/api/tables/{self.info['id']}{path}", method, body, headers)

    def submit(self, move: Any) -> None:
        """POST the move, as the tablet (or, for an award, the player's phone) sends it."""
        self._call("/moves", {"move": move.to_dict()})

    def undo(self) -> None:
        """POST Undo with the table's PIN."""
        self._call("/undo", {})

    def choice(self) -> dict[str, Any] | None:
        """The public view's ``card_choice``, as the tablet reads it."""
        from companion.kit.http import call

        view = call(f"{self.base}/api/tables/{self.info['id']}")["view"]
        return view.get("card_choice")

    def choose(self, index: int) -> None:
        """One tap on another move of the choice."""
        self._call("/choice", {"index": index})

    def source_of(self, pawn: int, before: Any, events: int) -> int | None:
        """Where the hub took ``pawn`` from, in the move its tap logged after ``events``."""
        self._read()
        return source(self.log[self._index(events):], pawn, before)

    def audit(self, seat: int, pawns: list[int]) -> dict[str, Any]:
        """Start the audit (PIN), tap each pawn on the seat's reader, end it, accept it."""
        import time

        self._call("/audits", {"player": seat})
        for pawn in pawns:
            before = self.events()
            self.bank.tap(self.info["readers"][seat], self.uids[pawn])
            deadline = time.monotonic() + self.timeout
            while self.events() == before:
                if time.monotonic() > deadline:
                    raise TableBroke(f"the hub never logged an audit tap on seat {seat}")
                time.sleep(0.01)
        report = self._call("/audits/current/done", {})["report"]
        self._call("/audits/current/accept", {})
        return dict(report)

    def correct(self, body: dict[str, Any]) -> None:
        """POST the correction with the table's PIN."""
        self._call("/correct", dict(body))

    def replays(self) -> bool | None:
        """GET the record (PIN) and the scores; the record replayed here, by the game."""
        from companion.kit.http import HttpError, call

        base = f"{self.base}/api/tables/{self.info['id']}"
        try:
            text = call(f"{base}/record", headers={"X-Table-Pin": self.info["pin"]})
        except HttpError as exc:
            if exc.code == "HAS_CORRECTIONS":
                return None
            raise
        return replayed_scores(self.copy.game, text) == call(f"{base}/scores")

    def close(self) -> None:
        """Close the hub's file."""
        self.file.close()
