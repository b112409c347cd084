"""A table entering a game through the real screens, tap by tap, as people would.

:class:`TableDriver` takes a game's moves in order and carries each out the cheapest way the
table has: a pawn drawn or put in a bag (a gain, a bonus's guest taken from the exit zone
back into the bag) is tapped on that bag's reader; a card is tapped on
a reader when the hub knows card tags, else typed into a search box until it shows; the
drawn guests are seated with **Seat them all as shown** when the screen shows exactly the
record's placement, else guest by guest (a tap on the guest, one on its seat) until what is
left matches what the screen shows; every waiting player's seating and plan is one tap of
**Seat and play — everyone** when it sends the record's moves (the players draw together
first, as a table does), else, once the guests the screen shows elsewhere than the record are
seated by hand, every waiting player's guests at once with **Seat all — everyone** (when that
costs fewer taps than a **Seat all** or **Seat and play** each); a run of activations that
**Take the gains**, **Play as suggested** or **Skip the rest** covers is one tap; a card
bought by tag lands in the suggested slot, and a tap on another slot moves it; anything else
is the button of that move. A button out of sight once the screen has settled costs a
scroll.

With phones (``with_phones``), each player's own moves are tapped on that player's phone
instead (:class:`~tap_screen.Screen` names each device's controls, so the logic above is
the same for both): their Seat and play or Seat all, their Take the gains and Play as
suggested, the other slot for a card they bought, their ads, their end of turn, a guest
drawn for a seat's action and every other move the phone's turn panel offers, a move at a
time where the phone has no shortcut (it has no Skip the rest). Only what no single player
owns or the phone does not offer goes to the tablet: cards typed into a search box, a market
card tapped (no card tags), drawn guests seated by hand where the hub's placement is not the
record's (a phone seats them only as the hub proposes). Seat and play — everyone is a tablet
button for all players at once: with phones, each player seats on their own phone. A phone
is tapped only once it has drawn the hub's latest state.

With cinema mats (``with_mats``, ``bench/taps.py --mats``), the hands seat the drawn guests,
send them to the exit zone and end the guests' turns on the player's mat instead
(:meth:`TableDriver.on_mat`): a ``place`` is the guest set down on its theater's zone (the
hub seats it in the next free seat, or a guest drawn to a seat in the first seat of that
theater it may take, a free one first), a ``to_exit`` the guest set down on the exit zone,
an ``end_guest`` the seated guest carried there; the tablet is not touched for them, and a
**Seat and play — everyone** that would seat guests is not used. A ``place`` the mat's rule
would put in another seat than the record's is entered on the tablet as without mats
(counted: :attr:`Tally.mat_misses`). After every step the hands move on the mats what the
rules moved (a guest pushed out of its seat, a guest that left by itself, an exit zone
poured back into the bag), as ``demo --mats`` does, and wait for the hub's acks: the hub
sees those as no news. A shortcut on the tablet (**Take the gains**, **Play as suggested**)
whose batch ends guests after the moves it is tapped for still sends those ends (counted:
:attr:`Tally.ends_by_shortcut`); an ``end_guest`` that comes first is always on the mat.

At a table whose advisor plays on (``bench/taps.py --play-on``, for (b)), the moves the hub
made itself after a step (:meth:`TableDriver.played_on`) are taken off the record: the
table did nothing for them (counted: :attr:`Tally.advised`).

Guests of one color look alike, so the table may seat a different pawn of the right color
than the record names: :class:`Aliases` keeps which pawn on the table plays each pawn of
the record, and every later move is translated through it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page
from tap_room import TapRoom
from tap_screen import Screen
from tap_tally import Tally

from companion.games.popcorn.engine import ACTIVATION_KINDS, Move, Violation
from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.engine.tasks import draw_seat_targets
from companion.games.popcorn.mats import EXIT, MOST_SEATS, lying_zones, seat_for
from companion.games.popcorn.placement import forced_seating
from companion.games.popcorn.record import loads_record
from companion.games.popcorn.remote import RemoteTable
from companion.games.popcorn.tags import ad_tap
from companion.kit.http import HttpError, call

IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return false;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (!/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX)) continue;
    const q = p.getBoundingClientRect();
    if (r.top < q.top - 1 || r.bottom > q.bottom + 1) return false;
  }
  return true;
}"""
"""Whether a control can be tapped without scrolling anything first."""
SEATING = ("place", "to_exit")
SENSED = ("place", "to_exit", "end_guest")
"""The moves the hands make on a cinema mat, with ``--mats``."""
CARD_CHANCE = ("deal_starting", "reveal_movie", "reveal_theater")


class Aliases:
    """Which pawn on the table stands for each pawn of the record (a bijection per color)."""

    def __init__(self, pawns: int) -> None:
        self.of = {p: p for p in range(pawns)}

    def bind(self, recorded: int, actual: int) -> None:
        """Let ``actual`` play ``recorded``; the pawn that played ``actual`` takes the old one."""
        old = self.of[recorded]
        if old == actual:
            return
        other = next(r for r, a in self.of.items() if a == actual)
        self.of[other], self.of[recorded] = old, actual

    def move(self, move: Move) -> Move:
        """The record's move with the table's pawn."""
        if move.pawn is None:
            return move
        return dataclasses.replace(move, pawn=self.of[move.pawn])


