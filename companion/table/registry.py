"""The tag registry: which NFC sticker is under which of the 60 pawns, or on which card.

Pawn ids and colors come from the engine (0-19 white, then 10 of each color). Enrollment
hands out the next free pawn id of the chosen color to each new UID, and refuses a UID
already enrolled or a color whose pawns are all enrolled. Card tags map a UID to a movie,
a theater tile or an award card (:class:`~.cardbook.CardBook`): one tag per movie or award,
as many per theater id as the catalog has copies. B Movies' popcorn tokens map a UID to a
token id (0-97, numbered by value as the game's facts count them: the 0s first). A UID is a
pawn, a card or a token, never two of them.
The registry lives in the hub's database, outlives tables, and travels as JSON
(:meth:`TagRegistry.export`, format version 2; version 1 files, pawns only, still load).
"""

from __future__ import annotations

import threading
from typing import Any

from companion.kit.game import CardBook, TagKinds, TagThing
from companion.readers.protocol import normalize_uid
from companion.table.store import HubStore

FORMAT = "popcorn-tags"
"""The ``format`` of an exported registry."""
VERSION = 2
"""The version :meth:`TagRegistry.export` writes (``cards`` added; B Movies' ``tokens`` are
an optional list a reader of an older hub ignores); 1 and 2 are read."""
TOKEN_KIND = "token"
"""The kind under which a popcorn token's tag is stored beside the card tags."""


class _NoCards:
    """The card book of a hub whose games have no cards: no kind, no card, no title."""

    titles: dict[tuple[str, str], str] = {}
    copies: dict[tuple[str, str], int] = {}

    def capacity(self) -> dict[str, int]:
        """No card of any kind."""
        return {}

    def listing(self, kind: str) -> list[str]:
        """No card of ``kind``."""
        return []

    def knows(self, kind: object, card: object) -> bool:
        """No card is known."""
        return False

    def title(self, kind: str, card: str) -> str:
        """A card's id stands for its title."""
        return card


NO_CARDS = _NoCards()
"""The card book of a hub without cards."""


