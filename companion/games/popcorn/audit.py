"""A Popcorn bag audit: every guest the player tapped against what the companion has there.

The player taps each guest in their bag (:mod:`companion.kit.audits`). The companion knows a
guest never tapped only by its color (see :mod:`.tags`), so the bag is compared color by
color: a tapped guest the companion had elsewhere, but known only by its color, simply stands
for a look-alike the companion had in the bag and nobody tapped; nothing is found. What is
left after that are real differences:

- **found elsewhere**: a tapped guest the companion had in another place (its exit zone,
  another bag, the reserve): the fix puts it into the bag (a correction). A guest the
  companion has on a seat or drawn is moved by the rules, not by a correction, so that
  difference is *refused* with the correction's code (``PAWN_IN_PLAY``);
- **not tapped**: a guest the companion had in the bag that nobody tapped. While the player
  still owes draws, it is a draw the reader missed, and the fix draws it (a move); otherwise
  the fix puts it where a guest of its color was found missing from (the place the other
  guest came from), else into the player's exit zone, where a guest out of the bag usually
  is;
- **tapped twice** and tags that are no guest: said, with nothing to mend.

Pure: it reads the state (and a copy it changes to check each fix in turn) and returns a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.kit.audits import AuditReport, Finding
from companion.kit.errors import TableError
from companion.kit.game import AuditTap
from companion.kit.texts import Lenient

from .alert_params import guest_words, place_params
from .corrections import relocate
from .engine import GameState, move_from_dict
from .engine import pawns as P
from .tags import known_by_color

MESSAGES: dict[str, str] = {
    "AUDIT_FOUND_ELSEWHERE": "The {guest} is in {name}'s bag, but the companion had it in "
                             "{place}.",
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


def audit(state: GameState, seat: int, taps: Sequence[AuditTap],
          tapped: frozenset[int]) -> AuditReport:
    """What ``seat``'s audit taps say about their bag (see the module's text)."""
    report = _Report(state, seat)
    guests = report.read_taps(taps)
    bag = P.bag(seat)
    missing = [q for q in sorted(state.pawns_at(bag)) if q not in guests]
    found = [p for p in guests if state.loc[p] != bag]
    for pawn in found:
        alike = next((q for q in missing if state.pawn_color[q] == state.pawn_color[pawn]
                      and known_by_color(state, q, tapped)), None)
        if alike is not None and known_by_color(state, pawn, tapped):
            missing.remove(alike)  # two look-alikes: the bag holds what the companion said
            continue
        report.found_elsewhere(pawn)
    for pawn in missing:
        report.not_tapped(pawn)
    return report.done(guests)


class _Report:
    """An audit report being built, with the copy of the state its fixes change in turn."""

    def __init__(self, state: GameState, seat: int) -> None:
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
            thing = tap.thing
            if thing is None:
                self._find("AUDIT_UNKNOWN_TAG", {"uid": tap.uid})
            elif thing.kind != "pawn":
                self._find("AUDIT_NOT_A_GUEST", {"kind": thing.kind})
            elif int(thing.id) in guests:
                if guests.count(int(thing.id)) == 1:  # said once, however often it came
                    self._find("AUDIT_TAPPED_TWICE", self._guest(int(thing.id)))
                guests.append(int(thing.id))
            else:
                guests.append(int(thing.id))
        return list(dict.fromkeys(guests))

    def found_elsewhere(self, pawn: int) -> None:
        """A tapped guest the companion had in another place: into the bag, if the rules let
        a correction move it."""
        params = {**self._guest(pawn), **place_params(self.state.loc[pawn], self.state.names)}
        body = {"pawn": pawn, "zone": "bag", "player": self.seat}
        if self._fix({"correct": body}, params, "AUDIT_FOUND_ELSEWHERE", self.state.loc[pawn]):
            self.vacated.setdefault(params["color"], []).append(
                _zone_of(params["zone"], self.state, pawn))

    def not_tapped(self, pawn: int) -> None:
        """A guest the companion had in the bag that was not tapped: drawn if a draw of it
        is due, else moved to where its color went missing, or to the exit zone."""
        draw = next((m for m in self.trial.chance_outcomes(self.seat)
                     if m.kind == "draw_pawn" and m.pawn == pawn), None)
        if draw is not None:
            self._fix({"move": draw.to_dict()}, self._guest(pawn), "AUDIT_NOT_TAPPED_DRAWN")
            return
        color = self.state.pawn_color[pawn]
        spots = self.vacated.get(color)
        to = spots.pop(0) if spots else {"zone": "exit", "player": self.seat}
        loc = _loc(to)
        params = {**self._guest(pawn), **place_params(loc, self.state.names)}
        self._fix({"correct": {"pawn": pawn, **to}}, params, "AUDIT_NOT_TAPPED", loc)

    def _fix(self, fix: dict[str, Any], params: dict[str, Any], code: str,
             where: int | None = None) -> bool:
        """Check ``fix`` on the trial state: a finding that it mends, or a refusal."""
        try:
            if "move" in fix:
                self.trial.apply(move_from_dict(fix["move"]))
            else:
                relocate(self.trial, fix["correct"])
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

    def done(self, guests: list[int]) -> AuditReport:
        """The report, with the counts per color (tapped against what the bag held)."""
        counts = []
        held = self.state.pawns_at(P.bag(self.seat))
        for color in dict.fromkeys(self.state.pawn_color):
            had = sum(1 for q in held if self.state.pawn_color[q] == color)
            got = sum(1 for q in guests if self.state.pawn_color[q] == color)
            if had or got:
                counts.append({"key": color, "tapped": got, "expected": had})
        return AuditReport(tuple(self.findings), tuple(self.fixes), tuple(self.refused),
                           tuple(counts))


def _zone_of(zone: str, state: GameState, pawn: int) -> dict[str, Any]:
    """The correction's place (``zone`` and ``player``) of where ``pawn`` was."""
    owner = P.owner(state.loc[pawn])
    return {"zone": zone} if owner is None else {"zone": zone, "player": owner}


def _loc(place: dict[str, Any]) -> int:
    """The location code of a correction's place."""
    zone, player = place["zone"], int(place.get("player", 0))
    if zone == "box":
        return P.BOX
    if zone == "reserve":
        return P.RESERVE
    return P.bag(player) if zone == "bag" else P.exit_zone(player)
