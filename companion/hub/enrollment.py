"""Enrollment: giving the box's pieces their tags, one tap at a time.

While an enrollment is under way, a tap on any reader enrolls the tapped tag instead of
being played: :meth:`Enrollment.tap` takes it before the hub looks for a table. The mode
(:mod:`.enroll_modes`) names a game's kind of pieces and how each new tag gets its piece:
the next one of a value (Popcorn's pawns by color, B Movies' tokens by value), the next in
the kind's order (cards in catalog order), or ``pick``: the UID waits (``pending``) until the
admin names its piece (:meth:`Enrollment.bind`).

Each tap gets ``ok`` or ``error`` feedback on its reader and an ``enroll`` push (to the admin
room only: a UID is what a forged tap needs). The last push is kept (``last``) for an admin
screen that joins later. The registry (:class:`~companion.table.registry.TagRegistry`) keeps
the tags and refuses duplicates, unknown values and full values or kinds.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

from companion.hub.enroll_modes import Mode, mode_of, older_fields, older_status, shape_of
from companion.kit.pieces import Piece
from companion.readers.ingest import TagEvent
from companion.readers.protocol import normalize_uid
from companion.table.registry import RegistryError, TagRegistry, older

Feedback = Callable[[str, str, int | None], Any]
"""Called as ``feedback(reader, level, seq)`` to light a reader ``ok`` or ``error``."""

Emit = Callable[[str, str, Any], None]
"""Called as ``emit(table_id, kind, payload)`` to push a notification (:mod:`.pushes`)."""


class Enrollment:
    """The enrollment under way, if any, and what it has done so far.

    :attr:`mode` None means taps are played, not enrolled. Changes take the hub's ``lock``;
    :meth:`tap` runs under it already (inside the reader batch's transaction).
    """

    def __init__(self, registry: TagRegistry, lock: threading.RLock, feedback: Feedback,
                 emit: Emit, titles: dict[str, str] | None = None) -> None:
        """``titles``: each hosted game's title by id (the status names a kind's game)."""
        self.registry = registry
        self.titles = dict(titles or {})
        self.lock = lock
        self._feedback = feedback
        self._emit = emit
        self.mode: Mode | None = None
        """What each new tag becomes (:mod:`.enroll_modes`), or None."""
        self.pending: list[str] = []
        """UIDs tapped in ``pick`` mode that wait for their piece (oldest first)."""
        self.last: dict[str, Any] | None = None
        """The last ``enroll`` push of the enrollment under way, for an admin screen that
        joins after it was sent (``join_admin`` answers with it)."""
        self.boot = secrets.token_hex(4)
        """This run of the hub, in :meth:`stamp` (a restarted hub counts from 0 again)."""
        self.revision = 0
        """Enrollment changes so far in this run: modes switched, taps enrolled or refused."""

    # -- modes -----------------------------------------------------------------------------

    def start(self, body: dict[str, Any]) -> None:
        """Start the enrollment a request's body asks for (:func:`.enroll_modes.mode_of`):
        a bad one is a ``BAD_REQUEST`` and changes nothing; a good one forgets what was
        pending."""
        mode = mode_of(body, self.registry)
        with self.lock:
            self.mode, self.pending, self.last = mode, [], None
            self.revision += 1

    def stop(self) -> None:
        """End any enrollment; pending UIDs are forgotten."""
        with self.lock:
            self.mode, self.pending = None, []
            self.revision += 1

    def status(self, admin: bool = False) -> dict[str, Any]:
        """Enrollment at a glance: ``pieces``, every kind of every hosted game with its tags
        per value against what the box holds, and ``enrolling_piece``, the mode (or None);
        also the older shapes (pawn tags per color, card tags per kind, token tags per
        value, and ``enrolling``, ``enrolling_cards``, ``enrolling_tokens``). With ``admin``
        (an answer to the admin PIN), also the UIDs tapped in ``pick`` mode that wait for
        their piece (``pending``): a UID is what a forged tap needs, so the unauthenticated
        counts never carry one."""
        registry = self.registry
        with self.lock:
            status: dict[str, Any] = {
                "pieces": [{**kind, "game_title": self.titles.get(kind["game"], kind["game"])}
                           for kind in registry.piece_counts()],
                "enrolling_piece": None if self.mode is None else self.mode.to_dict(),
                "counts": registry.counts(), "capacity": registry.capacity(),
                "cards": registry.card_counts(), "card_capacity": registry.card_capacity(),
                "tokens": registry.token_counts(), "token_capacity": registry.token_capacity(),
                **older_status(self.mode, registry), "revision": self.stamp()}
            if admin:
                status["pending"] = list(self.pending)
        return status

    def stamp(self) -> list[Any]:
        """``[boot, n]``: this hub's run and the number of enrollment changes in it. A
        screen keeps the newest it has seen and ignores any status or push older than that
        (a poll answered after a tap's push would otherwise undo its count)."""
        return [self.boot, self.revision]

    # -- taps ------------------------------------------------------------------------------

    def tap(self, event: TagEvent) -> bool:
        """Enroll a tapped tag if an enrollment is under way (inside the reader batch's
        transaction); whether it did, so that the hub plays the tap only when not."""
        mode = self.mode
        if mode is None:
            return False
        try:
            result = self._pick(event.uid) if mode.how == "pick" else self._enrolled_piece(
                event.uid, self._next(event.uid, mode))
        except RegistryError as exc:
            self._feedback(event.reader, "error", event.seq)
            self._push(_refusal(older(exc, mode.shape)))
            return True
        self._feedback(event.reader, "ok", event.seq)
        self._push(result)
        return True

    def _next(self, uid: str, mode: Mode) -> Piece:
        if mode.how == "next":
            return self.registry.enroll_next(uid, mode.game, mode.kind)
        return self.registry.enroll(uid, mode.game, mode.kind, mode.value)

    def bind(self, uid: Any, game: Any, kind: Any, value: Any, shape: str = "") -> dict[str, Any]:
        """Bind a UID (one tapped in ``pick`` mode, or typed) to the next free piece of a
        value; pushes and returns the ``enroll`` result. A refused binding raises the
        registry's error (an older request's code for ``shape``)."""
        with self.lock:
            try:
                piece = self.registry.enroll(uid, game, kind, value)
            except RegistryError as exc:
                raise older(exc, shape) from exc
            uid = normalize_uid(uid)  # valid: the registry took it
            if uid in self.pending:
                self.pending.remove(uid)
            result = {**self._enrolled_piece(uid, piece), "waiting": list(self.pending)}
        self._push(result)
        return result

    def bind_card(self, uid: Any, kind: Any, card: Any) -> dict[str, Any]:
        """An older request's binding: a card of ``kind`` (the first hosted game's kind of
        that name enrolled by picking)."""
        key = self.registry.older_key(kind) if kind in self.registry.card_kinds() else None
        if key is None:
            raise RegistryError("BAD_CARD", f"kind must be one of "
                                f"{', '.join(self.registry.card_kinds())}")
        return self.bind(uid, key[0], kind, card, "card")

    def _pick(self, uid: str) -> dict[str, Any]:
        """A UID waits for the admin to name its piece."""
        self.registry.refuse_known(uid, "tap a piece that has no tag yet")
        if uid not in self.pending:
            self.pending.append(uid)
        return {"ok": True, "pending": uid, "waiting": list(self.pending)}

    def _enrolled_piece(self, uid: str, piece: Piece) -> dict[str, Any]:
        """The push of a piece enrolled: the ``piece`` with its ``title``, how many of its
        value have tags against the box (``enrolled``, ``cap``), and the older fields of its
        shape."""
        kind = self.registry.kinds[(piece.game, piece.kind)]
        counts = self.registry.value_counts(piece.game, piece.kind)
        return {"ok": True, "uid": uid,
                "piece": {**piece.to_dict(), "title": kind.title_of(piece.value)},
                "enrolled": counts[str(piece.value)], "cap": kind.capacity()[str(piece.value)],
                "shape": shape_of(piece, self.registry),
                **older_fields(piece, self.registry)}

    def _push(self, result: dict[str, Any]) -> None:
        with self.lock:
            self.revision += 1
            result = {**result, "revision": self.stamp()}
            self.last = result
        self._emit("", "enroll", result)


def _refusal(exc: RegistryError) -> dict[str, Any]:
    return {"ok": False, "code": exc.code, "message": exc.message, "params": exc.params}
