"""Seating mistakes on the cinema mats, injected in whole simulated games (issue 40).

Run ``python bench/mat_mistakes.py [--games 10] [--seed 1] [--rate 0.25]``.

Each game is a 4-player Popcorn table on a real hub in this process (its SQLite log, its
serial links), with four virtual bag readers and four virtual cinema mats on
pseudo-terminals, played to its end by the scripted players of ``demo --mats``
(:class:`~companion.games.popcorn.demo.ScriptedPlayers`): they tap the pawns they draw and
the cards, and seat and send out their guests by setting the pawns down on the mats. Once
per game, a hand makes each of these seating mistakes on a mat, then mends it as a player
would, at a random moment that suits it: from a round drawn at random (1 to 6; a theater
with no movie is only found in the first rounds), each suitable moment takes it with
probability ``--rate``:

- ``THEATER_HAS_NO_MOVIE``: a drawn guest set down in a theater that shows no movie, then
  taken off, or (half the time) carried to a theater where the rules seat it;
- ``NO_SUCH_SEAT``: a drawn guest set down in a full theater (not one where a guest drawn
  to a seat may push another out), then mended the same way;
- ``GUEST_TAKEN_OUT``: a seated guest taken off its theater before its activation (not one
  a guest drawn to a seat may push out), then set back down (which mends the alert);
- ``GUEST_LEFT_IN_THEATER``: a guest ended from the tablet and left lying on its theater
  until the checkpoint (the next round's first Buying turn ends), then taken off;
- ``EXIT_POURED_EARLY``: the exit zone emptied (2+ guests at once) while the bag holds
  guests, then put back;
- ``GUEST_NOT_DRAWN``: a guest still in the bag set down in a theater, then taken off.

For each kind it prints how many were **injected**, **caught** (exactly one new alert in the
mistake's window, of the expected code, naming the player, the guest and the theater where
that applies, with a fix, and mended by the mat where the mat mends it), **missed** (no
alert), **extra** (alerts beyond the first), **faulty** (one alert that fails a check, with
the reasons) and **untranslated** (an alert that a French screen shows in English: its code
has no alert template). Alerts raised outside every mistake's window are counted as
**stray**. Each game must end, and its exported record, given to ``popcorn-companion
replay``, must give the hub's scores. There is no pass or fail: figures go to stdout
(``--json`` prints them as JSON).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.games.popcorn.demo import (  # noqa: E402
    PLAYERS,
    ScriptedPlayers,
    box_book,
    card_uids,
    enroll_box,
)
from companion.games.popcorn.engine import Move  # noqa: E402
from companion.games.popcorn.engine import pawns as P  # noqa: E402
from companion.games.popcorn.engine.tasks import draw_seat_targets  # noqa: E402
from companion.games.popcorn.mats import (  # noqa: E402
    EXIT,
    MOST_SEATS,
    THEATERS,
    may_leave,
    seat_for,
)
from companion.hub.hub import Hub  # noqa: E402
from companion.i18n.catalogs import translations  # noqa: E402
from companion.i18n.localize import render_alert  # noqa: E402
from companion.kit.errors import TableError  # noqa: E402
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader  # noqa: E402

KINDS = ("THEATER_HAS_NO_MOVIE", "NO_SUCH_SEAT", "GUEST_TAKEN_OUT", "GUEST_LEFT_IN_THEATER",
         "EXIT_POURED_EARLY", "GUEST_NOT_DRAWN")
"""The seating mistakes, by the code of the alert each must raise."""
MENDED = frozenset({"GUEST_TAKEN_OUT", "GUEST_LEFT_IN_THEATER"})
"""The mistakes whose alert the mat closes once the hand mends them (``handled``, mat)."""
REFUSALS = frozenset({"THEATER_HAS_NO_MOVIE", "NO_SUCH_SEAT"})
"""The mistakes the rules refuse: their alert names the theater in ``params.theater``."""
NO_GUEST = frozenset({"EXIT_POURED_EARLY"})
"""The mistakes whose alert names no guest and no theater (only the player)."""
BAGS = [f"bag-{n + 1}" for n in range(len(PLAYERS))]
MATS = [f"mat-{n + 1}" for n in range(len(PLAYERS))]
LATEST = {**dict.fromkeys(KINDS, 6), "THEATER_HAS_NO_MOVIE": 1}
"""Each mistake is made from a round drawn between 1 and this one (at a suitable moment
that the rate takes): every theater of a cinema shows a movie after the first rounds."""
STALL = 30.0
"""Seconds with nothing to do after which a game counts as stuck."""


@dataclass
class Mistake:
    """One injected mistake: its kind (the expected code), the seat whose mat it was made
    on, the guest and the theater (counted from 0) it concerns, and its window in the
    table's log: the events after ``start`` up to ``end`` (once mended)."""

    code: str
    seat: int
    pawn: int | None
    slot: int | None
    start: int
    end: int | None = None
    round: int = 0
    mend: str = ""
    """How the hand mended it: ``put back``, ``taken off`` or ``carried`` (to a theater
    where the rules seat it)."""
    due: tuple[int, int] | None = None
    """The events among which its alert must be: those of the mistake itself (not of its
    mend), or for a guest left in a theater those of the step that ended the checkpoint."""


