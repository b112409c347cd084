"""The lines ``readers tap`` reads, and the tag each one taps.

A line names a reader and a piece: ``bag-1 blue`` (a guest of that color that can come out
of that bag now), ``bag-2 04A1B2C3D40007`` (a tag UID, sent as it is), ``bag-1 card
kangaroo-man`` (the tag enrolled for that card) or ``pad-1 token 3`` (a popcorn token worth
3). :func:`parse_line` reads a line into a :class:`TapLine` (a line that names a virtual
mat, ``mat-1 down theater 2 blue``, is read by :mod:`.mat_lines`); :class:`Pieces` finds
the UID for it from the hub's registry and the table's public view. Every refusal is a
:class:`~.tap_hub.TapError` whose message says what would do.

Nothing here imports a game: a color is a value of a kind ``pawn``, a token one of a kind
``token``, a card any other kind's value, and "can come out of that bag" is a chance outcome
of the public view (``chance``) that names a ``pawn`` for that seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.commands.tap_hub import TapError
from companion.i18n import LANGUAGES, SOURCE
from companion.readers.protocol import normalize_uid

PAWN, TOKEN = "pawn", "token"
"""The kinds a color and ``token N`` name; every other kind's values are card ids."""

USAGE = "READER COLOR, READER UID, READER card ID or READER token N"
"""What a line may be, for the prompt, the help and the errors."""
EXAMPLES = "as in 'bag-1 blue', 'bag-2 04a1b2c3d40007', 'bag-1 card rosebud', 'pad-1 token 3'"
"""A line of each form."""
MAT_ACTIONS = ("down", "up", "move")
"""The words that start a mat line's action (:mod:`.mat_lines`)."""


@dataclass(frozen=True)
class TapLine:
    """One line read: the reader, how the piece is named (``color``, ``uid``, ``card`` or
    ``token``) and the word that names it."""

    reader: str
    how: str
    what: str


def parse_line(text: str, readers: list[str], mats: Sequence[str] = ()) -> TapLine:
    """Read ``READER COLOR|UID``, ``READER card ID`` or ``READER token N``; a reader of
    this session only (``mats``, the session's mats, are named in the errors: their lines
    are read by :func:`~.mat_lines.read_line`). Raises :class:`TapError` for anything
    else."""
    words = text.split()
    if len(words) < 2:
        raise TapError(f"'{text}' is not a tap: give {USAGE} ({EXAMPLES})")
    reader, rest = words[0], words[1:]
    if reader not in readers:
        raise TapError(f"unknown reader '{reader}': this session runs "
                       f"{', '.join([*readers, *mats])}")
    if rest[0].lower() in MAT_ACTIONS:
        raise TapError(f"'{text}': {reader} is a bag reader, which is tapped; {rest[0]} "
                       "is for a mat (give readers tap --mat ID)")
    if rest[0].lower() in ("card", TOKEN):
        how = rest[0].lower()
        if len(rest) != 2:
            example = "rosebud" if how == "card" else "3"
            raise TapError(f"'{text}': give one {how} after '{how}', as in "
                           f"'{reader} {how} {example}'")
        return TapLine(reader, how, rest[1])
    if len(rest) != 1:
        raise TapError(f"'{text}' has too many words: give {USAGE} ({EXAMPLES})")
    return TapLine(reader, *piece_word(rest[0]))


def piece_word(word: str) -> tuple[str, str]:
    """How one word names a piece: ``("uid", UID)`` for a word of hex digits with a digit
    among them (checked; no color has a digit), else ``("color", word)``."""
    bare = word.replace(":", "").replace("-", "")
    if any(c.isdigit() for c in bare) and all(c in "0123456789abcdefABCDEF" for c in bare):
        try:
            return "uid", normalize_uid(word)
        except ValueError as exc:
            raise TapError(f"{exc}: a tag UID is 8, 14 or 20 hex digits") from exc
    return "color", word


