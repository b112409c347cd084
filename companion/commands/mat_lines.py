"""The mat lines ``readers tap`` reads, and the guest a hand picks for each.

A line names a virtual cinema mat (``--mat ID``), what a hand does on it, and a guest:

* ``mat-1 down theater 2 blue``: a blue guest set down on theater 2's zone (``exit`` for
  the exit zone);
* ``mat-1 up blue``: a blue guest lying on the mat taken off it;
* ``mat-1 move blue exit`` (or ``move blue to exit``): a blue guest carried to that zone.

A guest is a color (in any language the companion speaks, as for a bag) or a tag UID, sent as
it is. :func:`read_line` reads any line of a session, a mat's into a :class:`MatLine` (by
:func:`parse_mat_line`), a reader's into a :class:`~.tap_lines.TapLine`; :class:`MatHand` picks
the tag for a color as a hand does, knowing nothing of pawn ids: for ``down``, a guest of
that color the player has drawn (or, for the exit zone, one seated in the player's theaters);
for ``up`` and ``move``, one lying on the mat. The zone words are a Popcorn cinema mat's
(zones 0 to 2 under theaters 1 to 3 from left to right, zone 3 under the exit zone, the
one game that reads mats), and the guests where the hub has them are read from its public
view. Every refusal is a :class:`~.tap_hub.TapError` whose message says what would do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.commands.tap_hub import TapError
from companion.commands.tap_lines import MAT_ACTIONS as ACTIONS
from companion.commands.tap_lines import PAWN, TapLine, parse_line, piece_word

THEATERS = 3
"""A cinema mat's theater zones, 0 to 2 (``theater 1`` to ``theater 3``)."""
EXIT = 3
"""A cinema mat's exit zone (``exit``)."""
ZONES = 4
"""The zones of a cinema mat."""
ZONE_WORDS = "theater 1, theater 2, theater 3 or exit"
"""The zones a line may name."""
MAT_USAGE = "MAT down ZONE GUEST, MAT up GUEST or MAT move GUEST ZONE"
"""What a mat line may be, for the prompt, the help and the errors."""
MAT_EXAMPLES = "as in 'mat-1 down theater 2 blue', 'mat-1 move blue exit', 'mat-1 up blue'"
"""A mat line of each form."""


@dataclass(frozen=True)
class MatLine:
    """One mat line read: the mat, the hand's action (``down``, ``up`` or ``move``), the
    zone it sets the guest on (``None`` for ``up``), and how the guest is named (``color``
    or ``uid``) with the word that names it."""

    mat: str
    action: str
    zone: int | None
    how: str
    what: str


def zone_name(zone: int) -> str:
    """A zone in words: ``theater 2``, ``the exit zone``."""
    return "the exit zone" if zone == EXIT else f"theater {zone + 1}"


def read_line(text: str, readers: list[str], mats: list[str]) -> TapLine | MatLine:
    """Read a line of a session of ``readers`` and ``mats``: a mat line when its first word
    is one of the mats, else a reader's (:func:`~.tap_lines.parse_line`)."""
    words = text.split()
    if words and words[0] in mats:
        return parse_mat_line(text, words[0], words[1:])
    return parse_line(text, readers, mats)


def parse_mat_line(text: str, mat: str, rest: list[str]) -> MatLine:
    """Read the words after a mat's id (``down ZONE GUEST``, ``up GUEST`` or ``move GUEST
    ZONE``); :class:`TapError` with what would do for anything else."""
    if not rest:
        raise TapError(f"'{text}': say what the hand does on {mat}: {MAT_USAGE} "
                       f"({MAT_EXAMPLES})")
    action, words = rest[0].lower(), rest[1:]
    if action not in ACTIONS:
        raise TapError(f"'{text}': a mat line is down, up or move, not '{rest[0]}': "
                       f"{MAT_USAGE} ({MAT_EXAMPLES})")
    if action == "down":
        zone, used = read_zone(words, f"{mat} down")
        return _with_guest(text, mat, action, zone, words[used:])
    if action == "up":
        return _with_guest(text, mat, action, None, words)
    if not words:
        raise TapError(f"'{text}': give a guest (a color or a tag UID) after 'move', then "
                       f"a zone, as in '{mat} move blue exit'")
    target = words[2:] if len(words) > 1 and words[1].lower() == "to" else words[1:]
    zone, used = read_zone(target, f"{mat} move {words[0]}")
    if used != len(target):
        raise TapError(f"'{text}' has too many words: give {mat} move GUEST ZONE, as in "
                       f"'{mat} move blue exit'")
    return _with_guest(text, mat, action, zone, words[:1])


def read_zone(words: list[str], before: str) -> tuple[int, int]:
    """The zone the first words name (``theater N`` or ``exit``), and how many words it
    took; ``before`` is the line up to it, for the error."""
    if not words:
        raise TapError(f"give a zone after '{before}': {ZONE_WORDS}")
    first = words[0].lower()
    if first == "exit":
        return EXIT, 1
    if first != "theater":
        raise TapError(f"'{words[0]}' is no zone of a cinema mat: give {ZONE_WORDS}")
    number = words[1] if len(words) > 1 else ""
    if not number.isdigit() or not 1 <= int(number) <= THEATERS:
        shown = f"theater {number}".strip()
        raise TapError(f"'{shown}' is no zone of a cinema mat: give {ZONE_WORDS}")
    return int(number) - 1, 2