@dataclass
class GameResult:
    """What one game gave: its mistakes, every alert of its log (by event number), the
    alerts closed by a mat, whether it ended, and whether its record replays to its
    scores."""

    seed: int
    mistakes: list[Mistake]
    alerts: dict[int, dict[str, Any]]
    mended: set[int]
    over: bool
    replayed: bool
    steps: int = 0
    seconds: float = 0.0


class MistakePlayers(ScriptedPlayers):
    """The scripted players of ``demo --mats``, whose hands make each seating mistake once
    at a random suitable moment and then mend it (see the module's text)."""

    def __init__(self, *args: Any, rate: float, mistake_seed: int, **kwargs: Any) -> None:
        """``rate``: the chance that a suitable moment takes a mistake not yet made."""
        super().__init__(*args, **kwargs)
        self.rate = rate
        self.chance = random.Random(f"mistakes:{mistake_seed}")
        self.todo = list(KINDS)
        self.not_before = {kind: self.chance.randint(1, LATEST[kind]) for kind in KINDS}
        self.mistakes: list[Mistake] = []
        self.left: tuple[int, str, int] | None = None  # seat, uid, zone of a guest left
        self.open: Mistake | None = None
        self.steps = 0
        self.step_from = 0  # the table's count before the last step

    # -- the game ---------------------------------------------------------------------------

    def play(self) -> bool:
        """Play to the end, making the mistakes; False if the game got stuck."""
        idle_since = time.monotonic()
        while True:
            with self.lock:
                if self.table.state.is_over:
                    break
                step = self._choose()
            if step is None:
                if time.monotonic() - idle_since > STALL:
                    return False
                time.sleep(0.01)
                continue
            idle_since = time.monotonic()
            self.step_from = self.table.count
            self._do(*step)
            self.tidy_mats()
            self.steps += 1
            self._follow_left()
            if self.open is None:
                self._maybe_inject()
        self._follow_left()
        return True

    def _choose(self) -> tuple[str, Move] | None:
        """The demo's choice, but never a draw of the guest a hand left in a theater (it
        still lies on the mat)."""
        step = super()._choose()
        if step is None or self.left is None or step[1].kind != "draw_pawn":
            return step
        left = self.pawn_of(self.left[1])
        if step[1].pawn != left:
            return step
        others = [m for m in self.table.state.chance_outcomes(step[1].player)
                  if m.kind == "draw_pawn" and m.pawn != left]
        return ("tap", self.rng.choice(others)) if others else None

    def _do(self, how: str, move: Move) -> None:
        """The demo's step; an ``end_guest`` on a mat may instead be the mistake of a guest
        left in its theater (ended from the tablet, never carried off)."""
        if how == "mat" and move.kind == "end_guest" and self._leave_now(move):
            return
        super()._do(how, move)

    def _zones_of(self, seat: int) -> dict[str, int]:
        """Where the hands keep each pawn: as the demo's, but a guest left in a theater
        stays on its zone."""
        zones = super()._zones_of(seat)
        if self.left is not None and self.left[0] == seat:
            zones[self.left[1]] = self.left[2]
        return zones

    def _settle(self) -> None:
        """Wait until the hub has acked every mat's reports."""
        for mat in self.mats.values():
            self._acked(mat)

    def pawn_of(self, uid: str) -> int:
        """The pawn whose tag is ``uid``."""
        return next(pawn for pawn, tag in self.uids.items() if tag == uid)

    # -- injecting --------------------------------------------------------------------------

    def _maybe_inject(self) -> None:
        """Make one mistake not yet made whose moment this is, with probability
        :attr:`rate`."""
        finders: dict[str, Callable[[], tuple[int, int, int | None] | None]] = {
            "THEATER_HAS_NO_MOVIE": self._no_movie, "NO_SUCH_SEAT": self._full,
            "GUEST_TAKEN_OUT": self._seated_early, "EXIT_POURED_EARLY": self._poured,
            "GUEST_NOT_DRAWN": self._in_bag}
        kinds = [k for k in self.todo if k in finders and self._due(k)]
        self.chance.shuffle(kinds)
        for kind in kinds:
            with self.lock:
                target = finders[kind]()
            if target is not None and self.chance.random() < self.rate:
                self._make(kind, *target)
                return

    def _due(self, kind: str) -> bool:
        """Whether the game has reached the round from which ``kind`` may be made."""
        return self.table.state.round >= self.not_before[kind]

    def _make(self, kind: str, seat: int, pawn: int, slot: int | None) -> None:
        """Make the mistake ``kind`` with ``pawn`` on ``seat``'s mat, then mend it."""
        mat, uid = self.mats[seat], self.uids[pawn]
        poured = list(mat.zones[EXIT])
        with self._window(kind, seat, None if kind in NO_GUEST else pawn, slot) as mistake:
            if kind == "EXIT_POURED_EARLY":
                mat.take_up(*poured)
            elif kind == "GUEST_TAKEN_OUT":
                mat.take_up(uid)
            else:
                mat.set_down(int(slot or 0), uid)
            self._acked(mat)
            mistake.due = (mistake.start, self.table.count)
            mistake.mend = self._mend(kind, seat, pawn, slot, poured)

    def _mend(self, kind: str, seat: int, pawn: int, slot: int | None,
              poured: list[str]) -> str:
        """Mend the mistake ``kind`` as a player would: put back what was taken off, take
        off what was set down, or (half the time) carry a guest set down in a theater
        that takes none to one where the rules seat it."""
        mat, uid = self.mats[seat], self.uids[pawn]
        with self.lock:
            better = self._seat_slot(seat, pawn) if kind in REFUSALS else None
        how = "taken off"
        if kind == "EXIT_POURED_EARLY":
            mat.set_down(EXIT, *poured)
            how = "put back"
        elif kind == "GUEST_TAKEN_OUT":
            mat.set_down(int(slot or 0), uid)
            how = "put back"
        elif better is not None and self.chance.random() < 0.5:
            mat.move(uid, better)
            how = "carried"
        else:
            mat.take_up(uid)
        self._acked(mat)
        return how

    def _seat_slot(self, seat: int, pawn: int) -> int | None:
        """A theater where the rules seat ``pawn`` if it is set down there (the seat the
        mat picks is a legal placement), or None."""
        state = self.table.state
        slots = [m.slot for m in state.legal_moves(seat) if m.kind == "place" and
                 m.pawn == pawn and m.slot is not None and
                 m.seat == seat_for(state, seat, m.slot)]
        return self.chance.choice(slots) if slots else None

    @contextmanager
    def _window(self, kind: str, seat: int, pawn: int | None,
                slot: int | None) -> Iterator[Mistake]:
        """A mistake's window in the log: from the table's count before it to after its
        mend."""
        self.todo.remove(kind)
        mistake = Mistake(kind, seat, pawn, slot, self.table.count,
                          round=self.table.state.round)
        self.mistakes.append(mistake)
        yield mistake
        self._settle()
        mistake.end = self.table.count

    def _leave_now(self, move: Move) -> bool:
        """Whether this ``end_guest`` is the mistake of a guest left in its theater: if so,
        it is ended from the tablet and its pawn stays on the theater's zone until the
        checkpoint (:meth:`_follow_left`). Only in a round that is not the last (the
        checkpoint is in the next round)."""
        state = self.table.state
        kind = "GUEST_LEFT_IN_THEATER"
        if kind not in self.todo or self.open is not None or state.last_round or \
                not self._due(kind) or self.chance.random() >= self.rate:
            return False
        assert move.player is not None and move.slot is not None and move.seat is not None
        pawn = state.occupant(move.player, move.slot, move.seat)
        if pawn is None:
            return False
        self.todo.remove("GUEST_LEFT_IN_THEATER")
        mistake = Mistake("GUEST_LEFT_IN_THEATER", move.player, pawn, move.slot,
                          self.table.count, round=state.round)
        self.left, self.open = (move.player, self.uids[pawn], move.slot), mistake
        self.mistakes.append(mistake)
        try:
            self.decide(move)
        except TableError:  # the state moved on meanwhile: no mistake made
            self.left = self.open = None
            self.mistakes.remove(mistake)
            self.todo.append(mistake.code)
        return True

    def _follow_left(self) -> None:
        """Once the checkpoint after a guest left in a theater has passed (the next round's
        first Buying turn has ended, or the game is over), the hand takes it off."""
        mistake = self.open
        if mistake is None:
            return
        state = self.table.state
        passed = state.is_over or self.left is None or (
            state.round > mistake.round and
            not (state.phase == "buying" and state.turns_left == state.n))
        if not passed:
            return
        mistake.due = (self.step_from, self.table.count)
        self.left, mistake.mend = None, "taken off"
        self.tidy_mats()
        self._settle()
        mistake.end, self.open = self.table.count, None

    # -- the moments that suit each mistake (read under the hub's lock) ---------------------

    def _placing(self) -> list[tuple[int, int]]:
        """``(seat, pawn)`` for each drawn guest its player may place now (a guest drawn
        to a seat too)."""
        state = self.table.state
        return [(seat, m.pawn) for seat in self.mats for m in state.legal_moves(seat)
                if m.kind == "place" and m.pawn is not None]

    def _targets(self, seat: int) -> set[tuple[int, int]]:
        """The seats ``(slot, index)`` a guest drawn to a seat may take now, pushing out the
        guest who sits there (none without such a guest)."""
        task = self.table.state.task_for(seat)
        if task is None or task.kind != "draw_seat" or task.pawn is None:
            return set()
        return set(draw_seat_targets(self.table.state, seat))

    def _no_movie(self) -> tuple[int, int, int | None] | None:
        """A drawn guest to place, and a theater of its player's that shows no movie."""
        state = self.table.state
        for seat, pawn in self._placing():
            slots = [s for s in range(THEATERS) if state.movie(seat, s) is None]
            if slots:
                return seat, pawn, self.chance.choice(slots)
        return None

    def _full(self) -> tuple[int, int, int | None] | None:
        """A drawn guest to place, and a full theater of its player's."""
        for seat, pawn in self._placing():
            taken = {slot for slot, _ in self._targets(seat)}  # a drawn guest may push out
            slots = [s for s in range(THEATERS) if self._is_full(seat, s) and s not in taken]
            if slots:
                return seat, pawn, self.chance.choice(slots)
        return None

    def _is_full(self, seat: int, slot: int) -> bool:
        state = self.table.state
        theater = state.theater(seat, slot)
        return theater is not None and state.movie(seat, slot) is not None and all(
            state.occupant(seat, slot, i) is not None for i in range(theater.seats))

    def _seated_early(self) -> tuple[int, int, int | None] | None:
        """A seated guest that may not leave its seat yet (not acting, not one the rules
        would let start and end its activation now, not one a guest drawn to a seat may
        push out)."""
        state = self.table.state
        if state.phase != "showings":
            return None
        for seat in self.mats:
            pushed = self._targets(seat)  # a guest that may be pushed out may go
            for slot in range(THEATERS):
                for index in range(MOST_SEATS):
                    pawn = state.occupant(seat, slot, index)
                    if pawn is not None and (slot, index) not in pushed and \
                            not self._may_leave(seat, slot, index):
                        return seat, pawn, slot
        return None

    def _may_leave(self, seat: int, slot: int, index: int) -> bool:
        """The hub's own rule for a guest leaving its seat (``mats.may_leave``)."""
        return may_leave(self.table.state, seat, P.seat(seat, slot, index))

    def _poured(self) -> tuple[int, int, int | None] | None:
        """An exit zone with 2+ guests, lying on the mat's exit zone, and a bag that still
        holds guests."""
        state = self.table.state
        for seat, mat in self.mats.items():
            out = state.pawns_at(P.exit_zone(seat))
            if len(out) >= 2 and state.pawns_at(P.bag(seat)) and \
                    {self.uids[p] for p in out} == set(mat.zones[EXIT]):
                return seat, out[0], None
        return None

    def _in_bag(self) -> tuple[int, int, int | None] | None:
        """A guest still in a player's bag, and one of that player's theaters."""
        state = self.table.state
        seats = [seat for seat in self.mats if state.pawns_at(P.bag(seat))]
        if not seats:
            return None
        seat = self.chance.choice(seats)
        return seat, self.chance.choice(state.pawns_at(P.bag(seat))), \
            self.chance.randrange(THEATERS)


