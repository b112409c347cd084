"""The tag registry: which RFID sticker is under which of the 60 pawns.

Pawn ids and colors come from the engine (0-19 white, then 10 of each color). Enrollment
hands out the next free pawn id of the chosen color to each new UID, and refuses a UID
already enrolled or a color whose pawns are all enrolled. The registry lives in the hub's
database, outlives tables, and travels as JSON (:meth:`TagRegistry.export`).
"""

from __future__ import annotations

import threading
from typing import Any

from companion.readers.protocol import normalize_uid

from .store import HubStore

FORMAT = "popcorn-tags"
"""The ``format`` of an exported registry."""


class RegistryError(ValueError):
    """A refused enrollment or import: ``code`` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class TagRegistry:
    """UID to pawn id, backed by the hub store."""

    def __init__(self, store: HubStore, pawn_colors: tuple[str, ...]) -> None:
        self.store = store
        self.colors = pawn_colors
        self._lock = threading.Lock()
        self._by_uid = store.tags()

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
        try:
            uid = normalize_uid(uid)
        except ValueError as exc:
            raise RegistryError("BAD_UID", str(exc)) from exc
        if color not in self.colors:
            raise RegistryError("BAD_COLOR", f"{color!r} is not a guest color")
        with self._lock:
            if uid in self._by_uid:
                pawn = self._by_uid[uid]
                raise RegistryError("DUPLICATE_UID", f"tag {uid} is already pawn {pawn} "
                                    f"({self.colors[pawn]})")
            taken = set(self._by_uid.values())
            free = [i for i, c in enumerate(self.colors) if c == color and i not in taken]
            if not free:
                raise RegistryError("COLOR_FULL", f"all {self.capacity()[color]} {color} "
                                    "pawns of the box are already enrolled")
            self.store.set_tag(uid, free[0])
            self._by_uid[uid] = free[0]
            return free[0]

    def export(self) -> dict[str, Any]:
        """The registry as JSON data."""
        tags = sorted(self._by_uid.items(), key=lambda item: item[1])
        return {"format": FORMAT, "version": 1,
                "tags": [{"uid": u, "pawn": p, "color": self.colors[p]} for u, p in tags]}

    def import_(self, doc: Any) -> int:
        """Replace the registry with an exported one, after checking all of it."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != 1:
            raise RegistryError("BAD_REGISTRY", f'expected {{"format": "{FORMAT}", '
                                '"version": 1, "tags": [...]}')
        tags: dict[str, int] = {}
        for item in doc.get("tags") or []:
            uid, pawn = self._check_item(item)
            if uid in tags:
                raise RegistryError("DUPLICATE_UID", f"tag {uid} is listed twice")
            if pawn in tags.values():
                raise RegistryError("DUPLICATE_PAWN", f"pawn {pawn} has two tags")
            tags[uid] = pawn
        with self._lock:
            self.store.replace_tags(tags)
            self._by_uid = tags
        return len(tags)

    def _check_item(self, item: Any) -> tuple[str, int]:
        if not isinstance(item, dict):
            raise RegistryError("BAD_REGISTRY", "each tag must be an object")
        try:
            uid = normalize_uid(item.get("uid"))
        except ValueError as exc:
            raise RegistryError("BAD_UID", str(exc)) from exc
        pawn = item.get("pawn")
        if type(pawn) is not int or not 0 <= pawn < len(self.colors):
            raise RegistryError("BAD_REGISTRY", f"tag {uid}: pawn must be 0 to "
                                f"{len(self.colors) - 1}")
        if "color" in item and item["color"] != self.colors[pawn]:
            raise RegistryError("BAD_REGISTRY", f"tag {uid}: pawn {pawn} is "
                                f"{self.colors[pawn]}, not {item['color']}")
        return uid, pawn
