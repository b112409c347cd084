"""A Popcorn bag audit: every guest the player tapped against what the companion has there.

The player taps each guest in their bag (:mod:`companion.kit.audits`). The companion knows
where each pawn may be (:mod:`.whereabouts`), so the bag is compared color by color:

- a tapped guest that **may be in the bag** (some arrangement the table's moves allow puts it
  there) is simply there: nothing is found. Accepting the audit tells the hub so (the
  report's ``learned`` correction: every such guest is in the bag, a relabel that changes no
  count), and the hub knows each of them by its tag from then on;
- **found elsewhere**: a tapped guest the companion knows to be in another place (its exit
  zone, another bag, the reserve): the fix puts it into the bag (a correction naming it).
  A guest the companion has on a seat or drawn is moved by the rules, not by a correction,
  so that difference is *refused* with the correction's code (``PAWN_IN_PLAY``). When the
  companion cannot say where the guest was (it may be in several places), no fix could take
  it from the right one: the finding says so (``AUDIT_FOUND_UNSURE``) and mends nothing;
- **not tapped**: the bag holds more guests of a color than were tapped. While the player
  still owes draws, each is a draw the reader missed, and the fix draws a guest of that
  color (a move entered by color: the hub does not guess which pawn it was); otherwise the
  fix puts a guest of that color where a guest of its color was found missing from (the
  place the other guest came from), else into the player's exit zone, where a guest out of
  the bag usually is;
- **tapped twice** and tags that are no guest: said, with nothing to mend.

Pure: it reads the state (and copies it changes to check each fix in turn) and returns a
value.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from companion.kit.audits import AuditReport, Finding
from companion.kit.errors import TableError
from companion.kit.game import AuditTap
from companion.kit.texts import Lenient

from .alert_params import guest_words, place_params
from .corrections import correct, in_play_at, in_play_error
from .engine import GameState, move_from_dict
from .engine import pawns as P
from .table_state import TableState
from .tags import tracked

MESSAGES: dict[str, str] = {
    "AUDIT_FOUND_ELSEWHERE": "The {guest} is in {name}'s bag, but the companion had it in "
                             "{place}.",
    "AUDIT_FOUND_UNSURE": "The {guest} is in {name}'s bag, but the companion knew it was not "
                          "there and cannot say where it came from: check the other bags, "
                          "or correct its place by hand.",
    "AUDIT_NOT_TAPPED_DRAWN": "The companion had a {guest} in {name}'s bag that was not "
                              "tapped: it counts as drawn.",
    "AUDIT_NOT_TAPPED": "The companion had a {guest} in {name}'s bag that was not tapped: it "
                        "goes to {place}.",
    "AUDIT_TAPPED_TWICE": "The {guest} was tapped twice: it counts once.",
    "AUDIT_UNKNOWN_TAG": "An unknown tag ({uid}) was tapped during the audit of {name}'s "
                         "bag.",
    "AUDIT_NOT_A_GUEST": "A {kind} tag was tapped during the audit of {name}'s bag: only "
                         "guests count.",
}
"""The English sentence of each finding (:data:`.texts.FINDINGS` holds their templates)."""


def audit(state: GameState, seat: int, taps: Sequence[AuditTap]) -> AuditReport:
    """What ``seat``'s audit taps say about their bag (see the module's text)."""
    state = tracked(state)
    report = _Report(state, seat)
    guests = report.read_taps(taps)
    bag = P.bag(seat)
    probe = state.clone()
    inside: list[int] = []
    for color in dict.fromkeys(state.pawn_color):
        tapped = [q for q in guests if state.pawn_color[q] == color]
        held = sum(1 for q in state.pawns_at(bag) if state.pawn_color[q] == color)
        mine = _inside(probe, tapped, held, bag)
        for pawn in tapped:
            if pawn not in mine:
                report.found_elsewhere(pawn)
        inside += mine
        for _ in range(held - len(mine)):
            report.not_tapped(color, guests)
    return report.done(guests, [q for q in guests if q in inside])


def _inside(probe: TableState, tapped: list[int], held: int, bag: int) -> list[int]:
    """Which of the ``tapped`` guests of one color the bag held, as far as the hub can tell
    (``held``: how many the hub has there): they are seen there in ``probe``. When more were
    tapped than the bag held, the others came from elsewhere: the hub prefers the choice in
    which each of those may be in one other place only, so that its fix names that place (a
    guest that slipped back into the bag unseen came from there); else any choice that fits.
    """
    extra = len(tapped) - held
    if extra > 0:
        choices = list(combinations(tapped, extra))
        known = probe.known
        certain = [c for c in choices if all(len(known.maybe[q] - {bag}) == 1 for q in c)]
        for outside in certain + choices:
            mine = [q for q in tapped if q not in outside]
            if _fits(probe.clone(), mine, bag):
                _fits(probe, mine, bag)
                return mine
    mine = []
    for pawn in tapped:  # each one that still fits, in tap order
        if _fits(probe, [pawn], bag):
            mine.append(pawn)
    return mine


def _fits(probe: TableState, pawns: list[int], bag: int) -> bool:
    """See ``pawns`` in the bag, one after another, in ``probe``; whether all could be
    (``probe`` is changed either way)."""
    for pawn in pawns:
        swaps = probe.known.swaps_for(pawn, bag, probe.loc)
        if swaps is None:
            return False
        probe.relabel(swaps)
        probe.observe(pawn)
    return True


class _Report:
    """An audit report being built, with the copy of the state its fixes change in turn."""

    def __init__(self, state: TableState, seat: int) -> None:
        self.state, self.seat, self.trial = state, seat, state.clone()
        self.name = state.names[seat]
        self.findings: list[Finding] = []
        self.fixes: list[dict[str, Any]] = []
        self.refused: list[dict[str, Any]] = []
        self.vacated: dict[str, list[dict[str, Any]]] = {}
        """Per color, the places guests found in the bag came from (a guest missing from
        the bag most likely went there)."""

    def read_taps(self, taps: Sequence[AuditTap]) -> list[int]:
        """The guests tapped, each once, in tap order; the other taps become findings."""
        guests: list[int] = []
        for tap in taps:
            thing = tap.piece
            if thing is None:
                self._find("AUDIT_UNKNOWN_TAG", {"uid": tap.uid})
            elif thing.kind != "pawn" or thing.game not in ("", "popcorn"):
                self._find("AUDIT_NOT_A_GUEST", {"kind": thing.kind})
            elif int(thing.id) in guests:
                if guests.count(int(thing.id)) == 1:  # said once, however often it came
                    self._find("AUDIT_TAPPED_TWICE", self._guest(int(thing.id)))
                guests.append(int(thing.id))
            else:
                guests.append(int(thing.id))
        return list(dict.fromkeys(guests))

    def found_elsewhere(self, pawn: int) -> None:
        """A tapped guest the companion knows is not in the bag: into the bag, from the one
        other place it may be in, if there is one and the rules let a correction move it."""
        bag = P.bag(self.seat)
        places = self.state.known.maybe[pawn] - {bag}
        if len(places) != 1:
            self._find("AUDIT_FOUND_UNSURE", self._guest(pawn))
            return
        where = next(iter(places))
        params = {**self._guest(pawn), **place_params(where, self.state.names)}
        if in_play_at(self.state, where):
            refusal = in_play_error(self.state, pawn, where)
            self.refused.append({"code": refusal.code, "message": refusal.message,
                                 "params": {**refusal.params, **params}})
            return
        body = {"pawn": pawn, "zone": "bag", "player": self.seat, "by": "tag",
                "from": _zone_of(where)}
        if self._fix({"correct": body}, params, "AUDIT_FOUND_ELSEWHERE", where):
            self.vacated.setdefault(params["color"], []).append(_zone_of(where))

    def not_tapped(self, color: str, tapped: list[int]) -> None:
        """A guest of ``color`` the companion had in the bag that was not tapped: drawn if a
        draw is due, else moved to where its color went missing, or to the exit zone; either
        way by its color (a pawn the audit did not see)."""
        bag = P.bag(self.seat)
        pawn = next(q for q in self.trial.pawns_at(bag)
                    if self.trial.pawn_color[q] == color and q not in tapped)
        draw = next((m for m in self.trial.chance_outcomes(self.seat)
                     if m.kind == "draw_pawn" and m.pawn == pawn), None)
        if draw is not None:
            self._fix({"move": draw.to_dict()}, self._guest(pawn), "AUDIT_NOT_TAPPED_DRAWN")
            return
        spots = self.vacated.get(color)
        to = spots.pop(0) if spots else {"zone": "exit", "player": self.seat}
        loc = _loc(to)
        params = {**self._guest(pawn), **place_params(loc, self.state.names)}
        body = {"pawn": pawn, **to, "by": "color"}
        self._fix({"correct": body}, params, "AUDIT_NOT_TAPPED", loc)

    def _fix(self, fix: dict[str, Any], params: dict[str, Any], code: str,
             where: int | None = None) -> bool:
        """Check ``fix`` on the trial state: a finding that it mends, or a refusal."""
        try:
            if "move" in fix:
                self.trial.apply(move_from_dict(fix["move"]))
            else:
                correct(self.trial, fix["correct"])
        except TableError as exc:
            self.refused.append({"code": exc.code, "message": exc.message,
                                 "params": {**exc.params, **params}})
            return False
        self.fixes.append(fix)
        self._find(code, params, len(self.fixes) - 1, where)
        return True

    def _find(self, code: str, params: dict[str, Any], fix: int | None = None,
              where: int | None = None) -> None:
        """Add a finding; ``where``: the location its ``{place}`` names."""
        params = {"player": self.seat, "name": self.name, **params}
        words = {"guest": guest_words(params.get("color", "")),
                 "place": "" if where is None else P.describe(where, self.state.names)}
        message = MESSAGES[code].format_map(Lenient({**params, **words}))
        self.findings.append(Finding(code, message, params, fix))

    def _guest(self, pawn: int) -> dict[str, Any]:
        return {"pawn": pawn, "color": self.state.pawn_color[pawn]}

    def done(self, guests: list[int], inside: list[int]) -> AuditReport:
        """The report, with the counts per color (tapped against what the bag held) and
        what accepting tells the hub: the guests it saw in the bag."""
        counts = []
        held = self.state.pawns_at(P.bag(self.seat))
        for color in dict.fromkeys(self.state.pawn_color):
            had = sum(1 for q in held if self.state.pawn_color[q] == color)
            got = sum(1 for q in guests if self.state.pawn_color[q] == color)
            if had or got:
                counts.append({"key": color, "tapped": got, "expected": had})
        learned = {"seen": inside, "zone": "bag", "player": self.seat} if inside else None
        return AuditReport(tuple(self.findings), tuple(self.fixes), tuple(self.refused),
                           tuple(counts), learned=learned)


def _zone_of(where: int) -> dict[str, Any]:
    """The correction's place (``zone`` and ``player``) of a location at rest."""
    if where in (P.BOX, P.RESERVE):
        return {"zone": "box" if where == P.BOX else "reserve"}
    owner = P.owner(where)
    zone = "bag" if where == P.bag(owner or 0) else "exit"
    return {"zone": zone, "player": owner}


def _loc(place: dict[str, Any]) -> int:
    """The location code of a correction's place."""
    zone, player = place["zone"], int(place.get("player", 0))
    if zone == "box":
        return P.BOX
    if zone == "reserve":
        return P.RESERVE
    return P.bag(player) if zone == "bag" else P.exit_zone(player)
