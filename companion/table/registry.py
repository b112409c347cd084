"""The tag registry: which NFC sticker is on which piece of which game.

Each hosted game declares the kinds of its pieces that may carry a tag
(:class:`~companion.kit.pieces.PieceKind`, from its pieces part): Popcorn its pawns by color
and its movie, theater and award cards, B Movies its popcorn tokens by value, a third game
whatever it has. A tag stands for one piece, ``{game, kind, id}``, the ``id`` being the
piece's number in its kind and its value what that number carries. Enrollment hands out the
next free piece of a value (or the next in the kind's order) to each new UID, and refuses a
UID already enrolled or a value whose pieces all have tags.

The registry lives in the hub's database (its ``pieces`` table), outlives tables, and travels
as JSON (:meth:`TagRegistry.export`, ``companion-tags`` version 3). An older hub's exports
(``popcorn-tags`` version 1, pawns; version 2, pawns, cards and tokens) and an older hub's
file (its ``tags`` and ``card_tags`` tables) still load: their pawns, cards and tokens are the
pieces of the kinds named ``pawn``, the card kinds and ``token``, whichever game has them.

A few methods keep the older enrollment's shapes (pawns by color, cards by kind, tokens by
value: :meth:`TagRegistry.counts`, :meth:`TagRegistry.card_counts`,
:meth:`TagRegistry.token_counts` and their capacities), which the setup screen's panels for
those kinds use.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from companion.kit.pieces import Piece, PieceKind, PieceValueId
from companion.readers.protocol import normalize_uid
from companion.table.store import HubStore

FORMAT = "companion-tags"
"""The ``format`` of an exported registry (version 3)."""
VERSION = 3
"""The version :meth:`TagRegistry.export` writes."""
OLD_FORMAT = "popcorn-tags"
"""The ``format`` of an older hub's exports (versions 1 and 2), still read."""
PAWN, TOKEN = "pawn", "token"
"""The kinds an older export's ``tags`` and ``tokens`` lists hold (the game that has such a
kind takes them)."""

Key = tuple[str, str]
"""A kind of piece: ``(game, kind)``."""