# -- a game ------------------------------------------------------------------------------


def play_game(seed: int, tmp: Path, rate: float = 0.25) -> GameResult:
    """One whole game with the mistakes injected (``seed``: the tags, the players and the
    mistakes); its log read back once it is over."""
    mats = [VirtualMat(m, zones=4, resend_interval=0.5) for m in MATS]
    bags = [VirtualReader(r, resend_interval=0.5) for r in BAGS]
    bank = SerialBank([*bags, *mats], tmp / "dev").start()
    hub = Hub(tmp / "hub.sqlite", readers=BAGS, mats=MATS)
    began = time.monotonic()
    try:
        hub.start(serial=[bank.path(r) for r in [*BAGS, *MATS]])
        uids = enroll_box(hub, seed)
        table, _, _ = hub.create_table(list(PLAYERS), BAGS, 0, "Mistakes", None, mats=MATS)
        players = MistakePlayers(hub, table, bank, uids, delay=0, seed=seed,
                                 cards=card_uids(box_book(), seed), mats=dict(enumerate(mats)),
                                 rate=rate, mistake_seed=seed)
        over = players.play()
        bank.wait_acked(10)
        with hub.lock:
            events = hub.store.events(table.id)
            record, scores = (table.record_text(), table.scores()) if over else ("", None)
    finally:
        hub.stop()
        bank.stop()
    alerts = {n: body["alert"] for n, kind, body in events
              if kind == "tag" and body.get("alert")}
    mended = {body["alert"] for _, kind, body in events
              if kind == "handled" and body.get("how") == "mat"}
    replayed = over and replays_to(record, scores, tmp)
    return GameResult(seed, players.mistakes, alerts, mended, over, replayed, players.steps,
                      time.monotonic() - began)


