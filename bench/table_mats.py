"""Cinema mats under the physical table's cinemas, read through the mat's own firmware.

With mats (``PhysicalTable(..., mats=Mats(...))``, ``bench/any_pawn.py --mats``), a mat lies
under each player's cinema: zones 0 to 2 under the theater slots, zone 3 under the exit zone
(:mod:`companion.games.popcorn.mats`). What lies on each zone is the table's **truth** (a
guest in a seat of theater 2 lies on zone 1, one in the exit zone on zone 3), so the hands
make every change there:

- a drawn guest is **set down** on its theater's zone (``place``) or on the exit zone
  (``to_exit``), a seated guest **carried** to the exit zone (``end_guest``): the hub makes
  the move of what the mat reports, nobody touches the tablet. A hand takes any guest of the
  move's color out of its hand: it reads no id;
- after every action the hands move what the rules moved (a guest pushed out of its seat,
  drawn guests sent to the exit zone, the exit zone **poured** into the bag): the hub must
  see it as no news.

Each mat scans in a loop (:class:`FirmwareMat`), in modeled time: every zone's raw reads go
through the firmware's own debounce, ``firmware/zones.py`` (2 scans in a row to arrive, 3
missed to leave, arrival order kept), and each settled state the firmware would send is built
by ``firmware/messages.py``, parsed by the hub's protocol and handed to the table.

**Noise** (:class:`Noise`) is added to the raw reads:

- a **hovering** hand over a zone shadows the tags lying there for 1 or 2 scans (``hover``:
  the chance per scan of a mat; a hand that carries a guest also passes over another zone of
  the mat, where the guest is read for one scan, at the same rate per carry);
- a **flickering** tag is missed for 1 or 2 scans (``flicker``: the chance per scan of each
  tag lying on a mat).

A noise report whose tags are a hand's change split across scans or reordered (a tag set
down while it flickered settles a scan later) is read by the hub as the hand's change; one
that shows a tag no hand moved is a **phantom** (a tag seen leaving and coming back: only
overlapping noise, ``Noise.overlap``, hides a tag 3 scans in a row).

Attribution: every zone is also debounced a second time from the same scans without the
noise. At the end of each action's window (the mat scanned until the debounce has settled),
each zone's reports are compared: equal, the window's noise on that zone was **absorbed**;
different, each report the noise-free firmware would not have sent is a **noise report**.
Every move the hub makes of a report must be the hand's intended one (its kind, player,
theater and color); any other is a **move from noise** when noise reached the hub in that
window (goal: 0), else a **stray move** (a bug of the hub or of this bench, written down). An
alert on a mat report is a false alert, unless it came of a noise report.
"""

from __future__ import annotations

import difflib
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
if str(FIRMWARE) not in sys.path:  # the board keeps its modules at the top of its flash
    sys.path.append(str(FIRMWARE))

# the firmware's pure modules only: mat.py's app module, loaded here, would come before the
# firmware tests' fakes of MicroPython and keep none of them
import messages as fw_messages  # noqa: E402  (firmware/messages.py)
from physical_table import TableBroke  # noqa: E402
from zones import LEAVE_SCANS, ZONE_LIMIT, ZoneTags  # noqa: E402  (firmware/zones.py)

from companion.games.popcorn.demo import SENSED  # noqa: E402
from companion.games.popcorn.engine import pawns as P  # noqa: E402
from companion.games.popcorn.mats import EXIT, ZONES, seat_for  # noqa: E402

ZONE_MS = (1.8, 6.1)
"""A zone's scan in modeled milliseconds: a fixed part and a part per tag lying there
(fitted to ``bench/mat_scan.py``'s figures at 4 MHz: 1, 2, 3 and 6 tags in 7.9, 14.0, 20.0
and 40.6 ms)."""
IDLE_MS = 5
"""The firmware loop's pause between two full scans (``app.App.run``'s ``idle_ms``)."""
MOST_SCANS = 60
"""The most scans a window takes before the mats are taken as never settling (a bug)."""


