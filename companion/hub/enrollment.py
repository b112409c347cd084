"""Enrollment: giving the box's pawns, cards and popcorn tokens their tags, one tap at a time.

While an enrollment is under way, a tap on any reader enrolls the tapped tag instead of
being played: :meth:`Enrollment.tap` takes it before the hub looks for a table. There are
three modes, one at a time:

- **pawns by color** (``color``): each new UID becomes the next pawn of that guest color;
- **cards** (``cards``): ``"pick"`` keeps each new UID waiting (``pending_cards``) until the
  admin names its card (:meth:`Enrollment.bind_card`), while a kind (``movie``, ``theater``,
  ``award``) gives each new UID the next card of that kind in catalog order;
- **popcorn tokens by value** (``tokens``, B Movies): each new UID becomes the next token of
  that value.

Each tap gets ``ok`` or ``error`` feedback on its reader and an ``enroll`` push (to the admin
room only: a UID is what a forged tap needs). The last push is kept (``last``) for an admin
screen that joins later. The registry (:class:`~companion.table.registry.TagRegistry`) keeps
the tags and refuses duplicates, unknown cards and full colors, kinds or values.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

from companion.kit.errors import TableError
from companion.readers.ingest import TagEvent
from companion.readers.protocol import normalize_uid
from companion.table.registry import RegistryError, TagRegistry

Feedback = Callable[[str, str, int | None], Any]
"""Called as ``feedback(reader, level, seq)`` to light a reader ``ok`` or ``error``."""

Emit = Callable[[str, str, Any], None]
"""Called as ``emit(table_id, kind, payload)`` to push a notification (:mod:`.pushes`)."""


class Enrollment:
    """The enrollment under way, if any, and what it has done so far.

    At most one of :attr:`color`, :attr:`cards` and :attr:`tokens` is set; all None means
    taps are played, not enrolled. Changes take the hub's ``lock``; :meth:`tap` runs under
    it already (inside the reader batch's transaction).
    """

    def __init__(self, registry: TagRegistry, lock: threading.RLock, feedback: Feedback,
                 emit: Emit) -> None:
        self.registry = registry
        self.lock = lock
        self._feedback = feedback
        self._emit = emit
        self.color: str | None = None
        """The guest color being enrolled (pawn enrollment), or None."""
        self.cards: str | None = None
        """Card enrollment: ``"pick"`` (tap, then pick the card) or a kind enrolled in catalog
        order (``movie``, ``theater``, ``award``); None when not enrolling cards."""
        self.tokens: int | None = None
        """The popcorn token value being enrolled (B Movies), or None."""
        self.pending_cards: list[str] = []
        """UIDs tapped in ``pick`` mode that wait for their card (oldest first)."""
        self.last: dict[str, Any] | None = None
        """The last ``enroll`` push of the enrollment under way, for an admin screen that
        joins after it was sent (``join_admin`` answers with it)."""
        self.boot = secrets.token_hex(4)
        """This run of the hub, in :meth:`stamp` (a restarted hub counts from 0 again)."""
        self.revision = 0
        """Enrollment changes so far in this run: modes switched, taps enrolled or refused."""

    # -- modes -----------------------------------------------------------------------------

    def start(self, color: Any = None, cards: Any = None, tokens: Any = None) -> None:
        """Start pawn enrollment of ``color``, or card enrollment: ``cards`` is True (tap,
        then pick the card) or a kind (tap the cards in catalog order), or B Movies' popcorn
        tokens of value ``tokens`` (tap every 0, then every 1, ...). A bad choice is a
        ``BAD_REQUEST`` and changes nothing; a good one forgets what was pending."""
        if tokens is not None:
            self._check_tokens(tokens)
            self._switch(None, None, tokens)
        elif cards is not None:
            kinds = self.registry.card_kinds()
            if cards is not True and cards not in kinds:
                raise TableError("BAD_REQUEST", 'cards must be true (tap, then pick) or one '
                                 f'of {", ".join(kinds)} (catalog order)')
            self._switch(None, "pick" if cards is True else cards, None)
        elif not isinstance(color, str) or color not in self.registry.capacity():
            raise TableError("BAD_REQUEST", "color must be a guest color, or give "
                             '"cards": true or a card kind')
        else:
            self._switch(color, None, None)

    def stop(self) -> None:
        """End any enrollment (pawns, cards or tokens); pending card UIDs are forgotten."""
        with self.lock:
            self.color = self.cards = self.tokens = None
            self.pending_cards = []
            self.revision += 1

    def status(self, admin: bool = False) -> dict[str, Any]:
        """Enrollment at a glance: pawn tags per color, card tags per kind and token tags
        per value against what the box holds, and what is being enrolled (``enrolling``: a
        color; ``enrolling_cards``: ``pick`` or a card kind; ``enrolling_tokens``: a value).
        With ``admin`` (an answer to the admin PIN), also the UIDs tapped in "tap, then
        pick" that wait for their card (``pending``): a UID is what a forged tap needs, so
        the unauthenticated counts never carry one."""
        registry = self.registry
        with self.lock:
            status: dict[str, Any] = {
                "counts": registry.counts(), "capacity": registry.capacity(),
                "cards": registry.card_counts(), "card_capacity": registry.card_capacity(),
                "enrolling": self.color, "enrolling_cards": self.cards,
                "tokens": registry.token_counts(), "token_capacity": registry.token_capacity(),
                "enrolling_tokens": self.tokens, "revision": self.stamp()}
            if admin:
                status["pending"] = list(self.pending_cards)
        return status

    def stamp(self) -> list[Any]:
        """``[boot, n]``: this hub's run and the number of enrollment changes in it. A
        screen keeps the newest it has seen and ignores any status or push older than that
        (a poll answered after a tap's push would otherwise undo its count)."""
        return [self.boot, self.revision]

    def _check_tokens(self, tokens: Any) -> None:
        values = self.registry.token_capacity()
        if type(tokens) is not int or str(tokens) not in values:
            raise TableError("BAD_REQUEST", "tokens must be a popcorn token value: "
                             + ", ".join(values))

    def _switch(self, color: str | None, cards: str | None, tokens: int | None) -> None:
        with self.lock:
            self.color, self.cards, self.tokens = color, cards, tokens
            self.pending_cards, self.last = [], None
            self.revision += 1

    # -- taps ------------------------------------------------------------------------------

    def tap(self, event: TagEvent) -> bool:
        """Enroll a tapped tag if an enrollment is under way (inside the reader batch's
        transaction); whether it did, so that the hub plays the tap only when not."""
        if self.color is not None:
            self._tap_pawn(event, self.color)
        elif self.cards is not None:
            self._tap_card(event, self.cards)
        elif self.tokens is not None:
            self._tap_token(event, self.tokens)
        else:
            return False
        return True

    def bind_card(self, uid: Any, kind: Any, card: Any) -> dict[str, Any]:
        """Bind a UID (one tapped in ``pick`` mode, or typed) to a card; pushes and returns
        the ``enroll`` result. A refused binding raises the registry's error."""
        with self.lock:
            title = self.registry.enroll_card(uid, kind, card)
            uid = normalize_uid(uid)  # valid: the registry took it
            if uid in self.pending_cards:
                self.pending_cards.remove(uid)
            result = {"ok": True, "uid": uid, "kind": kind, "card": card, "title": title,
                      "cards": self.registry.card_counts()}
        self._enrolled(result)
        return result

    def _tap_pawn(self, event: TagEvent, color: str) -> None:
        try:
            pawn = self.registry.enroll(event.uid, color)
        except RegistryError as exc:
            self._refused(event, exc)
            return
        self._accepted(event, {"ok": True, "pawn": pawn, "color": color, "uid": event.uid,
                               "counts": self.registry.counts()})

    def _tap_card(self, event: TagEvent, mode: str) -> None:
        try:
            result = self._pick(event.uid) if mode == "pick" else self._next_card(event.uid,
                                                                                    mode)
        except RegistryError as exc:
            self._refused(event, exc)
            return
        self._accepted(event, result)

    def _pick(self, uid: str) -> dict[str, Any]:
        """A UID waits for the admin to name its card."""
        self.registry.refuse_known(uid, "tap a card that has no tag yet")
        if uid not in self.pending_cards:
            self.pending_cards.append(uid)
        return {"ok": True, "pending": uid, "waiting": list(self.pending_cards)}

    def _next_card(self, uid: str, kind: str) -> dict[str, Any]:
        """A UID becomes the next card of ``kind`` in catalog order."""
        card = self.registry.enroll_next(uid, kind)
        return {"ok": True, "uid": uid, "kind": kind, "card": card,
                "title": self.registry.book.title(kind, card),
                "cards": self.registry.card_counts()}

    def _tap_token(self, event: TagEvent, value: int) -> None:
        try:
            token = self.registry.enroll_token(event.uid, value)
        except RegistryError as exc:
            self._refused(event, exc)
            return
        self._accepted(event, {"ok": True, "uid": event.uid, "token": token, "value": value,
                               "tokens": self.registry.token_counts(),
                               "capacity": self.registry.token_capacity()})

    def _accepted(self, event: TagEvent, result: dict[str, Any]) -> None:
        self._feedback(event.reader, "ok", event.seq)
        self._enrolled(result)

    def _refused(self, event: TagEvent, exc: RegistryError) -> None:
        self._feedback(event.reader, "error", event.seq)
        self._enrolled({"ok": False, "code": exc.code, "message": exc.message,
                        "params": exc.params})

    def _enrolled(self, result: dict[str, Any]) -> None:
        with self.lock:
            self.revision += 1
            result = {**result, "revision": self.stamp()}
            self.last = result
        self._emit("", "enroll", result)