class RegistryError(ValueError):
    """A refused enrollment or import: ``code`` is stable, the message says why, and
    ``params`` holds the facts the message names (the tag's ``uid``; what it already is,
    ``thing`` with its ``game``, ``kind``, ``value`` and ``title``; a full value's ``cap``),
    so that a screen says it in its own language."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.params: dict[str, Any] = dict(params or {})


class TagRegistry:
    """UID to piece, backed by the hub store."""

    def __init__(self, store: HubStore, kinds: Mapping[str, Iterable[PieceKind]]) -> None:
        """``kinds``: each hosted game's kinds of pieces, by game id."""
        self.store = store
        self.kinds: dict[Key, PieceKind] = {(game, k.kind): k
                                             for game, ks in kinds.items() for k in ks}
        self._lock = threading.Lock()
        self._by_uid: dict[str, tuple[str, str, int]] = store.pieces()
        if not self._by_uid:
            self._by_uid = self._from_older(store)

    def _from_older(self, store: HubStore) -> dict[str, tuple[str, str, int]]:
        """An older hub's tags (its ``tags`` and ``card_tags`` tables) as pieces, stored."""
        pieces: dict[str, tuple[str, str, int]] = {}
        pawns = self.older_key(PAWN)
        for uid, pawn in store.tags().items():
            if pawns is not None:
                pieces[uid] = (*pawns, pawn)
        for uid, (kind, card) in store.card_tags().items():
            key = self.older_key(kind)
            if key is None:
                continue
            if kind == TOKEN:
                pieces[uid] = (*key, int(card))
            else:
                taken = [i for g, k, i in pieces.values() if (g, k) == key]
                free = self._free(key, card, taken)
                if free is not None:
                    pieces[uid] = (*key, free)
        if pieces:
            store.replace_pieces(pieces)
        return pieces

    def older_key(self, kind: Any) -> Key | None:
        """The ``(game, kind)`` of the first hosted game with a kind of that name."""
        return next((key for key in self.kinds if key[1] == kind), None)

    # -- what a tag is ---------------------------------------------------------------------

    def piece_of(self, uid: str) -> Piece | None:
        """The piece a UID is on, with its value, as a game reads it; None for a tag the
        registry does not know (or a piece of a game the hub no longer hosts)."""
        found = self._by_uid.get(uid)
        if found is None or (found[0], found[1]) not in self.kinds:
            return None
        game, kind, number = found
        return Piece(kind, number, self.kinds[(game, kind)].value_of(number), game)

    def shown(self, piece: Piece | None) -> dict[str, Any] | None:
        """A piece as every screen of a table may see it: its kind, number and value, or
        only its kind for a secret kind (:attr:`PieceKind.secret`); None for no piece."""
        if piece is None:
            return None
        kind = self.kinds.get((piece.game, piece.kind))
        if kind is None or kind.secret:
            return {"game": piece.game, "kind": piece.kind}
        return piece.to_dict()

    def known_as(self, uid: str) -> dict[str, Any] | None:
        """What a known UID is, as the params of a refusal: ``thing`` (the kind), its
        ``game``, ``value`` and ``title`` (what a person reads on it); None for a tag the
        registry does not know."""
        piece = self.piece_of(uid)
        if piece is None:
            return None
        kind = self.kinds[(piece.game, piece.kind)]
        return {"thing": piece.kind, "game": piece.game, "kind": piece.kind,
                "value": piece.value, "title": kind.title_of(piece.value),
                **_older_params(piece, kind)}

    def describe(self, uid: str) -> str | None:
        """What a known UID is, in words a person can check on the piece itself ("a pawn:
        blue", "a movie card: Rosebud"): never a piece's number, which nothing printed
        carries."""
        known = self.known_as(uid)
        if known is None:
            return None
        title = self.kinds[(known["game"], known["kind"])].title
        return f"a {title}: {known['title']}"

    def refuse_known(self, uid: str, then: str = "") -> None:
        """Raise ``DUPLICATE_UID`` if ``uid`` already stands for a piece (``then``: what to do
        instead, added to the sentence)."""
        known = self.known_as(uid)
        if known is not None:
            advice = then or "a tag can stand for one piece only"
            raise RegistryError("DUPLICATE_UID", f"tag {uid} is already on "
                                f"{self.describe(uid)}; {advice}", {"uid": uid, **known})

    # -- enrollment ------------------------------------------------------------------------

    def kind(self, game: Any, kind: Any) -> PieceKind:
        """The kind of piece ``kind`` of ``game``, or ``BAD_KIND``."""
        found = self.kinds.get((game, kind)) if isinstance(game, str) and isinstance(
            kind, str) else None
        if found is None:
            raise RegistryError("BAD_KIND", f"{game!r} has no kind of piece {kind!r}: "
                                + ", ".join(f"{g} {k}" for g, k in self.kinds),
                                {"game": game, "kind": kind})
        return found

    def enroll(self, uid: str, game: Any, kind: Any, value: Any) -> Piece:
        """Give the next free piece of ``value`` (of ``game``'s ``kind``) to a new UID."""
        uid = _uid(uid)
        pieces = self.kind(game, kind)
        if value not in {v.value for v in pieces.values}:
            raise RegistryError("BAD_VALUE", f"{value!r} is not a value of {game} {kind}: "
                                + _some(v.value for v in pieces.values),
                                {"game": game, "kind": kind, "value": value})
        with self._lock:
            self._refuse_known(uid)
            number = self._free((game, kind), value, self._taken((game, kind)))
            if number is None:
                cap = pieces.capacity()[str(value)]
                raise RegistryError("VALUE_FULL", f"all {cap} pieces of {game} {kind} "
                                    f"{pieces.title_of(value)} already have tags",
                                    {"game": game, "kind": kind, "value": value,
                                     "title": pieces.title_of(value), "cap": cap})
            return self._bind(uid, game, kind, number)

    def enroll_next(self, uid: str, game: Any, kind: Any) -> Piece:
        """Give the next piece of the kind, in its order, that has no tag yet to a new UID."""
        uid = _uid(uid)
        pieces = self.kind(game, kind)
        with self._lock:
            self._refuse_known(uid)
            taken = set(self._taken((game, kind)))
            number = next((n for n, _ in pieces.numbered() if n not in taken), None)
            if number is None:
                cap = len(pieces.numbered())
                raise RegistryError("KIND_FULL", f"all {cap} pieces of {game} {kind} already "
                                    "have tags", {"game": game, "kind": kind, "cap": cap})
            return self._bind(uid, game, kind, number)

    def tag_kind(self, game: str, kind: str, uids: Mapping[int, str]) -> int:
        """Give the pieces of a kind these tags (piece number -> UID), in place of the kind's
        tags so far (a demo's or a test's made-up box); returns how many tags the registry
        holds. Checked as an import is: a bad number or a UID of another piece changes
        nothing."""
        pieces = self.kind(game, kind)
        with self._lock:
            kept = {u: p for u, p in self._by_uid.items() if (p[0], p[1]) != (game, kind)}
            for number, uid in uids.items():
                if pieces.value_of(number) is None:
                    raise RegistryError("BAD_REGISTRY", f"{game} {kind} has no piece {number}")
                _add(kept, _uid(uid), (game, kind, number))
            self.store.replace_pieces(kept)
            self._by_uid = kept
            return len(kept)

    def _bind(self, uid: str, game: str, kind: str, number: int) -> Piece:
        self.store.set_piece(uid, game, kind, number)
        self._by_uid[uid] = (game, kind, number)
        piece = self.piece_of(uid)
        assert piece is not None
        return piece

    def _taken(self, key: Key) -> list[int]:
        return [n for g, k, n in self._by_uid.values() if (g, k) == key]

    def _free(self, key: Key, value: PieceValueId, taken: Iterable[int]) -> int | None:
        """The first piece of ``value`` of the kind ``key`` not in ``taken``."""
        busy = set(taken)
        return next((n for n, v in self.kinds[key].numbered() if v == value and n not in busy),
                    None)

    def _refuse_known(self, uid: str) -> None:
        self.refuse_known(uid)

    # -- counts ----------------------------------------------------------------------------

    def piece_counts(self) -> list[dict[str, Any]]:
        """Every kind of every hosted game, with each value's pieces and how many have tags:
        ``[{"game", "kind", "title", "secret", "values": [{"value", "title", "count",
        "enrolled"}]}]`` (what a setup screen's enrollment panel lists)."""
        out = []
        for (game, kind), pieces in self.kinds.items():
            enrolled = self.value_counts(game, kind)
            out.append({"game": game, **pieces.to_dict(), "values": [
                {**v.to_dict(), "enrolled": enrolled[str(v.value)]} for v in pieces.values]})
        return out

    def value_counts(self, game: str, kind: str) -> dict[str, int]:
        """Tags per value (as text: a JSON key) of ``game``'s ``kind``, every value listed."""
        pieces = self.kinds[(game, kind)]
        counts = dict.fromkeys(pieces.capacity(), 0)
        for number in self._taken((game, kind)):
            counts[str(pieces.value_of(number))] += 1
        return counts

    def _value_counts(self, kind: str) -> tuple[dict[str, int], dict[str, int]]:
        """Tags and pieces per value of the first game's kind ``kind`` (an older panel)."""
        key = self.older_key(kind)
        if key is None:
            return {}, {}
        return self.value_counts(*key), self.kinds[key].capacity()

    def counts(self) -> dict[str, int]:
        """Enrolled pawns per color (the pawn panel's shape)."""
        return self._value_counts(PAWN)[0]

    def capacity(self) -> dict[str, int]:
        """How many pawns of each color the box holds."""
        return self._value_counts(PAWN)[1]

    def token_counts(self) -> dict[str, int]:
        """Enrolled tokens per value (the token panel's shape)."""
        return self._value_counts(TOKEN)[0]

    def token_capacity(self) -> dict[str, int]:
        """How many tokens of each value the box holds."""
        return self._value_counts(TOKEN)[1]

    def card_kinds(self) -> tuple[str, ...]:
        """The kinds enrolled by picking (:attr:`PieceKind.pick`: the card panel's)."""
        return tuple(dict.fromkeys(k for (_, k), kind in self.kinds.items() if kind.pick))

    def card_counts(self) -> dict[str, int]:
        """Enrolled tags per card kind."""
        return {k: len(self._taken(key)) for k in self.card_kinds()
                if (key := self.older_key(k)) is not None}

    def card_capacity(self) -> dict[str, int]:
        """How many cards of each kind the box holds."""
        return {k: len(self.kinds[key].numbered()) for k in self.card_kinds()
                if (key := self.older_key(k)) is not None}

    def card_title(self, kind: str, card: str) -> str:
        """What a card of ``kind`` reads (its title)."""
        key = self.older_key(kind)
        return card if key is None else self.kinds[key].title_of(card)

    # -- export and import -----------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The registry as JSON data (``companion-tags`` version 3: one entry per tag)."""
        rows = sorted(self._by_uid.items(), key=lambda item: (item[1], item[0]))
        return {"format": FORMAT, "version": VERSION, "pieces": [
            {"uid": uid, "game": game, "kind": kind, "id": number,
             "value": self.kinds[(game, kind)].value_of(number)
             if (game, kind) in self.kinds else None}
            for uid, (game, kind, number) in rows]}

    def import_(self, doc: Any) -> int:
        """Replace the registry with an exported one (version 3, or an older hub's version
        1 or 2), after checking all of it; returns how many tags it holds."""
        if not isinstance(doc, dict):
            raise _bad_registry()
        if doc.get("format") == FORMAT and doc.get("version") == VERSION:
            pieces = self._read_v3(doc)
        elif doc.get("format") == OLD_FORMAT and doc.get("version") in (1, 2):
            pieces = self._read_older(doc)
        else:
            raise _bad_registry()
        with self._lock:
            self.store.replace_pieces(pieces)
            self._by_uid = pieces
        return len(pieces)

    def _read_v3(self, doc: dict[str, Any]) -> dict[str, tuple[str, str, int]]:
        pieces: dict[str, tuple[str, str, int]] = {}
        for item in _items(doc, "pieces"):
            if not isinstance(item, dict):
                raise RegistryError("BAD_REGISTRY", "each piece must be an object")
            uid = _uid(item.get("uid"))
            game, name, number = item.get("game"), item.get("kind"), item.get("id")
            key = (str(game), str(name))
            kind = self.kinds.get(key) if isinstance(game, str) and isinstance(name, str) else None
            if kind is None or type(number) is not int or kind.value_of(number) is None:
                raise RegistryError("BAD_REGISTRY", f"tag {uid}: no piece {number!r} of "
                                    f"{key[0]!r} {key[1]!r} on this hub")
            if "value" in item and item["value"] != kind.value_of(number):
                raise RegistryError("BAD_REGISTRY", f"tag {uid}: piece {number} of {key[1]} "
                                    f"is {kind.value_of(number)}, not {item['value']}")
            _add(pieces, uid, (*key, number))
        return pieces

    def _read_older(self, doc: dict[str, Any]) -> dict[str, tuple[str, str, int]]:
        """An older hub's export: ``tags`` (pawns), ``cards`` (version 2) and ``tokens``."""
        pieces: dict[str, tuple[str, str, int]] = {}
        for item in _items(doc, "tags"):
            uid, number = self._older_item(item, PAWN, "pawn", "color")
            _add(pieces, uid, (*self._must(PAWN), number), "pawn")
        for item in _items(doc, "cards") if doc["version"] == 2 else []:
            if not isinstance(item, dict):
                raise RegistryError("BAD_REGISTRY", "each card tag must be an object")
            uid, kind, card = _uid(item.get("uid")), item.get("kind"), item.get("card")
            key = self.older_key(kind) if isinstance(kind, str) else None
            if key is None or not self.kinds[key].pick or not isinstance(card, str) or (
                    card not in {v.value for v in self.kinds[key].values}):
                raise RegistryError("BAD_CARD", f"tag {uid}: {kind!r} card {card!r} is not in "
                                    f"the catalog (kinds: {', '.join(self.card_kinds())})")
            free = self._free(key, card, [n for g, k, n in pieces.values() if (g, k) == key])
            if free is None:
                raise RegistryError("CARD_FULL", f"tag {uid}: {card!r} ({kind}) has no card "
                                    "left in the box for another tag",
                                    {"kind": kind, "card": card})
            _add(pieces, uid, (*key, free), "card")
        for item in _items(doc, "tokens"):
            uid, number = self._older_item(item, TOKEN, "token", "value")
            _add(pieces, uid, (*self._must(TOKEN), number), "token")
        return pieces

    def _must(self, kind: str) -> Key:
        key = self.older_key(kind)
        if key is None:
            raise RegistryError("BAD_REGISTRY", f"no game on this hub has {kind}s")
        return key

    def _older_item(self, item: Any, kind: str, field: str, value: str) -> tuple[str, int]:
        """One entry of an older export's ``tags`` or ``tokens``, checked."""
        if not isinstance(item, dict):
            raise RegistryError("BAD_REGISTRY", "each tag must be an object")
        uid, number = _uid(item.get("uid")), item.get(field)
        pieces = self.kinds[self._must(kind)]
        if type(number) is not int or pieces.value_of(number) is None:
            raise RegistryError("BAD_REGISTRY", f"tag {uid}: {field} must be 0 to "
                                f"{len(pieces.numbered()) - 1}")
        if value in item and item[value] != pieces.value_of(number):
            raise RegistryError("BAD_REGISTRY", f"tag {uid}: {field} {number} is "
                                f"{pieces.value_of(number)}, not {item[value]}")
        return uid, number