class TableDriver:
    """Plays a list of moves through the tablet, the phones and the readers, counting."""

    def __init__(self, room: TapRoom, table: RemoteTable, tablet: Page, phones: list[Page],
                 tally: Tally, with_phones: bool = False, with_mats: bool = False) -> None:
        self.room, self.table, self.tablet, self.phones = room, table, tablet, phones
        self.tally = tally
        self.screen = Screen.tablet(tablet)
        """The tablet, where shared steps are tapped (and every move without phones)."""
        self.phone_screens = [Screen.phone(page, seat) for seat, page in enumerate(phones)]
        self.with_phones = with_phones
        """Whether each player's own moves are tapped on their phone."""
        self.with_mats = with_mats and bool(room.mats)
        """Whether the hands seat, send out and end guests on the cinema mats."""
        self.mat_alerts: list[dict[str, Any]] = []
        """The alerts the hub raised for a hand's move on a mat (the move then went to the
        tablet): a bug of this driver, or a finding about the mats."""
        self.missed: set[int] = set()
        """The record's places (by ``id``) whose seat the mat would not pick."""
        self.shots: Path | None = None
        """Where to save the tablet's screen as each round starts (None: nowhere)."""
        self.colors = table.state.pawn_color
        self.alias = Aliases(len(self.colors))
        self.any_pawn = False
        """Tap any pawn of the right color never tapped so far, as a table that filled its
        bags by the handful does (``bench/taps.py --any-pawn``)."""
        self.tapped: set[int] = set()
        self.alerts = 0
        """Taps the hub answered with an alert (then the expected pawn was tapped)."""
        self.relabels = 0
        """Taps of another pawn than the one the hub placed there, taken as the move."""
        self.rng = random.Random(20)

    # -- the loop ------------------------------------------------------------------------

    def play(self, moves: list[Move]) -> None:
        """Enter every move; raise if the hub ever refuses or misses one."""
        pending = list(moves)
        while pending:
            state = self.table.state
            if self.shots is not None and state.round != self.tally.round:
                self.shots.mkdir(parents=True, exist_ok=True)
                self.tablet.screenshot(path=str(self.shots / f"round-{state.round}.png"))
            self.tally.round = state.round
            before = self.moves_made()
            done = self.step(pending, state)
            for move in done:
                pending.remove(move)
            self.settle(before + len(done), done)
            done += self.played_on(before + len(done), pending, done)
            self.tally.step([m.to_dict() for m in done])
            if self.with_mats:
                self.tidy_mats()


    def step(self, pending: list[Move], state: Any) -> list[Move]:
        """Carry out the first pending move (and any that one tap also covers)."""
        first = pending[0]
        move = self.alias.move(first)
        kind = move.kind
        if kind == "draw_pawn":
            self.draw(move, state)
            return [first, *self.placed_with(first, pending, state)]
        elif kind in ("gain_pawn", "bonus_action") and self.into_bag(move, state):
            assert move.pawn is not None
            self.pawn_tap(move, self.bag_of(move), move.pawn, state)
        elif kind in CARD_CHANCE:
            self.report_card(move, state)
        elif kind == "draw_award":
            self.draw_award(move)
        elif kind == "keep_award":
            phone = self.phone_screens[move.player]
            self.tap(phone.page.get_by_test_id(f"keep-{move.card}"), kind, phone)
        elif kind in ("buy_movie", "buy_theater"):
            self.buy(move)
        elif kind in SENSED and self.with_mats and (on_mat := self.by_mat(pending, state)):
            return on_mat
        elif kind in SEATING:
            return self.seat(pending)
        elif kind in ACTIVATION_KINDS:
            return self.activate(pending)
        elif kind == "activate_ad" and self.ad_by_guest(pending, state):
            return pending[:2]
        else:
            self.by_button(first, self.own(move.player))
        return [first]

    def own(self, player: int | None) -> Screen:
        """Where ``player``'s own moves are tapped: their phone with phones, else the
        tablet (which also takes every move of no player)."""
        if self.with_phones and player is not None:
            return self.phone_screens[player]
        return self.screen

    def ad_by_guest(self, pending: list[Move], state: Any) -> bool:
        """An advertising token activated and its guest gained into a bag (the player's own,
        or for the white token any player's): one reader tap of the guest on that bag's
        reader does both, when the hub would pick the record's space
        for that guest's color (:func:`~companion.games.popcorn.tags.ad_tap`). Whether it was
        done."""
        if len(pending) < 2:
            return False
        ad, gain = self.alias.move(pending[0]), self.alias.move(pending[1])
        if gain.kind != "gain_pawn" or gain.player != ad.player or gain.pawn is None:
            return False
        into = ad.player if gain.target is None else gain.target  # white: any player's bag
        tap = ad_tap(state, into, gain.pawn)
        if tap is None or tap.before != (ad,):
            return False
        self.pawn_tap(gain, into, gain.pawn, state)
        return True

    def played_on(self, since: int, pending: list[Move], done: list[Move]) -> list[Move]:
        """The record's moves the hub made after the step's own ``since`` (the advisor
        playing on, for a table whose ``play_on`` is on), taken off ``pending``."""
        made = loads_record(self.table.get("/record")).moves[since:] \
            if self.moves_made() > since else []
        advised: list[Move] = []
        for p in dict.fromkeys(m.player for m in made):
            assert p is not None
            advised += self.match_made(p, [m for m in made if m.player == p],
                                       [m for m in pending if m not in done])
        for move in advised:
            pending.remove(move)
        self.tally.advised += len(advised)
        return advised

    def moves_made(self) -> int:
        """How many moves the hub's game holds (its log also keeps taps that made none:
        alerts, a card's slot question)."""
        self.table.state  # noqa: B018 - brings the mirror up to the hub's record
        return self.table.applied

    def settle(self, moves: int, done: list[Move]) -> None:
        """Wait until the hub's game holds ``moves`` moves and the tablet has drawn it."""
        deadline = time.monotonic() + 20
        while self.moves_made() < moves:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the hub never took {[m.to_dict() for m in done]}; "
                                   f"alerts: {self.alert_banners()}; readers: {self.readers()}")
            time.sleep(0.02)
        self.tablet.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n",
                                      arg=self.table.count, timeout=20000)

    def caught_up(self, screen: Screen) -> None:
        """Wait until a phone has drawn the state the tablet has (the tablet is waited for
        after every move: :meth:`settle`). Not the log's length: a mat's zone state that
        plays nothing is logged, and pushes no view (the hands' tidying after a move)."""
        if screen.device == "phone":
            drawn = self.tablet.evaluate("window.popcornEvents ?? -1")
            screen.page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n",
                                          arg=drawn, timeout=20000)

    def readers(self) -> str:
        """The readers as the hub sees them, and the taps they have not had acked."""
        assert self.room.bank is not None
        return f"{call(self.table.base + '/api/readers')}, unacked {self.room.bank.pending()}"

    def alert_banners(self) -> list[str]:
        """The alert banners the tablet shows (for error messages)."""
        return self.tablet.locator('[data-testid="alert"]').all_inner_texts()

    # -- taps ----------------------------------------------------------------------------

    def tap(self, target: Locator, kind: str, screen: Screen | None = None) -> None:
        """Tap a control of ``screen`` (the tablet by default), counting a scroll first if
        it is out of sight. A phone is tapped once it has drawn the hub's latest state."""
        screen = screen or self.screen
        self.caught_up(screen)
        target.wait_for(state="visible", timeout=15000)
        if not self.in_view(target):
            self.tally.add(screen.device, "scroll", kind, seat=screen.seat)
            if self.shots is not None:  # what pushed it out of sight
                name = f"scroll-{self.tally.round}-{kind}-{screen.device}.png"
                screen.page.screenshot(path=str(self.shots / name))
        target.click()
        self.tally.add(screen.device, "click", kind, seat=screen.seat)

    @staticmethod
    def in_view(target: Locator) -> bool:
        """Whether a control is in sight once the screen has settled: a look that finds it
        out of sight looks again, up to three times 50 ms apart, since a redraw under way
        (the proposals arriving, a push) can catch the control between its old copy and
        its new one, which no person waiting for the screen would see."""
        for _ in range(3):
            if target.evaluate(IN_VIEW):
                return True
            target.page.wait_for_timeout(50)
        return False

    def reader_tap(self, player: int, uid: str, kind: str) -> None:
        """Tap a tag on a player's bag reader (free for the table)."""
        self.room.tap(player, uid)
        self.tally.add("reader", "tap", kind)

    def type_until(self, screen: Screen, box: str, target: Locator, text: str,
                   kind: str) -> None:
        """Type ``text`` into a search box a character at a time until ``target`` shows,
        then tap it."""
        if target.count():  # what the button says is what a person would type
            text = target.inner_text().split(": ", 1)[-1] if ": " in text else text
        typed = 0
        while not self.found(target):
            if typed >= len(text):
                raise RuntimeError(f"typing {text!r} never showed {kind}")
            if typed == 0:
                self.tap(screen.page.get_by_test_id(box), kind, screen)
            screen.page.keyboard.type(text[typed])
            self.tally.add(screen.device, "key", kind, seat=screen.seat)
            typed += 1
        self.tap(target, kind, screen)

    @staticmethod
    def found(target: Locator) -> bool:
        """Whether a search result can be tapped now: in sight, or first in its list (a
        scroll away at most)."""
        if not (target.count() and target.is_visible()):
            return False
        return bool(target.evaluate(IN_VIEW) or target.evaluate(
            "(el) => el.closest('ul').querySelector('button') === el"))

    # -- pawns ---------------------------------------------------------------------------

    def draw(self, move: Move, state: Any) -> None:
        """A guest drawn from the bag onto the reader; a look-alike stands in if needed."""
        assert move.player is not None and move.pawn is not None
        bag = P.bag(move.player)
        pawn = move.pawn
        if state.loc[pawn] != bag:
            pawn = next(q for q in range(len(self.colors))
                        if state.loc[q] == bag and self.colors[q] == self.colors[pawn])
            recorded = next(r for r, a in self.alias.of.items() if a == move.pawn)
            self.alias.bind(recorded, pawn)
        self.pawn_tap(move, move.player, pawn, state)

    def placed_with(self, draw: Move, pending: list[Move], state: Any) -> list[Move]:
        """The record's place of a guest drawn to a seat when the hub makes it with the draw
        (one place left to it: the tap stands for both), else nothing."""
        task = state.task_for(draw.player)
        if task is None or task.kind != "draw_seat" or len(
                draw_seat_targets(state, draw.player)) > 1:  # (whichever guest comes out)
            return []
        return [next(m for m in pending[1:] if m.player == draw.player)]

    def pawn_tap(self, move: Move, player: int, pawn: int, state: Any) -> None:
        """Tap ``pawn``, for ``move``, on ``player``'s reader; with :attr:`any_pawn`, a pawn
        never tapped is any pawn never tapped of its color (see :meth:`any_of_color`). A
        tap the hub answers with an alert is counted (:attr:`alerts`), then the expected
        pawn is tapped, as a table that follows the alert's advice would.

        A guest gained from one of several zones (another player's exit zone, when the
        reserve has none of its color) is tapped as the hub placed it: a tap tells the hub
        which pawn, not which zone it came from, and the record names the zone."""
        kind = move.kind
        actual = pawn
        state = state.clone()  # the hub's game before the tap (a mirror may move on)
        if self.any_pawn and (kind == "draw_pawn" or len(self.sources(move, state)) == 1):
            actual = self.any_of_color(pawn, state)
        if actual != pawn:
            events, moves = self.table.count, self.moves_made()
            self.reader_tap(player, self.room.uids[actual], kind)
            if self.answered_by_alert(events, moves):
                self.alerts += 1
                actual = pawn
            elif state.loc[actual] == state.loc[pawn]:  # a look-alike where the hub had it
                self.alias.bind(self.recorded(pawn), actual)
            else:
                self.relabels += 1
                self.follow_relabel(pawn, actual, state)
        if actual == pawn:
            self.reader_tap(player, self.room.uids[pawn], kind)
        self.tapped.add(actual)


    def sources(self, move: Move, state: Any) -> set[int]:
        """The zones the legal moves of ``move``'s kind and player take a pawn of its color
        from."""
        assert move.pawn is not None
        color = self.colors[move.pawn]
        return {state.loc[m.pawn] for m in state.legal_moves(move.player) if m.kind == move.kind
                and m.pawn is not None and self.colors[m.pawn] == color}

    def follow_relabel(self, pawn: int, actual: int, before: Any) -> None:
        """The hub took ``actual`` for the move of ``pawn``: it made a chain of swaps of
        look-alikes (its log says which) so that ``actual`` lies where the move takes a pawn
        from, then played the move with ``actual``. Let the record's pawns follow each swap,
        then let ``actual`` play the record's pawn of ``pawn`` (both lie there now)."""
        recorded = self.recorded(pawn)
        for a, b in self.room.last_relabel(self.table.id, actual):
            self.alias.bind(self.recorded(b), a)
        self.alias.bind(recorded, actual)

    def recorded(self, pawn: int) -> int:
        """The record's pawn the table's ``pawn`` plays."""
        return next(r for r, a in self.alias.of.items() if a == pawn)

    @staticmethod
    def resting(state: Any, pawn: int) -> bool:
        """Whether a pawn lies where players put pawns by the handful (the box, the
        reserve, a bag, an exit zone) and no pending step names it."""
        loc = state.loc[pawn]
        owner = None if P.is_seat(loc) else P.owner(loc)
        heaps = (P.BOX, P.RESERVE) if owner is None else (P.bag(owner), P.exit_zone(owner))
        if loc not in heaps or any(task.pawn == pawn for task in state.tasks):
            return False
        return not any(show.left and show.left[2] == pawn for show in state.showings)

    def any_of_color(self, pawn: int, state: Any) -> int:
        """The pawn a hand finds in a bag the players filled by the handful: ``pawn`` once
        tapped, else any pawn of its color never tapped that rests in a bag, an exit zone,
        the reserve or the box (each equally likely, from the hub's side)."""
        if pawn in self.tapped or not self.resting(state, pawn):
            return pawn
        color = self.colors[pawn]
        return self.rng.choice([q for q, c in enumerate(self.colors) if c == color
                                and q not in self.tapped and self.resting(state, q)])

    def answered_by_alert(self, events: int, moves: int) -> bool:
        """Wait for the hub to log the last tap; whether it made no move (an alert)."""
        deadline = time.monotonic() + 20
        while self.table.count <= events:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the hub never answered a tap; readers: {self.readers()}")
            time.sleep(0.02)
        return self.moves_made() == moves

    @staticmethod
    def into_bag(move: Move, state: Any) -> bool:
        """Whether the move puts its pawn into a bag (so the table taps it on that reader)."""
        trial = state.clone()
        try:
            trial.apply(move)
        except Violation:
            return False
        return trial.loc[move.pawn] in {P.bag(q) for q in range(trial.n)}

    @staticmethod
    def bag_of(move: Move) -> int:
        """The player whose bag the pawn goes into."""
        return move.target if move.target is not None else move.player

    # -- cards ---------------------------------------------------------------------------

    def report_card(self, move: Move, state: Any) -> None:
        """A dealt or revealed card: its tag on a reader, else typed into the search box."""
        if self.room.cards:
            reader = move.player if move.player is not None else state.current
            self.reader_tap(reader or 0, self.room.card_uids[move.card], move.kind)
            return
        target = self.tablet.get_by_test_id(f"chance-{move.kind}-{move.card}").first
        self.type_until(self.screen, f"search-{move.kind}", target, self.search_text(move),
                        move.kind)

    def search_text(self, move: Move) -> str:
        """What a person types to find a card: a movie's title, a tile's seat count."""
        catalog = self.table.mirror.catalog
        if move.card in catalog.movies:
            return catalog.movies[move.card].title
        theater = catalog.theater(move.card)
        return f"{theater.seats}-seat theater, ${theater.price}: "

    def draw_award(self, move: Move) -> None:
        """An award card drawn: tapped on the player's reader, else found on the phone."""
        assert move.player is not None
        if self.room.cards:
            self.reader_tap(move.player, self.room.card_uids[move.card], move.kind)
            return
        phone = self.phone_screens[move.player]
        title = self.table.mirror.catalog.awards[move.card].title
        target = phone.page.get_by_test_id(f"draw-award-{move.card}")
        self.type_until(phone, "award-search", target, title, move.kind)

    def buy(self, move: Move) -> None:
        """A card bought: its tag on the buyer's reader (the hub puts it in the suggested
        slot; a tap on the card choice's other slot, on the buyer's own screen, moves it),
        else a tap on the card and one on the slot (on the tablet: a phone sells nothing)."""
        assert move.player is not None
        if not self.room.cards:
            self.tap(self.market_card(move), move.kind)
            self.tap(self.tablet.get_by_test_id(f"slot-{move.player}-{move.slot}"), move.kind)
            return
        before = self.moves_made()
        self.reader_tap(move.player, self.room.card_uids[move.card], move.kind)
        deadline = time.monotonic() + 15
        while self.moves_made() == before:  # the hub buys it into the suggested slot
            if time.monotonic() > deadline:
                raise RuntimeError(f"the card tap bought nothing: {move}; alerts: "
                                   f"{self.alert_banners()}")
            time.sleep(0.05)
        if self.card_in(move):
            return
        own = self.own(move.player)
        choice = own.control("choice", slot=move.slot)
        assert choice is not None
        self.tap(choice, move.kind, own)
        while not self.card_in(move):  # one tap on the other slot moves it there
            if time.monotonic() > deadline + 15:
                raise RuntimeError(f"the card never moved to its slot: {move}")
            time.sleep(0.05)

    def card_in(self, move: Move) -> bool:
        """Whether the card ``move`` buys is in the slot it names."""
        assert move.player is not None and move.slot is not None
        held = self.table.state.players[move.player]
        return (held.theaters if move.kind == "buy_theater" else held.movies)[move.slot] == \
            move.card

    def market_card(self, move: Move) -> Locator:
        """The market's button of the card bought."""
        ids = ([f"theater-{move.card}"] if move.kind == "buy_theater"
               else [f"feature-{move.card}", f"premiere-{move.card}"])
        for test_id in ids:
            card = self.tablet.get_by_test_id(test_id)
            if card.count():
                return card.first
        raise RuntimeError(f"{move.card} is not in the market the tablet shows")

    # -- seating and acting ---------------------------------------------------------------

    def seat(self, pending: list[Move]) -> list[Move]:
        """Seat a player's drawn guests: every waiting player's at once when **Seat and play
        — everyone** sends the record's moves (not with phones), else this player's all at
        once on their own screen when it shows the record's placement, else the first guest
        placed otherwise, by hand on the tablet (a phone seats only as the hub proposes)."""
        together = self.seat_everyone(pending)
        if together is not None:
            return together
        p = pending[0].player
        assert p is not None
        mine = own_run(pending, p, SEATING)
        answer = self.api(f"/placement?player={p}", quiet=True)
        proposal, then = answer.get("moves", []), answer.get("then", [])
        if self.shows(proposal, mine):
            together = self.seat_all_everyone(pending, p)
            if together is not None:
                return together
            self.bind_all(mine, proposal)
            after = [m for m in pending if m.player == p][len(mine):len(mine) + len(then)]
            own = self.own(p)
            if then and [self.canon(m, actual=True) for m in then] == [
                    self.canon(m.to_dict()) for m in after]:
                self.tap(self.control(own, "seat-play", p), "seat and play", own)
                return mine + after
            self.tap(self.control(own, "seat-all", p), "seat all", own)
            return mine
        if self.with_phones:
            alone = self.seat_on_phone(p, mine[0])
            if alone is not None:
                return alone
        start = self.table.state.clone()
        self.moves_made_before = self.moves_made()
        done = self.seat_by_hand(p, mine, proposal)
        return done + self.forced_after(start, p, done, pending)

    def seat_all_everyone(self, pending: list[Move], p: int) -> list[Move] | None:
        """Player ``p``'s guests are shown where the record seats them: first seat by hand
        the guests of every other waiting player the screen shows elsewhere (as the table
        would, looking at the faded pawns), then, when two players or more still wait, all
        shown as the record seats them, one tap of **Seat all — everyone** seats them all.
        The moves done (the hand seating too), or None when it is not used (nothing done:
        with phones, each player seats on their own phone)."""
        if self.with_phones or sum(waiting_to_seat(self.table.state, q)
                                   for q in range(self.table.state.n)) < 2:
            return None
        done: list[Move] = []
        rest = list(pending)
        for q in range(self.table.state.n):
            while q != p and waiting_to_seat(self.table.state, q):
                mine = own_run(rest, q, SEATING)
                shown = self.api(f"/placement?player={q}", quiet=True).get("moves", [])
                if self.shows(shown, mine):
                    break
                before = self.moves_made()
                self.moves_made_before = before
                start = self.table.state.clone()
                step = self.seat_by_hand(q, mine, shown)
                step += self.forced_after(start, q, step, rest)
                self.settle(before + len(step), step)
                done += step
                rest = [m for m in rest if m not in step]
        state = self.table.state
        waiting = [q for q in range(state.n) if waiting_to_seat(state, q)]
        answers = {q: self.api(f"/placement?player={q}", quiet=True) for q in waiting}
        playing = sum(self.plays_as_shown(rest, q, answers[q]) for q in waiting)
        if len(waiting) < 2 or 1 + playing >= len(waiting):
            # (one Seat and play each costs no more: with it, each plan is one more tap)
            return done or None  # (p is still waiting: the others sat down by hand)
        for q in waiting:
            mine = own_run(rest, q, SEATING)
            self.bind_all(mine, answers[q]["moves"])
            done += mine
        self.tap(self.tablet.get_by_test_id("seat-all-everyone"), "seat all — everyone")
        return done

    def plays_as_shown(self, pending: list[Move], q: int, answer: dict[str, Any]) -> bool:
        """Whether player ``q``'s **Seat and play** (its placement shown, then its plan)
        would send the record's next moves of ``q``."""
        mine, then = own_run(pending, q, SEATING), answer.get("then", [])
        after = [m for m in pending if m.player == q][len(mine):len(mine) + len(then)]
        saved = dict(self.alias.of)
        try:  # the plan's guests as the placement would seat them (as seat() compares)
            self.bind_all(mine, answer.get("moves", []))
            return bool(then) and [self.canon(m, actual=True) for m in then] == [
                self.canon(m.to_dict()) for m in after]
        finally:
            self.alias.of = saved

    def shows(self, proposal: list[dict[str, Any]], mine: list[Move]) -> bool:
        """Whether a placement the screen shows (the hub's pawns) seats the guests as the
        record's seating moves ``mine`` do, color by color."""
        return bool(proposal) and self.canon_all(proposal, actual=True) == self.canon_all(
            [m.to_dict() for m in mine])

    def forced_after(self, start: Any, p: int, done: list[Move],
                     pending: list[Move]) -> list[Move]:
        """The record's seating moves that the hub adds to a seating tap of ``p`` (what the
        rules then force, :func:`forced_seating`), bound to the pawns the hub picks."""
        trial = start.clone()
        for move in done:
            trial.apply(self.alias.move(move))
        forced = forced_seating(trial, p)
        if not forced:
            return []
        self.settle(self.moves_made_before + len(done) + len(forced), done)
        made = loads_record(self.table.get("/record")).moves[-len(forced):]
        assert [m.kind for m in made] == [m.kind for m in forced], (made, forced)
        forced = list(made)  # the pawns the hub picked among look-alikes
        rest = [m for m in own_run(pending, p, SEATING) if m not in done][:len(forced)]
        for recorded in rest:  # the same seat and color (exits: any order), a look-alike
            assert recorded.pawn is not None
            color = self.colors[self.alias.of[recorded.pawn]]
            actual = next(m for m in forced if m.kind == recorded.kind and m.slot == recorded.slot
                          and m.seat == recorded.seat and m.pawn is not None
                          and self.colors[m.pawn] == color)
            forced.remove(actual)
            assert actual.pawn is not None
            self.alias.bind(recorded.pawn, actual.pawn)
        assert not forced, "the hub forces a move the record does not make"
        return rest

    def seat_by_hand(self, p: int, mine: list[Move], proposal: list[dict[str, Any]]
                     ) -> list[Move]:
        """The record's next seating move of ``p`` by hand on the tablet: a color for the next
        free seat, a seat alone, or a guest then its seat (the moves done)."""
        by_color = self.next_seat(p, mine, proposal)
        if by_color is not None:
            return by_color
        shown = self.canon_all(proposal, actual=True)
        legal = [m.to_dict() for m in self.table.state.legal_moves(p)]
        pick = next((m for m in mine if self.canon(m.to_dict()) not in shown
                     and self.alias.move(m).to_dict() in legal), mine[0])
        move = self.alias.move(pick)
        seat = self.tablet.get_by_test_id(f"seat-{p}-{move.slot}-{move.seat}")
        stand_in = self.seat_alone(move, proposal) if move.kind == "place" else None
        if stand_in is not None:  # the seat alone says who: one tap
            assert pick.pawn is not None
            self.alias.bind(pick.pawn, stand_in)
            self.tap(seat, "place")
            return [pick]
        self.tap(self.tablet.get_by_test_id(f"hand-{move.pawn}"), move.kind)
        if move.kind == "to_exit":
            self.tap(self.tablet.get_by_test_id("to-exit"), move.kind)
        else:
            self.tap(seat, move.kind)
        return [pick]

    def seat_on_phone(self, p: int, move: Move) -> list[Move] | None:
        """The record's next seating move of ``p`` on ``p``'s phone when the phone offers it
        a button of its own (a guest drawn for a seat's action, which the hub's placement
        does not cover), its pawn bound to the one the button sends; None when the phone
        offers none (its drawn guests are seated only as the hub proposes)."""
        phone = self.phone_screens[p]
        if self.button_for(self.alias.move(move).to_dict(), phone, groups=True) is None:
            return None
        self.by_button(move, phone)
        return [move]

    def seat_everyone(self, pending: list[Move]) -> list[Move] | None:
        """A table draws together: first the draws the record makes later of the players
        still drawing (those still legal), then, once nobody draws, one tap on **Seat and
        play — everyone** when it sends exactly the record's next moves of every player it
        covers (two at least): a waiting player's placement and plan, another's suggested
        plan for their seated guests. The moves done, or None (always with phones: each
        player seats on their own phone)."""
        state = self.table.state
        if state.phase != "showings" or self.with_phones:
            return None
        pulled = self.pull_draws(pending, state)
        if pulled:
            return pulled
        if any(show.to_draw > 0 for show in state.showings):
            return None
        if self.with_mats:  # the hands seat them on the mats first, for free
            seated = self.pull_seating(pending)
            if seated:
                return seated
            if any(waiting_to_seat(self.table.state, q) for q in range(state.n)):
                return None
        saved, done, parts = dict(self.alias.of), [], 0
        for q in range(state.n):
            part = self.everyone_part(pending, q, waiting_to_seat(state, q))
            if part is None:
                self.alias.of = saved
                return None
            done += part
            parts += bool(part)
        if parts < 2:
            self.alias.of = saved
            return None
        self.tap(self.tablet.get_by_test_id("seat-play-all"), "seat and play — everyone")
        return done

    def everyone_part(self, pending: list[Move], q: int, seating: bool) -> list[Move] | None:
        """Player ``q``'s part of "everyone" when it is the record's next moves of ``q``
        (binding the pawns); [] for a player with no part; None when it differs."""
        if seating:
            answer = self.api(f"/placement?player={q}", quiet=True)
            proposal, then = answer.get("moves", []), answer.get("then", [])
            mine = own_run(pending, q, SEATING)
            if not self.shows(proposal, mine):
                return None
            self.bind_all(mine, proposal)
        else:
            then = self.api(f"/suggestion?player={q}", quiet=True).get("moves", [])
            mine = []
        after = [m for m in pending if m.player == q][len(mine):len(mine) + len(then)]
        if [self.canon(m, actual=True) for m in then] != [self.canon(m.to_dict()) for m in after]:
            return None if seating or then else []
        return mine + after

    def pull_draws(self, pending: list[Move], state: Any) -> list[Move]:
        """The record's next draws of every player still drawing, made now on their readers
        (as far as their bags hold a guest of each drawn color): the moves done."""
        done: list[Move] = []
        for q, show in enumerate(state.showings):
            if show.to_draw <= 0:
                continue
            for move in own_run(pending, q, ("draw_pawn",), show.to_draw):
                now = self.table.state
                actual = self.alias.move(move)
                assert actual.pawn is not None
                if not any(now.loc[r] == P.bag(q) and self.colors[r] == self.colors[actual.pawn]
                           for r in range(len(self.colors))):
                    break
                before = self.moves_made()
                self.draw(actual, now)
                done.append(move)
                self.settle(before + 1, [move])
        return done

    def next_seat(self, p: int, mine: list[Move], proposal: list[dict[str, Any]]
                  ) -> list[Move] | None:
        """Fill the next free seat with the record's guest for it: a tap on the seat when the
        guest shown there has that color, else on that color's "next seat" button."""
        places = sorted((m for m in self.table.state.legal_moves(p) if m.kind == "place"),
                        key=lambda m: (m.slot, m.seat, m.pawn))
        if not places:
            return None
        slot, seat = places[0].slot, places[0].seat
        target = next((m for m in mine if m.kind == "place" and (m.slot, m.seat) == (slot, seat)),
                      None)
        if target is None:
            return None  # the record leaves that seat empty: seat its guests one by one
        assert target.pawn is not None
        color = self.colors[self.alias.of[target.pawn]]
        shown = next((m["pawn"] for m in proposal if m["move"] == "place"
                      and (m["slot"], m["seat"]) == (slot, seat)), None)
        if shown is not None and self.colors[shown] == color:
            pawn, button = shown, f"seat-{p}-{slot}-{seat}"
        else:
            pawn = next(m.pawn for m in places if (m.slot, m.seat) == (slot, seat)
                        and self.colors[m.pawn] == color)
            button = f"next-seat-{p}-{color}"
        self.alias.bind(target.pawn, pawn)
        exits = self.forced_exits(p, places, target, pawn, mine)
        self.tap(self.tablet.get_by_test_id(button), "place")
        return [target, *exits]

    def forced_exits(self, p: int, places: list[Move], target: Move, pawn: int,
                     mine: list[Move]) -> list[Move]:
        """The record's exits that the screen sends with a guest seated in the last free
        seat (the rules send the other drawn guests to the exit zone): bound to the pawns the
        screen sends."""
        assert target.slot is not None and target.seat is not None
        theater = self.table.state.theater(p, target.slot)
        if len({(m.slot, m.seat) for m in places}) != 1 or theater is None \
                or target.seat != theater.seats - 1:
            return []
        exits = [m for m in mine if m.kind == "to_exit"]
        rest = [q for q in self.table.state.pawns_at(P.hand(p)) if q != pawn]
        for move in exits:
            assert move.pawn is not None
            color = self.colors[self.alias.of[move.pawn]]
            actual = next(q for q in rest if self.colors[q] == color)
            rest.remove(actual)
            self.alias.bind(move.pawn, actual)
        assert not rest, "the record seats a guest the screen sends to the exit zone"
        return exits

    def seat_alone(self, move: Move, proposal: list[dict[str, Any]]) -> int | None:
        """The guest a tap on the seat alone would seat, if it is of the right color: the one
        shown there, else the drawn guest when all drawn guests look alike."""
        color = self.colors[move.pawn]
        shown = next((m["pawn"] for m in proposal if m["move"] == "place"
                      and m["slot"] == move.slot and m["seat"] == move.seat), None)
        if shown is not None:
            return shown if self.colors[shown] == color else None
        hand = self.table.state.pawns_at(P.hand(move.player))
        if hand and {self.colors[q] for q in hand} == {color}:
            return hand[0]
        return None

    def activate(self, pending: list[Move]) -> list[Move]:
        """A run of activations: one **Seat and play — everyone** tap when it covers the
        record's next moves of several players, else one **Take the gains** (**Play as
        suggested**, **Skip the rest**) tap on the player's own screen when it is exactly
        the record's next moves of that player, else the button of the first one there."""
        together = self.seat_everyone(pending)
        if together is not None:
            return together
        p = pending[0].player
        assert p is not None
        own = self.own(p)
        shortcuts = (("gains", "gains", "take the gains", 1),
                     ("suggestion", "suggestion", "play as suggested", 1),
                     ("rest", "skip-rest", "skip the rest", 2))
        for route, control, button, least in shortcuts:
            if not own.offers(control):
                continue
            batch = self.api(f"/{route}?player={p}", quiet=True).get("moves", [])
            mine = own_run(pending, p, tuple(ACTIVATION_KINDS), len(batch))
            if len(batch) >= least and [self.canon(g, actual=True) for g in batch] == [
                    self.canon(m.to_dict()) for m in mine]:
                self.tap(self.control(own, control, p), button, own)
                if self.with_mats:
                    self.tally.ends_by_shortcut += sum(m.kind == "end_guest" for m in mine)
                return mine
        reached = self.reach_guest(pending, p, own)
        if reached is not None:
            return reached
        self.by_button(pending[0], own)
        return [pending[0]]

    def reach_guest(self, pending: list[Move], p: int, own: Screen) -> list[Move] | None:
        """The record's next moves of ``p`` when they end guests and then act with a later
        one: one tap on that guest's seat, which sends the ends (and its seat action when
        that has one way), when the screen offers it and the hub's answer is exactly the
        record's moves; else None."""
        mine = own_run(pending, p, tuple(ACTIVATION_KINDS))
        ends = next((i for i, m in enumerate(mine) if m.kind != "end_guest"), len(mine))
        if not own.offers("guest") or ends in (0, len(mine)) or mine[ends].seat is None:
            return None
        target = mine[ends]
        batch = self.api(f"/reach?player={p}&slot={target.slot}&seat={target.seat}",
                         quiet=True).get("moves", [])
        if len(batch) < ends or [self.canon(g, actual=True) for g in batch] != [
                self.canon(m.to_dict()) for m in mine[:len(batch)]]:
            return None
        seat = own.control("guest", p=p, slot=target.slot, seat=target.seat)
        assert seat is not None
        self.tap(seat, "tap a guest", own)
        return mine[:len(batch)]

    @staticmethod
    def control(screen: Screen, name: str, p: int) -> Locator:
        """Player ``p``'s shortcut ``name`` on ``screen`` (which must offer it)."""
        control = screen.control(name, p=p)
        assert control is not None, f"{screen.device} has no {name}"
        return control

    def by_button(self, recorded: Move, screen: Screen) -> None:
        """Enter the record's move with its button on ``screen``; a button stands for every
        look-alike guest and sends one of them, which then plays the record's pawn."""
        sent = self.tap_move_button(self.alias.move(recorded), screen)
        if recorded.pawn is not None and sent.get("pawn") is not None:
            self.alias.bind(recorded.pawn, sent["pawn"])

    def tap_move_button(self, move: Move, screen: Screen | None = None) -> dict[str, Any]:
        """Tap the button for ``move`` on ``screen`` (the tablet's side panel by default,
        a phone's turn panel), opening its guest group if needed; the move it sends (a
        look-alike's pawn may stand in)."""
        screen = screen or self.screen
        wanted = move.to_dict()
        for _ in range(2):
            button = self.button_for(wanted, screen, groups=True)
            if button is None:
                break
            opens = button.get_attribute("data-act") == screen.group
            sent = None if opens else json.loads(button.get_attribute("data-move") or "null")
            self.tap(button, move.kind, screen)
            if sent is not None:
                return dict(sent)
            screen.page.wait_for_timeout(50)
        raise RuntimeError(f"no button for {wanted} on the {screen.device}")

    def button_for(self, wanted: dict[str, Any], screen: Screen | None = None,
                   groups: bool = False) -> Locator | None:
        """The button of ``screen`` (the tablet by default) that sends ``wanted`` (a closed
        group holding it, with ``groups``)."""
        screen = screen or self.screen
        key = self.canon(wanted, actual=True)
        self.caught_up(screen)
        buttons = screen.page.locator(screen.moves)
        offered: list[tuple[Locator, list[dict[str, Any]]]] = []
        for n in range(buttons.count()):
            button = buttons.nth(n)
            act = button.get_attribute("data-act")
            if act == screen.group and (not groups or "open" in (button.get_attribute(
                    "class") or "").split()):
                continue
            raw = button.get_attribute("data-same") or f"[{button.get_attribute('data-move')}]"
            offered.append((button, json.loads(raw)))
        # the button holding the very move first: a guest of that color elsewhere (seated,
        # where a bag's or an exit zone's look-alike is meant) is another move
        for button, moves in offered:
            if wanted in moves:
                return button
        for button, moves in offered:
            if key in [self.canon(m, actual=True) for m in moves]:
                return button
        return None

    # -- cinema mats ---------------------------------------------------------------------

    def by_mat(self, pending: list[Move], state: Any) -> list[Move] | None:
        """The record's next move, a ``place``, ``to_exit`` or ``end_guest``, made by a hand
        on its player's mat; the moves the hub made of it (the record's, bound to the pawns
        the hub moved), or None when it goes to the tablet: a seat the mat's rule would not
        pick (:attr:`Tally.mat_misses`), or an alert (:attr:`mat_alerts`)."""
        first = pending[0]
        move = self.alias.move(first)
        p = move.player
        assert p is not None
        if move.kind == "end_guest":
            assert move.slot is not None and move.seat is not None
            pawn = state.occupant(p, move.slot, move.seat)
            if pawn is None:
                raise RuntimeError(f"no guest to end: {move}")
            zone = EXIT
        else:
            assert move.pawn is not None
            pawn = self.in_hand(first, state)
            if move.kind == "place" and self.mat_seat(state, p, move) != move.seat and \
                    not self.clear_seat(state, p, move):
                if id(first) not in self.missed:  # (counted once: it may be tried again)
                    self.missed.add(id(first))
                    self.tally.mat_misses += 1
                return None
            zone = EXIT if move.kind == "to_exit" else int(move.slot or 0)
        return self.on_mat(p, zone, pawn, first, pending)

    def pull_seating(self, pending: list[Move]) -> list[Move]:
        """With mats, a table seats together: the record's seating moves of every player
        waiting to seat, made now on their mats, as far as the mat's rule gives the record's
        seats (the rest waits for its turn in the record): the moves done."""
        done: list[Move] = []
        for q in range(self.table.state.n):
            while waiting_to_seat(self.table.state, q):
                left = [m for m in pending if m.player == q and m not in done]
                if not left or left[0].kind not in SEATING:
                    break
                state = self.table.state
                before = self.moves_made()
                got = self.by_mat(left, state)
                if got is None:
                    break
                done += got
                self.settle(before + len(got), got)
        return done

    def in_hand(self, recorded: Move, state: Any) -> int:
        """The drawn guest in the player's hand that plays the record's pawn (a look-alike
        stands in when the record's is elsewhere)."""
        assert recorded.pawn is not None and recorded.player is not None
        pawn = self.alias.of[recorded.pawn]
        hand = P.hand(recorded.player)
        if state.loc[pawn] != hand:
            pawn = next(q for q in state.pawns_at(hand) if self.colors[q] == self.colors[pawn])
            self.alias.bind(recorded.pawn, pawn)
        return pawn

    def clear_seat(self, state: Any, p: int, move: Move) -> bool:
        """For a guest drawn to a seat that another guest holds, which the hub would not
        give it by the free seats: the hand takes that guest off to the exit zone first (it
        is pushed out), and the hub gives the drawn guest the seat it cleared. Whether the
        seat was cleared so."""
        assert move.slot is not None and move.seat is not None
        sitting = state.occupant(p, move.slot, move.seat)
        if sitting is None:
            return False
        lying = [q for index in range(MOST_SEATS) if (q := state.occupant(p, move.slot, index))
                 not in (None, sitting)]
        if seat_for(state, p, move.slot, lying) != move.seat:
            return False
        mat = self.room.mats[p]
        mat.move(self.room.uids[sitting], EXIT)
        self.tally.add("mat", "hand", "push out")
        self.mat_acked(mat)
        return True

    @staticmethod
    def mat_seat(state: Any, p: int, move: Move) -> int | None:
        """The seat the hub gives a drawn guest set down on theater ``move.slot``'s zone
        (the hub's own rule, :func:`companion.games.popcorn.mats.seat_for`)."""
        assert move.slot is not None
        return seat_for(state, p, move.slot)

    def on_mat(self, p: int, zone: int, pawn: int, first: Move,
               pending: list[Move]) -> list[Move] | None:
        """Set ``pawn`` down on ``zone`` of ``p``'s mat (carried there from its seat when it
        lies on the mat), wait for the hub's ack, and return the record's moves the hub made
        of it (the rules may add forced ones: the drawn guests left when the last seat is
        taken), bound to the pawns the hub moved; None after an alert."""
        mat = self.room.mats[p]
        before, raised = self.moves_made(), len(self.room.alerts(self.table.id))
        uid = self.room.uids[pawn]
        if mat.where(uid) is not None:
            mat.move(uid, zone)
        else:
            mat.set_down(zone, uid)
        self.tally.add("mat", "hand", first.kind)
        self.mat_acked(mat)
        alerts = self.room.alerts(self.table.id)
        if len(alerts) > raised:
            self.mat_alerts += alerts[raised:]
            self.tally.mat_alerts += len(alerts) - raised
            self.tidy_mats()  # the guest back where the state has it (or off the mat)
            return None
        made = loads_record(self.table.get("/record")).moves[before:]
        if not made:
            raise RuntimeError(f"the mat's report made no move: {first.to_dict()}; "
                               f"readers: {self.readers()}")
        done = self.match_made(p, made, pending)
        advised = self.room.move_sources(self.table.id, len(made)).count("advice")
        for move in done[:len(done) - advised]:
            self.tally.mat_moves[move.kind] += 1
        self.tally.advised += advised
        return done

    def match_made(self, p: int, made: list[Move], pending: list[Move]) -> list[Move]:
        """The record's pending moves of ``p`` that the hub's ``made`` moves are (the same
        kind, theater, seat and color), each bound to the pawn the hub moved."""
        mine = [m for m in pending if m.player == p][:len(made) + 8]
        done: list[Move] = []
        for actual in made:
            key = self.canon(actual.to_dict(), actual=True)
            recorded = next((m for m in mine if m not in done
                             and self.canon(m.to_dict()) == key), None)
            if recorded is None:
                raise RuntimeError(f"the hub made {actual.to_dict()} of a mat's report, which "
                                   f"the record does not make next: "
                                   f"{[m.to_dict() for m in mine]}")
            if recorded.pawn is not None and actual.pawn is not None:
                self.alias.bind(recorded.pawn, actual.pawn)
            done.append(recorded)
        return done

    def mat_acked(self, mat: Any) -> None:
        """Wait until the hub has acked every report of ``mat`` (it acks once it has played
        them)."""
        deadline = time.monotonic() + 20
        while mat.pending:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{mat.reader}'s reports were never acked; "
                                   f"readers: {self.readers()}")
            time.sleep(0.01)

    def tidy_mats(self) -> None:
        """Move on each mat what the rules moved since (a guest pushed out of its seat, a
        guest that left by itself, an exit zone poured back into the bag), as the hands do
        before the next action: each pawn on the zone where the state has it, off the mat
        when it has left the cinema; then wait for the hub's acks (no news to it)."""
        state, before = self.table.state, self.table.applied
        for seat, mat in enumerate(self.room.mats[:state.n]):
            zone_of = {self.room.uids[pawn]: zone
                       for pawn, zone in lying_zones(state, seat).items()}
            lying = {uid: z for z, uids in enumerate(mat.zones) for uid in uids}
            off = [uid for uid in lying if uid not in zone_of]
            if off:
                mat.take_up(*off)
            for uid, zone in zone_of.items():
                if lying.get(uid) != zone:
                    mat.move(uid, zone)
                    self.tally.add("mat", "tidy", "tidy")
            self.mat_acked(mat)
        if self.moves_made() != before:
            raise RuntimeError("the hub made a move of the hands' tidying: "
                               f"{loads_record(self.table.get('/record')).moves[before:]}")

    # -- comparing moves as the table sees them --------------------------------------------

    def canon(self, move: dict[str, Any], actual: bool = False) -> str:
        """A move with its pawn replaced by the pawn's color (record pawns translated
        unless ``actual``)."""
        data = dict(move)
        if data.get("pawn") is not None:
            pawn = data["pawn"] if actual else self.alias.of[data["pawn"]]
            data["pawn"] = self.colors[pawn]
        return json.dumps(data, sort_keys=True)

    def canon_all(self, moves: list[dict[str, Any]], actual: bool = False) -> list[str]:
        """The canonical forms, sorted (a placement is a set of seats)."""
        return sorted(self.canon(m, actual) for m in moves)

    def bind_all(self, recorded: list[Move], proposal: list[dict[str, Any]]) -> None:
        """Let the proposal's pawns play the record's, seat by seat."""
        left = list(proposal)
        for move in recorded:
            key = self.canon(move.to_dict())
            match = next(m for m in left if self.canon(m, actual=True) == key)
            left.remove(match)
            assert move.pawn is not None
            self.alias.bind(move.pawn, match["pawn"])

    def api(self, path: str, quiet: bool = False) -> dict[str, Any]:
        """GET a public route of the table; with ``quiet``, a 409 (not now) is ``{}``."""
        try:
            return call(f"{self.table.base}/api/tables/{self.table.id}{path}")
        except HttpError as exc:
            if quiet and exc.status == 409:
                return {}
            raise


def waiting_to_seat(state: Any, p: int) -> bool:
    """Whether player ``p`` has drawn every guest and has guests waiting for a seat (what
    the table screen's "everyone" button waits for, as ``proposal.js`` tells it)."""
    show = state.showings[p]
    if show.to_draw > 0 or not state.pawns_at(P.hand(p)) or state.task_for(p) is not None:
        return False
    return any(m.kind in SEATING for m in state.legal_moves(p))


def own_run(pending: list[Move], player: int, kinds: tuple[str, ...],
            limit: int | None = None) -> list[Move]:
    """The player's next moves of ``kinds`` in a row (other players' moves skipped), at most
    ``limit``."""
    out: list[Move] = []
    for move in pending:
        if move.player != player:
            continue
        if move.kind not in kinds or (limit is not None and len(out) >= limit):
            break
        out.append(move)
    return out