@dataclass
class Noise:
    """How noisy the mats are (see the module's text): ``hover`` a chance per scan of a mat
    (and per carried guest), ``flicker`` per scan of each tag lying on a mat; ``scans`` how
    many scans each action's window lasts at least (the time an action takes, in scans)."""

    hover: float = 0.05
    flicker: float = 0.01
    scans: int = 6
    overlap: bool = False
    """Whether noise events may overlap, so that a tag is missed 3 scans in a row or more
    (beyond what a hovering hand or a flickering tag does alone: the debounce then sees it
    leave). By default a noise event that would make that run is not injected."""


@dataclass
class Report:
    """One zone state the firmware sent, and what the hub made of it."""

    seat: int
    zone: int
    tags: tuple[str, ...]
    moves: list[dict[str, Any]]
    alerts: list[dict[str, Any]]
    noise: bool = False
    """Whether the noise-free firmware would not have sent it (set at the window's end)."""


@dataclass
class Intent:
    """The move a hand means on a mat: its kind, player, theater and seat (None: any, as
    a guest sent to the exit zone has none) and the color of the guest."""

    kind: str
    player: int
    slot: int | None
    seat: int | None
    color: str

    def made_by(self, move: dict[str, Any], colors: tuple[str, ...]) -> bool:
        """Whether the hub's ``move`` (a logged move's dict) is this intent."""
        pawn = move.get("pawn")
        return (move.get("move") == self.kind and move.get("player") == self.player
                and (self.slot is None or move.get("slot") == self.slot)
                and (self.seat is None or move.get("seat") == self.seat)
                and (pawn is None or colors[pawn] == self.color))


@dataclass
class _Event:
    """One noise event on a zone, until the window ends."""

    kind: str
    seat: int
    zone: int


@dataclass
class FirmwareMat:
    """One mat: what lies on each zone (the truth, in the order set down), its modeled
    clock, and each zone's firmware debounce twice, fed the same scans with the noise
    (:attr:`noisy`, what the hub gets) and without it (:attr:`clean`)."""

    reader: str
    rng: random.Random
    lying: list[list[str]] = field(default_factory=lambda: [[] for _ in range(ZONES)])
    noisy: list[ZoneTags] = field(default_factory=lambda: _debounce())
    clean: list[ZoneTags] = field(default_factory=lambda: _debounce())
    shadowed: dict[int, int] = field(default_factory=dict)
    """Zone -> scans a hovering hand still shadows it."""
    missed: dict[str, int] = field(default_factory=dict)
    """UID -> scans a flickering tag is still missed."""
    passing: dict[int, str] = field(default_factory=dict)
    """Zone -> the UID a passing hand carries over it in the next scan."""
    run: dict[str, int] = field(default_factory=dict)
    """UID -> the scans in a row up to now that noise made miss it."""
    seq: int = 0
    ms: float = 0.0

    def scan(self) -> tuple[list[int], list[int]]:
        """One full scan, every zone in turn: the zones whose noisy and clean settled
        states the firmware would send now."""
        sent: tuple[list[int], list[int]] = ([], [])
        for zone in range(ZONES):
            true = list(self.lying[zone])
            self.rng.shuffle(true)  # the order anticollision happens to read them in
            raw = self._noisy(zone, true)
            self._count_run(true, raw)
            for states, out, reads in ((self.noisy, sent[0], raw), (self.clean, sent[1], true)):
                was = states[zone].known()
                if states[zone].update(reads) or (states[zone].known() and not was):
                    out.append(zone)
            self.ms += ZONE_MS[0] + ZONE_MS[1] * len(true)
        self.ms += IDLE_MS
        self._age()
        return sent

    def _noisy(self, zone: int, true: list[str]) -> list[str]:
        """The reads of ``zone`` with the noise: none under a hovering hand, no flickering
        tag, and a carried tag passing over it."""
        reads = [] if zone in self.shadowed else [u for u in true if u not in self.missed]
        if zone in self.passing and self.passing[zone] not in reads:
            reads.append(self.passing[zone])
        return reads

    def _count_run(self, true: list[str], raw: list[str]) -> None:
        """Count, for each tag lying on a zone, the scans in a row the noise hid it."""
        for uid in true:
            if uid in raw:
                self.run.pop(uid, None)
            else:
                self.run[uid] = self.run.get(uid, 0) + 1

    def room(self, zone: int, uid: str, scans: int) -> bool:
        """Whether ``uid`` (lying on ``zone``) may be hidden ``scans`` scans more from now
        and stay within what one hovering hand or one flicker does (missed at most 2 scans
        in a row)."""
        pending = max(self.shadowed.get(zone, 0), self.missed.get(uid, 0), scans)
        return self.run.get(uid, 0) + pending < LEAVE_SCANS

    def _age(self) -> None:
        """One scan of each noise is over."""
        self.shadowed = {z: n - 1 for z, n in self.shadowed.items() if n > 1}
        self.missed = {u: n - 1 for u, n in self.missed.items() if n > 1}
        self.passing = {}

    def settled(self) -> bool:
        """Whether both debounces hold what lies on the mat and no noise is on."""
        if self.shadowed or self.missed or self.passing:
            return False
        return all(set(states[z].tags) == set(self.lying[z]) and not states[z].arriving()
                   for states in (self.noisy, self.clean) for z in range(ZONES))

    def message(self, zone: int) -> bytes:
        """The firmware's ``zones`` message of ``zone``'s noisy settled state, next seq."""
        self.seq += 1
        return bytes(fw_messages.zones(self.reader, 1, self.seq, zone,
                                       list(self.noisy[zone].tags)))

    def where(self, uid: str) -> int | None:
        """The zone ``uid`` lies on, or None."""
        return next((z for z in range(ZONES) if uid in self.lying[z]), None)

    def put(self, uid: str, zone: int | None) -> None:
        """A hand puts ``uid`` on ``zone`` (None: off the mat)."""
        for lying in self.lying:
            if uid in lying:
                lying.remove(uid)
        if zone is not None:
            self.lying[zone].append(uid)