def replays_to(record: str, scores: Any, tmp: Path) -> bool:
    """Whether ``popcorn-companion replay`` of ``record`` prints ``scores``."""
    path = tmp / "game.jsonl"
    path.write_text(record)
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    printed = done.stdout
    if done.returncode != 0 or "{" not in printed:
        return False
    return bool(json.loads(printed[printed.index("{"):])["scores"] == scores)


# -- judging ------------------------------------------------------------------------------


def in_window(mistake: Mistake, alerts: dict[int, dict[str, Any]]) -> list[tuple[int, dict]]:
    """The alerts raised in ``mistake``'s window, by event number."""
    end = mistake.end if mistake.end is not None else max(alerts, default=0)
    return [(n, a) for n, a in sorted(alerts.items()) if mistake.start < n <= end]


def faults(mistake: Mistake, number: int, alert: dict[str, Any], mended: bool) -> list[str]:
    """What is wrong with the one alert ``mistake`` raised, event ``number`` of the log
    (nothing: it is caught)."""
    params = alert.get("params") or {}
    found = []
    if mistake.due is not None and not mistake.due[0] < number <= mistake.due[1]:
        found.append("raised at another moment")
    if alert.get("code") != mistake.code:
        found.append(f"code {alert.get('code')}")
    if mistake.code not in NO_GUEST and (params.get("pawn") != mistake.pawn or
                                         not params.get("color")):
        found.append("guest not named")
    slot = (params.get("theater") or {}).get("slot") if mistake.code in REFUSALS \
        else params.get("slot")
    if mistake.slot is not None and mistake.code not in NO_GUEST and slot != mistake.slot + 1:
        found.append("theater not named")
    if params.get("player") != mistake.seat:
        found.append("player not named")
    if not alert.get("fix"):
        found.append("no fix")
    if mistake.code in MENDED and not mended:
        found.append("not mended by the mat")
    return found