def _with_guest(text: str, mat: str, action: str, zone: int | None,
                words: list[str]) -> MatLine:
    """The line, once its guest (the one word left) is read."""
    example = {"down": f"{mat} down theater 1 blue", "up": f"{mat} up blue"}.get(
        action, f"{mat} move blue exit")
    if words and words[0].lower() in ("card", "token"):
        raise TapError(f"'{text}': a mat senses guests: give a color or a tag UID, as in "
                       f"'{example}'")
    if len(words) != 1:
        what = "no guest" if not words else "too many words"
        raise TapError(f"'{text}' has {what}: give one guest (a color or a tag UID), as in "
                       f"'{example}'")
    how, what = piece_word(words[0])
    return MatLine(mat, action, zone, how, what)


@dataclass
class MatHand:
    """A hand at a mat: the tags lying on each of its zones (:attr:`lying`, the virtual
    mat's), the registry's pawns of the table's game (``tags``: UID to pawn number) and
    the player's cinema in the hub's public view (``cinema``: ``hand`` and ``slots``)."""

    mat: str
    name: str
    lying: list[list[str]]
    tags: dict[str, int]
    colors: dict[int, str]
    cinema: dict[str, Any]

    def zone_of(self, uid: str) -> int | None:
        """The zone a tag lies on, or None."""
        return next((z for z, uids in enumerate(self.lying) if uid in uids), None)

    def pick(self, line: MatLine, color: str) -> str:
        """The UID of a guest of ``color`` for ``line`` (see the module's text)."""
        if line.action == "down":
            found = self._off_mat(self._drawn(color))
            if line.zone == EXIT:
                found += self._off_zone(self._seated(color), EXIT)
            where = "drawn" if line.zone != EXIT else "drawn or seated"
            return self._first(found, f"{self.name} has no {where} {color} guest off "
                               f"{self.mat} to set down ({self._holds()}): nothing set down")
        on_mat = [uid for uids in self.lying for uid in uids if self.color_of(uid) == color]
        if line.action == "up":
            return self._first(on_mat, f"no {color} guest lies on {self.mat} "
                               f"({self._lying()}): nothing taken up")
        assert line.zone is not None
        found = self._off_zone(on_mat + self._off_mat(self._seated(color)), line.zone)
        return self._first(found, f"no {color} guest lies on {self.mat} or sits in "
                           f"{self.name}'s theaters off {zone_name(line.zone)} "
                           f"({self._lying()}): nothing moved")

    def color_of(self, uid: str) -> str | None:
        """The color of the pawn a tag is, or None."""
        pawn = self.tags.get(uid)
        return None if pawn is None else self.colors.get(pawn)

    def _drawn(self, color: str) -> list[str]:
        pawns = [g["pawn"] for g in self.cinema.get("hand", []) if g.get("color") == color]
        return self._uids(pawns)

    def _seated(self, color: str) -> list[str]:
        pawns = [seat["pawn"] for slot in self.cinema.get("slots", [])
                 for seat in slot.get("seats", []) if seat and seat.get("color") == color]
        return self._uids(pawns)

    def _uids(self, pawns: list[int]) -> list[str]:
        by_pawn = {pawn: uid for uid, pawn in self.tags.items()}
        return [by_pawn[p] for p in pawns if p in by_pawn]

    def _off_mat(self, uids: list[str]) -> list[str]:
        return [uid for uid in uids if self.zone_of(uid) is None]

    def _off_zone(self, uids: list[str], zone: int) -> list[str]:
        return [uid for uid in uids if self.zone_of(uid) != zone]

    @staticmethod
    def _first(uids: list[str], why: str) -> str:
        if not uids:
            raise TapError(why)
        return uids[0]

    def _holds(self) -> str:
        drawn = [str(g.get("color")) for g in self.cinema.get("hand", [])]
        return "drawn: " + (", ".join(drawn) if drawn else "none")

    def _lying(self) -> str:
        """What lies on the mat, zone by zone, in words."""
        parts = [f"{zone_name(z)}: " + ", ".join(str(self.color_of(u) or u) for u in uids)
                 for z, uids in enumerate(self.lying) if uids]
        return "on it: " + ("; ".join(parts) if parts else "nothing")


def pawn_tags(pieces: list[dict[str, Any]], game: str) -> tuple[dict[str, int], dict[int, str]]:
    """The registry's pawns of ``game``: UID to pawn number, and pawn number to color."""
    pawns = [p for p in pieces if p.get("kind") == PAWN and p.get("game") == game]
    return ({str(p["uid"]): int(p["id"]) for p in pawns},
            {int(p["id"]): str(p["value"]) for p in pawns})