class RegistryError(ValueError):
    """A refused enrollment or import: ``code`` is stable, the message says why, and
    ``params`` holds the facts the message names (the tag's ``uid``; what it already is,
    ``thing`` with its ``color``, ``kind`` and ``title`` or ``value``; a full color's or
    kind's ``cap``), so that a screen says it in its own language."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.params: dict[str, Any] = dict(params or {})


class TagRegistry:
    """UID to pawn id, backed by the hub store."""

    def __init__(self, store: HubStore, kinds: TagKinds) -> None:
        """``kinds``: what the hosted games' pieces ask (:meth:`Pieces.kinds`): the
        color of each pawn id, the card book, the value of each token id."""
        self.store = store
        self.colors = kinds.pawn_colors
        self.book: CardBook = kinds.cards if kinds.cards is not None else NO_CARDS
        self.token_values = kinds.token_values
        self._lock = threading.Lock()
        self._by_uid = store.tags()
        stored = store.card_tags()
        self._tokens = {u: int(c) for u, (k, c) in stored.items() if k == TOKEN_KIND}
        self._cards = {u: pair for u, pair in stored.items() if pair[0] != TOKEN_KIND}

    def thing_of(self, uid: str) -> TagThing | None:
        """What a UID stands for, as a game reads it: a pawn, a card or a token; None for a
        tag the registry does not know."""
        if uid in self._by_uid:
            return TagThing("pawn", self._by_uid[uid])
        if uid in self._cards:
            return TagThing(*self._cards[uid])
        if uid in self._tokens:
            return TagThing(TOKEN_KIND, self._tokens[uid])
        return None

    def token_counts(self) -> dict[str, int]:
        """Enrolled popcorn tokens per value (as text keys, for JSON), every value listed."""
        out = {str(v): 0 for v in sorted(set(self.token_values))}
        for token in self._tokens.values():
            out[str(self.token_values[token])] += 1
        return out

    def token_capacity(self) -> dict[str, int]:
        """How many popcorn tokens of each value the box holds (from the game's facts)."""
        out = {str(v): 0 for v in sorted(set(self.token_values))}
        for value in self.token_values:
            out[str(value)] += 1
        return out

    def enroll_token(self, uid: str, value: Any) -> int:
        """Give the next free token id of ``value`` to a new UID; return the token id."""
        uid = _uid(uid)
        if type(value) is not int or value not in self.token_values:
            raise RegistryError("BAD_TOKEN_VALUE", "value must be a popcorn token value: "
                                + ", ".join(self.token_capacity()))
        with self._lock:
            self._refuse_known(uid)
            taken = set(self._tokens.values())
            free = [t for t, v in enumerate(self.token_values) if v == value and t not in taken]
            if not free:
                cap = self.token_capacity()[str(value)]
                raise RegistryError("TOKEN_FULL", f"all {cap} tokens of value {value} are "
                                    "already enrolled", {"value": value, "cap": cap})
            self.store.set_card_tag(uid, TOKEN_KIND, str(free[0]))
            self._tokens[uid] = free[0]
            return free[0]

    def card_of(self, uid: str) -> tuple[str, str] | None:
        """The ``(kind, card id)`` a UID is stuck on, or None if it is no card's tag."""
        return self._cards.get(uid)

    def card_counts(self) -> dict[str, int]:
        """Enrolled card tags per kind, every kind listed."""
        out = dict.fromkeys(self.card_kinds(), 0)
        for kind, _ in self._cards.values():
            out[kind] += 1
        return out

    def card_kinds(self) -> tuple[str, ...]:
        """The kinds of card that can carry a tag (Popcorn's movie, theater and award)."""
        return tuple(self.book.capacity())

    def card_capacity(self) -> dict[str, int]:
        """How many cards of each kind the box holds (from the catalog, copies counted)."""
        return self.book.capacity()

    def next_card(self, kind: str) -> str | None:
        """The first card of ``kind``, in catalog order (theaters once per copy), that has
        no tag yet; None when every card of that kind is enrolled."""
        left = [card for k, card in self._cards.values() if k == kind]
        for card in self.book.listing(kind):
            if card in left:
                left.remove(card)
            else:
                return card
        return None

    def enroll_card(self, uid: str, kind: Any, card: Any) -> str:
        """Bind a new UID to a card; returns the card's title."""
        uid = _uid(uid)
        if not self.book.knows(kind, card):
            raise RegistryError("BAD_CARD", f"{card!r} is not a {kind} card of the catalog"
                                if kind in self.card_kinds() else
                                f"kind must be one of {', '.join(self.card_kinds())}")
        with self._lock:
            self._refuse_known(uid)
            self._check_room({**self._cards, uid: (kind, card)}, kind, card)
            self.store.set_card_tag(uid, kind, card)
            self._cards[uid] = (kind, card)
        return self.book.title(kind, card)

    def enroll_next(self, uid: str, kind: str) -> str:
        """Bind a new UID to the next card of ``kind`` in catalog order; returns its id."""
        uid = _uid(uid)
        with self._lock:
            self._refuse_known(uid)
        card = self.next_card(kind)
        if card is None:
            cap = self.card_capacity()[kind]
            raise RegistryError("CARD_FULL", f"all {cap} {kind} cards of the box are already "
                                "enrolled", {"kind": kind, "cap": cap})
        self.enroll_card(uid, kind, card)
        return card

    def describe(self, uid: str) -> str | None:
        """What a known UID is, in words a person can check on the thing itself ("a red
        pawn", "the movie card Rosebud", "a popcorn token of value 3"): never a pawn's or a
        token's number, which nothing printed carries."""
        known = self.known_as(uid)
        if known is None:
            return None
        if known["thing"] == "pawn":
            return f"a {known['color']} pawn"
        if known["thing"] == "card":
            return f"the {known['kind']} card {known['title']}"
        return f"a popcorn token of value {known['value']}"

    def known_as(self, uid: str) -> dict[str, Any] | None:
        """What a known UID is, as the params of a refusal: ``thing`` (``pawn``, ``card``
        or ``token``) with the pawn's ``color``, the card's ``kind``, ``card`` and
        ``title``, or the token's ``value``; None for a tag the registry does not know."""
        if uid in self._by_uid:
            return {"thing": "pawn", "color": self.colors[self._by_uid[uid]]}
        if uid in self._cards:
            kind, card = self._cards[uid]
            return {"thing": "card", "kind": kind, "card": card,
                    "title": self.book.title(kind, card)}
        if uid in self._tokens:
            return {"thing": "token", "value": self.token_values[self._tokens[uid]]}
        return None

    def refuse_known(self, uid: str, then: str = "") -> None:
        """Raise ``DUPLICATE_UID`` if ``uid`` already stands for something (``then``: what
        to do instead, added to the sentence)."""
        known = self.known_as(uid)
        if known is not None:
            advice = then or "a tag can stand for one pawn, card or token only"
            raise RegistryError("DUPLICATE_UID", f"tag {uid} is already on "
                                f"{self.describe(uid)}; {advice}", {"uid": uid, **known})

    def _refuse_known(self, uid: str) -> None:
        self.refuse_known(uid)

    def _check_room(self, cards: dict[str, tuple[str, str]], kind: str, card: str) -> None:
        tags = sum(1 for pair in cards.values() if pair == (kind, card))
        copies = self.book.copies[(kind, card)]
        if tags > copies:
            title = self.book.title(kind, card)
            raise RegistryError("CARD_FULL", f"{title} ({kind}) has {copies} "
                                f"card{'s' if copies > 1 else ''} in the box and would get "
                                f"{tags} tags", {"kind": kind, "card": card, "title": title,
                                                 "cap": copies})

    def pawn_of(self, uid: str) -> int | None:
        """The pawn a UID is stuck under, or None for an unknown tag."""
        return self._by_uid.get(uid)

    def uid_of(self, pawn: int) -> str | None:
        """The UID of a pawn, or None if it is not enrolled."""
        return next((u for u, p in self._by_uid.items() if p == pawn), None)

    def counts(self) -> dict[str, int]:
        """Enrolled pawns per color, every color listed."""
        out = dict.fromkeys(dict.fromkeys(self.colors), 0)
        for pawn in self._by_uid.values():
            out[self.colors[pawn]] += 1
        return out

    def capacity(self) -> dict[str, int]:
        """How many pawns of each color the box holds."""
        out: dict[str, int] = {}
        for color in self.colors:
            out[color] = out.get(color, 0) + 1
        return out

    def enroll(self, uid: str, color: str) -> int:
        """Give the next free pawn of ``color`` to a new UID; return its pawn id."""
        uid = _uid(uid)
        if color not in self.colors:
            raise RegistryError("BAD_COLOR", f"{color!r} is not a guest color")
        with self._lock:
            self._refuse_known(uid)
            taken = set(self._by_uid.values())
            free = [i for i, c in enumerate(self.colors) if c == color and i not in taken]
            if not free:
                cap = self.capacity()[color]
                raise RegistryError("COLOR_FULL", f"all {cap} {color} pawns of the box are "
                                    "already enrolled", {"color": color, "cap": cap})
            self.store.set_tag(uid, free[0])
            self._by_uid[uid] = free[0]
            return free[0]

    def export(self) -> dict[str, Any]:
        """The registry as JSON data (format version 2: pawn ``tags`` and ``cards``)."""
        tags = sorted(self._by_uid.items(), key=lambda item: item[1])
        order = {(k, c): n for n, (k, c) in enumerate(self.book.titles)}
        cards = sorted(self._cards.items(), key=lambda item: (order.get(item[1], 0), item[0]))
        tokens = sorted(self._tokens.items(), key=lambda item: item[1])
        return {"format": FORMAT, "version": VERSION,
                "tags": [{"uid": u, "pawn": p, "color": self.colors[p]} for u, p in tags],
                "cards": [{"uid": u, "kind": k, "card": c} for u, (k, c) in cards],
                "tokens": [{"uid": u, "token": t, "value": self.token_values[t]}
                           for u, t in tokens]}

    def import_(self, doc: Any) -> int:
        """Replace the registry with an exported one (version 1 or 2), after checking all
        of it; returns how many tags (pawns and cards) it holds."""
        if (not isinstance(doc, dict) or doc.get("format") != FORMAT
                or doc.get("version") not in (1, 2)):
            raise RegistryError("BAD_REGISTRY", f'expected {{"format": "{FORMAT}", '
                                '"version": 2, "tags": [...], "cards": [...]} (or version 1)')
        tags: dict[str, int] = {}
        for item in _items(doc, "tags"):
            uid, pawn = self._check_item(item)
            if uid in tags:
                raise RegistryError("DUPLICATE_UID", f"tag {uid} is listed twice")
            if pawn in tags.values():
                raise RegistryError("DUPLICATE_PAWN", f"pawn {pawn} has two tags")
            tags[uid] = pawn
        cards: dict[str, tuple[str, str]] = {}
        for item in _items(doc, "cards") if doc["version"] == 2 else []:
            uid, kind, card = self._check_card(item)
            if uid in tags or uid in cards:
                raise RegistryError("DUPLICATE_UID", f"tag {uid} is listed twice")
            cards[uid] = (kind, card)
            self._check_room(cards, kind, card)
        tokens = self._import_tokens(doc, set(tags) | set(cards))
        stored = {**cards, **{u: (TOKEN_KIND, str(t)) for u, t in tokens.items()}}
        with self._lock:
            self.store.replace_tags(tags, stored)
            self._by_uid, self._cards, self._tokens = tags, cards, tokens
        return len(tags) + len(cards) + len(tokens)

    def _import_tokens(self, doc: dict[str, Any], known: set[str]) -> dict[str, int]:
        """The optional ``tokens`` list of an export (B Movies' popcorn tokens), checked."""
        tokens: dict[str, int] = {}
        for item in _items(doc, "tokens"):
            if not isinstance(item, dict):
                raise RegistryError("BAD_REGISTRY", "each token tag must be an object")
            uid, token = _uid(item.get("uid")), item.get("token")
            if type(token) is not int or not 0 <= token < len(self.token_values):
                raise RegistryError("BAD_REGISTRY", f"tag {uid}: token must be 0 to "
                                    f"{len(self.token_values) - 1}")
            if "value" in item and item["value"] != self.token_values[token]:
                raise RegistryError("BAD_REGISTRY", f"tag {uid}: token {token} is worth "
                                    f"{self.token_values[token]}, not {item['value']}")
            if uid in known or uid in tokens:
                raise RegistryError("DUPLICATE_UID", f"tag {uid} is listed twice")
            if token in tokens.values():
                raise RegistryError("DUPLICATE_TOKEN", f"token {token} has two tags")
            tokens[uid] = token
        return tokens

    def _check_card(self, item: Any) -> tuple[str, str, str]:
        if not isinstance(item, dict):
            raise RegistryError("BAD_REGISTRY", "each card tag must be an object")
        uid, kind, card = _uid(item.get("uid")), item.get("kind"), item.get("card")
        if not self.book.knows(kind, card):
            raise RegistryError("BAD_CARD", f"tag {uid}: {kind!r} card {card!r} is not in "
                                f"the catalog (kinds: {', '.join(self.card_kinds())})")
        assert isinstance(kind, str) and isinstance(card, str)  # knows() checked them
        return uid, kind, card

    def _check_item(self, item: Any) -> tuple[str, int]:
        if not isinstance(item, dict):
            raise RegistryError("BAD_REGISTRY", "each tag must be an object")
        uid = _uid(item.get("uid"))
        pawn = item.get("pawn")
        if type(pawn) is not int or not 0 <= pawn < len(self.colors):
            raise RegistryError("BAD_REGISTRY", f"tag {uid}: pawn must be 0 to "
                                f"{len(self.colors) - 1}")
        if "color" in item and item["color"] != self.colors[pawn]:
            raise RegistryError("BAD_REGISTRY", f"tag {uid}: pawn {pawn} is "
                                f"{self.colors[pawn]}, not {item['color']}")
        return uid, pawn


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