def translated(alert: dict[str, Any]) -> bool:
    """Whether the alert's message reads otherwise in French than in English, as a screen
    renders it (from its code's template, or its English message for a code with none)."""
    catalog = translations("fr")
    def pgettext(context: str, text: str) -> str:
        """The catalog's translation of ``text`` in ``context``."""
        return str(catalog.pgettext(context, text))

    try:
        french, _ = render_alert(alert["code"], alert.get("params") or {}, catalog.gettext,
                                 "fr", pgettext=pgettext)
    except KeyError:  # no template: a screen shows the English message
        french = alert["message"]
    return bool(french) and french != alert["message"]


@dataclass
class Tally:
    """Per mistake kind: injected, caught, missed, extra alerts, faulty (and why),
    untranslated; the games' stray alerts, games ended and replayed."""

    rows: dict[str, Counter[str]] = field(
        default_factory=lambda: {kind: Counter() for kind in KINDS})
    reasons: dict[str, Counter[str]] = field(
        default_factory=lambda: {kind: Counter() for kind in KINDS})
    mends: dict[str, Counter[str]] = field(
        default_factory=lambda: {kind: Counter() for kind in KINDS})
    stray: Counter[str] = field(default_factory=Counter)
    games: int = 0
    ended: int = 0
    replayed: int = 0
    seconds: float = 0.0

    def add(self, game: GameResult) -> None:
        """Count one game."""
        self.games += 1
        self.ended += game.over
        self.replayed += game.replayed
        self.seconds += game.seconds
        claimed: set[int] = set()
        for mistake in game.mistakes:
            self._judge(mistake, in_window(mistake, game.alerts), game.mended)
            claimed |= {n for n, _ in in_window(mistake, game.alerts)}
        self.stray.update(a["code"] for n, a in game.alerts.items() if n not in claimed)

    def _judge(self, mistake: Mistake, raised: list[tuple[int, dict]], mended: set[int]) -> None:
        row = self.rows[mistake.code]
        row["injected"] += 1
        self.mends[mistake.code][mistake.mend] += 1
        if not raised:
            row["missed"] += 1
            return
        row["extra"] += len(raised) - 1
        number, alert = raised[0]
        row["untranslated"] += not translated(alert)
        wrong = faults(mistake, number, alert, number in mended)
        if len(raised) > 1:
            wrong.append("more than one alert: " + ", ".join(a["code"] for _, a in raised))
        if wrong:
            row["faulty"] += 1
            self.reasons[mistake.code].update(wrong)
        else:
            row["caught"] += 1

    def to_dict(self) -> dict[str, Any]:
        """The figures, as ``--json`` prints them."""
        return {"games": self.games, "ended": self.ended, "replayed": self.replayed,
                "stray": dict(self.stray), "seconds": round(self.seconds, 1),
                "kinds": {k: {**{c: self.rows[k][c] for c in COLUMNS},
                              "reasons": dict(self.reasons[k]),
                              "mends": dict(self.mends[k])} for k in KINDS}}