def _add(pieces: dict[str, tuple[str, str, int]], uid: str, piece: tuple[str, str, int],
         shape: str = "") -> None:
    """Add one tag to an import, refusing a UID listed twice and a piece with two tags
    (``shape``: the older export's list it came from, whose code a refusal keeps)."""
    if uid in pieces:
        raise RegistryError("DUPLICATE_UID", f"tag {uid} is listed twice", {"uid": uid})
    if piece in pieces.values():
        error = RegistryError("DUPLICATE_PIECE", f"{piece[1]} {piece[2]} of {piece[0]} has "
                              "two tags", {"game": piece[0], "kind": piece[1], "id": piece[2]})
        raise older(error, shape) if shape else error
    pieces[uid] = piece


OLDER_CODES = {
    "pawn": {"BAD_VALUE": "BAD_COLOR", "VALUE_FULL": "COLOR_FULL",
             "DUPLICATE_PIECE": "DUPLICATE_PAWN"},
    "card": {"BAD_KIND": "BAD_CARD", "BAD_VALUE": "BAD_CARD", "VALUE_FULL": "CARD_FULL",
             "KIND_FULL": "CARD_FULL", "DUPLICATE_PIECE": "CARD_FULL"},
    "token": {"BAD_VALUE": "BAD_TOKEN_VALUE", "VALUE_FULL": "TOKEN_FULL",
              "DUPLICATE_PIECE": "DUPLICATE_TOKEN"},
}
"""The codes an older request's refusals keep (enrollment by ``color``, ``cards`` or
``tokens``; an older export's ``tags``, ``cards`` or ``tokens``), by that request's shape."""
OLDER_PARAMS = {"pawn": "color", "card": "card"}
"""The param an older screen reads a refused piece's value from, by shape."""