def _debounce() -> list[ZoneTags]:
    return [ZoneTags(capacity=ZONE_LIMIT) for _ in range(ZONES)]


class Mats:
    """A mat under each cinema of a :class:`physical_table.PhysicalTable`, its hands on
    them, and the noise (see the module's text)."""

    def __init__(self, players: int, uids: dict[int, str], rng: random.Random,
                 noise: Noise | None = None) -> None:
        """``uids``: each pawn's tag, as the hub's registry has it."""
        self.mats = [FirmwareMat(mat_id(seat), rng) for seat in range(players)]
        self.uids, self.rng, self.noise = uids, rng, noise or Noise()
        self.events: list[_Event] = []
        self.reports: list[Report] = []
        self.clean: dict[tuple[int, int], list[tuple[str, ...]]] = {}
        self.start: dict[tuple[int, int], tuple[str, ...]] = {}

    # -- the hands ---------------------------------------------------------------------------

    def takes(self, state: Any, move: Any) -> bool:
        """Whether a hand makes ``move`` on a mat: a guest seated, sent out or leaving,
        and for a seat, the one the hub's rule gives a guest set down on that theater."""
        if move.kind not in SENSED:
            return False
        return move.kind != "place" or seat_for(state, move.player, move.slot) == move.seat

    def hand(self, table: Any, state: Any, move: Any) -> bool:
        """Make ``move`` with a hand on its player's mat and scan until it settled; whether
        the hub made it (else the hand has taken the guest back and the table enters the
        move on the tablet)."""
        p, truth = move.player, table.truth
        pawn, zone = self._pick(truth, state, move)
        exits = move.kind == "to_exit"
        intent = Intent(move.kind, p, None if exits else move.slot,
                        None if exits else move.seat, truth.colors[pawn])
        start = truth.loc[pawn]
        self.mats[p].put(self.uids[pawn], zone)
        self._pass_over(p, self.uids[pawn], zone)
        table.tally.mat_actions[move.kind] += 1
        made = self.window(table, intent)
        if not made:
            self.mats[p].put(self.uids[pawn], self._zone_of(p, start))
            self.window(table, None)
            return False
        table.followed(pawn, start, state)
        return True

    def _pick(self, truth: Any, state: Any, move: Any) -> tuple[int, int]:
        """The pawn a hand takes for ``move`` (the guest lying in the seat it ends, else any
        guest of its color in the player's hand) and the zone it sets it down on."""
        p = move.player
        if move.kind == "end_guest":
            here = truth.at(P.seat(p, move.slot, move.seat))
            if not here:
                raise TableBroke(f"no guest lies in seat {move.seat + 1} of theater "
                                 f"{move.slot + 1} of player {p}")
            return here[0], EXIT
        pawn = self.rng.choice(truth.at(P.hand(p), state.pawn_color[move.pawn]))
        return pawn, EXIT if move.kind == "to_exit" else move.slot

    def tidy(self, table: Any) -> None:
        """Move on the mats what the rules moved since (each pawn on the zone of its place
        in the truth, off the mat when it left the cinema), then scan until it settled: the
        hub must make nothing of it."""
        moved = 0
        for seat, mat in enumerate(self.mats):
            for pawn, uid in self.uids.items():
                zone = self._zone_of(seat, table.truth.loc[pawn])
                if mat.where(uid) != zone:
                    mat.put(uid, zone)
                    moved += 1
                    if zone is not None:
                        self._pass_over(seat, uid, zone)
        table.tally.mat_tidy += moved
        self.window(table, None)

    @staticmethod
    def _zone_of(seat: int, place: int) -> int | None:
        """The zone of ``seat``'s mat a pawn at ``place`` lies on (None: off the mat)."""
        if P.is_seat(place) and P.seat_owner(place) == seat:
            return P.seat_parts(place)[1]
        return EXIT if place == P.exit_zone(seat) else None

    # -- noise -------------------------------------------------------------------------------

    def _pass_over(self, seat: int, uid: str, zone: int) -> None:
        """Maybe the hand carrying ``uid`` to ``zone`` passes over another zone first."""
        if self.rng.random() < self.noise.hover:
            other = self.rng.choice([z for z in range(ZONES) if z != zone])
            self.mats[seat].passing[other] = uid
            self.events.append(_Event("passed", seat, other))

    def _inject(self, seat: int) -> None:
        """The noise of one scan of ``seat``'s mat: maybe a hovering hand, maybe flickers."""
        mat, free = self.mats[seat], self.noise.overlap
        if self.rng.random() < self.noise.hover:
            zone, scans = self.rng.randrange(ZONES), self.rng.choice((1, 2))
            if free or all(mat.room(zone, uid, scans) for uid in mat.lying[zone]):
                mat.shadowed[zone] = max(mat.shadowed.get(zone, 0), scans)
                self.events.append(_Event("hover", seat, zone))
        for zone, lying in enumerate(mat.lying):
            for uid in lying:
                scans = self.rng.choice((1, 2))
                if self.rng.random() < self.noise.flicker and (
                        free or mat.room(zone, uid, scans)):
                    mat.missed[uid] = max(mat.missed.get(uid, 0), scans)
                    self.events.append(_Event("flicker", seat, zone))

    # -- a window: scan until settled, then judge -------------------------------------------

    def window(self, table: Any, intent: Intent | None) -> bool:
        """Scan every mat (noise in the first :attr:`Noise.scans` scans) until all settled,
        sending the hub each state the firmware sends; then judge the window. Whether the
        intended move was made (True when there is none)."""
        self.reports, self.clean = [], {}
        self.start = {(seat, zone): tuple(mat.clean[zone].tags)
                      for seat, mat in enumerate(self.mats) for zone in range(ZONES)}
        for scan in range(MOST_SCANS):
            for seat, mat in enumerate(self.mats):
                if scan < self.noise.scans:
                    self._inject(seat)
                self._scan(table, seat, mat)
            if scan + 1 >= self.noise.scans and all(m.settled() for m in self.mats):
                break
        else:
            raise TableBroke(f"the mats never settled in {MOST_SCANS} scans")
        table.tally.mat_scans += scan + 1
        return self.judge(table, intent)

    def _scan(self, table: Any, seat: int, mat: FirmwareMat) -> None:
        """One scan of a mat: its noisy states to the hub, its clean ones kept."""
        noisy, clean = mat.scan()
        for zone in clean:
            self.clean.setdefault((seat, zone), []).append(tuple(mat.clean[zone].tags))
        for zone in noisy:
            moves, alerts = table.hub.zones(seat, mat.message(zone))
            self.reports.append(Report(seat, zone, tuple(mat.noisy[zone].tags), moves, alerts))
            table.tally.mat_reports += 1

    def judge(self, table: Any, intent: Intent | None) -> bool:
        """Mark the noise reports, count the noise absorbed, and attribute every move and
        alert the hub made of the window's reports; whether ``intent`` was made."""
        tally, leaked = table.tally, self._mark_noise()
        for event in self.events:
            tally.noise[event.kind] += 1
            tally.noise_absorbed[event.kind] += (event.seat, event.zone) not in leaked
        tally.noise_reports += sum(r.noise for r in self.reports)
        tally.noise_phantoms += sum(self._phantom(r) for r in self.reports if r.noise)
        self.events = []
        made = intent is None
        colors = table.truth.colors
        for report in self.reports:
            if report.moves and not made and intent is not None and \
                    intent.made_by(report.moves[0], colors):
                made = True
                continue
            self._stray(table, report, bool(leaked))
        return made

    def _phantom(self, report: Report) -> bool:
        """Whether a noise report shows a tag no hand moved: one that never lay on the zone
        in the window, or one missing that lay there all the window (rather than a hand's
        change split across scans or reordered, which the hub reads the same)."""
        key = (report.seat, report.zone)
        states = [set(tags) for tags in (self.start[key], *self.clean.get(key, []))]
        ever, always = set().union(*states), set.intersection(*states)
        return not set(report.tags) <= ever or not always <= set(report.tags)

    def _of_noise(self, report: Report, alert: dict[str, Any]) -> bool:
        """Whether an alert on a noise report came of the noise: the noise-free firmware
        never reported what it is about (the guest it names set down on that zone, or for
        an alert that names none, the zone emptied) in this window. Else the alert was
        due anyway (only the noise's timing or order was new): a false alert."""
        key = (report.seat, report.zone)
        states = [self.start[key], *self.clean.get(key, [])]
        pawn = alert.get("params", {}).get("pawn")
        if pawn is None:
            return not any(not tags for tags in states[1:])
        uid = self.uids[pawn]
        return not any(uid in b and uid not in a for a, b in zip(states, states[1:], strict=False))

    def _mark_noise(self) -> set[tuple[int, int]]:
        """Mark each report the noise-free firmware would not have sent; the zones whose
        reports differ from the noise-free ones."""
        sent: dict[tuple[int, int], list[Report]] = {}
        for report in self.reports:
            sent.setdefault((report.seat, report.zone), []).append(report)
        leaked = set()
        for key in set(sent) | set(self.clean):
            got = sent.get(key, [])
            want = self.clean.get(key, [])
            if [r.tags for r in got] == want:
                continue
            leaked.add(key)
            matcher = difflib.SequenceMatcher(a=[r.tags for r in got], b=want, autojunk=False)
            kept = {i + k for i, _, n in matcher.get_matching_blocks() for k in range(n)}
            for i, report in enumerate(got):
                report.noise = i not in kept
        return leaked

    def _stray(self, table: Any, report: Report, noisy: bool) -> None:
        """Count the moves and alerts of a report no hand meant, as noise's when noise
        reached the hub in this window, else as a bug found (written down)."""
        tally = table.tally
        if report.moves:
            if noisy:
                tally.noise_moves += len(report.moves)
            else:
                tally.stray_moves += len(report.moves)
                tally.mat_findings.append(f"a move no hand meant: {report.moves} of mat "
                                          f"{report.seat + 1} zone {report.zone} "
                                          f"{list(report.tags)}; the last action: "
                                          f"{table.last_action}")
        noise = [a for a in report.alerts if report.noise and self._of_noise(report, a)]
        tally.noise_alerts.update(a["code"] for a in noise)
        alerts = [a for a in report.alerts if a not in noise]
        if alerts:
            tally.false_alerts += len(alerts)
            tally.false_codes.update(a["code"] for a in alerts)
            tally.mat_findings.append(f"a false alert on a mat: {alerts[0]['code']}: "
                                      f"{alerts[0]['message']} (mat {report.seat + 1} "
                                      f"zone {report.zone} {list(report.tags)}; the last "
                                      f"action: {table.last_action})")


def mat_id(seat: int) -> str:
    """The reader id of the mat under ``seat``'s cinema."""
    return f"mat-{seat + 1}"