def color_words(kinds: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """Every word that names a pawn color, lowercased, to ``(game, value)``: the value, its
    title, and the title in each language the companion speaks ("bleu", "blau", ...)."""
    from companion.i18n.catalogs import translations  # Babel: only once a tap is read

    words: dict[str, tuple[str, str]] = {}
    for kind in kinds:
        if kind.get("kind") != PAWN:
            continue
        for entry in kind.get("values", []):
            value, title = str(entry["value"]), str(entry.get("title", entry["value"]))
            for word in [value, title, *(translations(lang).gettext(title)
                                         for lang in LANGUAGES if lang != SOURCE)]:
                words.setdefault(word.lower(), (kind["game"], value))
    return words


@dataclass
class Pieces:
    """The UIDs to tap for colors, cards and tokens, from the hub's registry (``pieces``)
    and kinds (``kinds``); ``drawn`` holds the tokens this session has seen drawn."""

    pieces: list[dict[str, Any]]
    kinds: list[dict[str, Any]]
    drawn: set[str] = field(default_factory=set)

    def colors(self, game: str) -> dict[int, str]:
        """Each pawn number of ``game`` to its color (for describing moves)."""
        return {int(p["id"]): str(p["value"]) for p in self.pieces
                if p.get("kind") == PAWN and p.get("game") == game}

    def pawn(self, word: str, game: str, seat: int, view: dict[str, Any],
             name: str) -> tuple[str, str]:
        """The UID of a pawn of color ``word`` that can come out of seat ``seat``'s bag now,
        and its description; :class:`TapError` when none can."""
        words = color_words(self.kinds)
        if word.lower() not in words:
            raise TapError(self._unknown_word(word, words))
        color = words[word.lower()][1]
        drawable = [c["pawn"] for c in view.get("chance", [])
                    if c.get("player") == seat and isinstance(c.get("pawn"), int)]
        tags = {int(p["id"]): p["uid"] for p in self.pieces if p.get("game") == game
                and p.get("kind") == PAWN and str(p.get("value")) == color}
        of_color = [pawn for pawn in drawable if pawn in tags]
        if of_color:
            return tags[of_color[0]], f"a {color} guest from {name}'s bag (pawn {of_color[0]})"
        raise TapError(self._no_pawn(color, game, seat, view, name, drawable))

    def _unknown_word(self, word: str, words: dict[str, tuple[str, str]]) -> str:
        """Why ``word`` is no color, listing the colors (in English)."""
        colors = sorted({value for _, value in words.values()})
        return (f"'{word}' is not a color, nor a tag UID: colors are {', '.join(colors)} "
                "(in English, French, German or Japanese); or give 'card ID' or 'token N'")

    def _no_pawn(self, color: str, game: str, seat: int, view: dict[str, Any], name: str,
                 drawable: list[int]) -> str:
        """Why no guest of ``color`` can be tapped out of the seat's bag; nothing is tapped."""
        if not any(k.get("kind") == PAWN and k.get("game") == game for k in self.kinds):
            return f"this table's game ({game}) has no pawns: nothing tapped"
        cinemas = view.get("cinemas") or []
        bag = cinemas[seat].get("bag", {}) if seat < len(cinemas) else {}
        inside = ", ".join(f"{n} {c}" for c, n in bag.items() if n) or "no guest"
        if not drawable:
            return (f"the hub expects no draw from {name}'s bag now (phase "
                    f"{view.get('phase', '?')}; it has {inside} in it): nothing tapped")
        if bag and not bag.get(color):
            return f"{name}'s bag holds no {color} guest (it has {inside}): nothing tapped"
        return (f"no {color} guest that can come out of {name}'s bag has a tag enrolled: "
                "nothing tapped")

    def card(self, card: str, game: str) -> tuple[str, str]:
        """The UID enrolled for card ``card`` (the table's game's first), and its words."""
        found = [p for p in self.pieces if p.get("kind") not in (PAWN, TOKEN)
                 and str(p.get("value")) == card]
        found.sort(key=lambda p: (p.get("game") != game, int(p.get("id", 0))))
        if found:
            return found[0]["uid"], f"{found[0]['kind']} card {card}"
        known = any(str(v.get("value")) == card for k in self.kinds
                    if k.get("kind") not in (PAWN, TOKEN) for v in k.get("values", []))
        if known:
            raise TapError(f"card {card} has no tag enrolled on this hub: nothing tapped")
        raise TapError(f"no card '{card}': a card is named by its catalog id, as "
                       "popcorn-companion readers card-list prints them")

    def token(self, worth: str) -> tuple[str, str]:
        """The UID of a token worth ``worth`` that this session has not seen drawn yet."""
        values = sorted({str(v.get("value")) for k in self.kinds if k.get("kind") == TOKEN
                         for v in k.get("values", [])})
        if worth not in values:
            listed = ", ".join(values) if values else "none (no game here has tokens)"
            raise TapError(f"no token worth '{worth}': token values are {listed}")
        found = sorted((p for p in self.pieces if p.get("kind") == TOKEN
                        and str(p.get("value")) == worth), key=lambda p: int(p.get("id", 0)))
        if not found:
            raise TapError(f"no token worth {worth} has a tag enrolled: nothing tapped")
        free = [p for p in found if p["uid"] not in self.drawn]
        if not free:
            raise TapError(f"every token worth {worth} was drawn in this session: nothing tapped")
        return free[0]["uid"], f"a token worth {worth} (token {free[0]['id']})"