def older(error: RegistryError, shape: str) -> RegistryError:
    """``error`` as an older request of ``shape`` (``pawn``, ``card`` or ``token``) was
    refused: its code (:data:`OLDER_CODES`) and its value under the older param's name."""
    code = OLDER_CODES.get(shape, {}).get(error.code)
    if code is None:
        return error
    params = dict(error.params)
    if shape in OLDER_PARAMS and "value" in params:
        params[OLDER_PARAMS[shape]] = params["value"]
    return RegistryError(code, error.message, params)


def _older_params(piece: Piece, kind: PieceKind) -> dict[str, Any]:
    """What an older screen reads of a known tag: ``thing`` (``pawn``, ``card`` or
    ``token``) with a pawn's ``color`` or a card's ``card``."""
    if piece.kind == PAWN:
        return {"thing": "pawn", "color": piece.value}
    if kind.pick:
        return {"thing": "card", "card": piece.value}
    return {}


def _some(values: Iterable[Any], shown: int = 8) -> str:
    """The first values of a list, with how many more (a deck's ids would fill a screen)."""
    items = [str(v) for v in values]
    more = len(items) - shown
    return ", ".join(items[:shown]) + (f" and {more} more" if more > 0 else "")


def _bad_registry() -> RegistryError:
    return RegistryError("BAD_REGISTRY", f'expected {{"format": "{FORMAT}", "version": '
                         f'{VERSION}, "pieces": [...]}} (or an older hub\'s "{OLD_FORMAT}" '
                         "version 1 or 2)")


def _uid(uid: Any) -> str:
    try:
        return normalize_uid(uid)
    except ValueError as exc:
        raise RegistryError("BAD_UID", str(exc)) from exc


def _items(doc: dict[str, Any], key: str) -> list[Any]:
    items = doc.get(key) or []
    if not isinstance(items, list):
        raise RegistryError("BAD_REGISTRY", f'"{key}" must be a list')
    return items