COLUMNS = ("injected", "caught", "missed", "extra", "faulty", "untranslated")
"""The figures per mistake kind."""


def report(tally: Tally) -> str:
    """The figures as a table, then the games' summary."""
    lines = [f"{'mistake':<24}" + "".join(f"{c:>13}" for c in COLUMNS)]
    for kind in KINDS:
        row = tally.rows[kind]
        lines.append(f"{kind:<24}" + "".join(f"{row[c]:>13}" for c in COLUMNS))
        if tally.reasons[kind]:
            lines.append(f"{'':<24}faults: " + ", ".join(
                f"{why} ({n})" for why, n in tally.reasons[kind].most_common()))
    lines.append("mended by the hands:")
    lines += [f"  {kind}: " + ", ".join(f"{how} {n}" for how, n in
                                        sorted(tally.mends[kind].items())) for kind in KINDS]
    stray = sum(tally.stray.values())
    lines.append(f"stray alerts (outside every mistake): {stray}" +
                 (f" {dict(tally.stray)}" if stray else ""))
    lines.append(f"games: {tally.games}, ended {tally.ended}, replayed to the hub's scores "
                 f"{tally.replayed}; {tally.seconds:.0f} s")
    return "\n".join(lines)


def run(games: int, seed: int, rate: float) -> Tally:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) and count them."""
    tally = Tally()
    for n in range(games):
        with tempfile.TemporaryDirectory(prefix="mat-mistakes-") as tmp:
            tally.add(play_game(seed + n, Path(tmp), rate))
    return tally


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.25,
                        help="chance that a suitable moment takes a mistake not yet made")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    tally = run(args.games, args.seed, args.rate)
    print(json.dumps(tally.to_dict(), indent=1) if args.json else report(tally))
    return 0


if __name__ == "__main__":
    sys.exit(main())
