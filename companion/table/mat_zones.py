"""A table's cinema mats: each zone's last state, what a change means, its checkpoints,
and a mat that disagrees with the table after a restart.

A mat reports states, not taps (``docs/protocol.md``, "Mats"). The table keeps each zone's
last state (:attr:`MatZones.mat_zones`) and, for each change, asks its game what it means
(:meth:`~companion.kit.parts.Mats.read`); the results are played as a tap's. After every
outermost change of the game the game reviews its mats (:meth:`Mats.review`: Popcorn's guest
left in a theater).

**After a restart** (the hub's: a zone a table rebuilt from its log has had no news from
this boot of its mat yet; or the mat's: a new boot), a zone's first new state is read as moves
only if the game reads it without an alert: what happened while nobody listened has no
order the hub can trust. Otherwise the game compares it with the state
(:meth:`Mats.disagreement`): each difference is an alert, and the zone is **disputed**. Its
later states are only compared again, never read, until it agrees (the table set its pieces
as the hub has them: the alerts close, ``"how": "mat"``), or the table's PIN accepts what
the mat shows (:meth:`MatZones.accept_mat`: the change from the zone's last read state to
the mat's is read as moves, the alerts close, ``"how": "correct"``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from companion.kit.alerts import Alert
from companion.kit.pieces import Piece
from companion.kit.zones import Mended, Sensed, ZoneChange

if TYPE_CHECKING:
    from companion.kit.game import GameKind

Key = tuple[int, int]
"""A mat zone of a table: ``(seat, zone)``."""


class Seats(Protocol):
    """What the mats read of a table's config: its players' names and each seat's mat."""

    players: list[str]
    mats: list[str | None]


class MatZones:
    """The mat part of a :class:`~companion.table.table.Table` (a mixin: the table holds
    the state, the log and the alerts it uses)."""

    config: Seats
    game: GameKind[Any, Any]
    state: Any
    alerts: deque[dict[str, Any]]
    count: int

    def _init_mats(self) -> None:
        self.mat_zones: dict[Key, tuple[str, ...]] = {}
        """Each mat zone's last state, by ``(seat, zone)``: the UIDs lying on it in the
        order they arrived (rebuilt from the log, as the state is)."""
        self.mat_counts: dict[Key, int] = {}
        """How many tags lie on each mat zone (more than :attr:`mat_zones` keeps when the
        zone holds more than a mat's message lists: it keeps the newest)."""
        self._mat_marks: dict[Key, tuple[str, int, int]] = {}
        """The ``(reader, boot, seq)`` of each zone's last state: an older one is stale."""
        self._mat_read: dict[Key, tuple[str, ...]] = {}
        """Each zone's last state the game read (differs from :attr:`mat_zones` while the
        zone is disputed)."""
        self._read_counts: dict[Key, int] = {}
        """How many tags lay on each zone in its state in :attr:`_mat_read`."""
        self._disputes: dict[Key, list[int]] = {}
        """The ids of each disputed zone's open alerts."""
        self._heard: set[tuple[str, int, int]] = set()
        """The ``(reader, boot, zone)`` whose news this table has had since it was built (a
        state the zone already has is no news: the states a mat resends after a restart
        may begin with some)."""
        self._from_log = False
        """Whether the table was rebuilt from its log (a hub's restart)."""
        self.handled_now: tuple[int, ...] = ()
        """The alerts the table handled itself in the input under way (a mat set a guest
        right, a dispute agreed or was accepted): handed to ``on_handled`` once the input
        commits."""
        self.piece_of: Callable[[str], Piece | None] = lambda uid: None
        """What the tag registry knows a UID to be (the hub sets it): the mats' checkpoints
        and disputes read the zones' pieces with it."""

    # -- the table's own, used here -----------------------------------------------------

    if TYPE_CHECKING:
        def open_for_input(self) -> None: ...
        def _atomic(self) -> AbstractContextManager[None]: ...
        def _log(self, kind: str, body: dict[str, Any]) -> None: ...
        def stop_playing_on(self, players: Iterable[int] | None = None) -> None: ...
        def _tapped(self, player: int, tag: dict[str, Any], result: Any) -> Any: ...
        def _alert(self, tag: dict[str, Any], result: Alert) -> Alert: ...
        def _push_alert(self, alert: dict[str, Any]) -> None: ...
        def _close_alert(self, alert_id: Any) -> None: ...
        def _refused(self, tag: dict[str, Any], exc: Any, player: int) -> Alert: ...

    # -- a zone's new state ----------------------------------------------------------------

    def handle_zones(self, player: int, tag: dict[str, Any]) -> list[Any]:
        """A new state of zone ``tag["zone"]`` of ``player``'s mat (``tag``: the mat's
        ``reader``, ``boot``, ``seq``, ``zone``, ``tags`` and, when it lists fewer than lie
        there, ``count``): the game says what the change since the zone's last state
        means (:meth:`Mats.read`), and each result is played as a tap's, in order, in one
        transaction with the zone's new state. A state older than the zone's last one (a
        lower ``seq`` of the same boot) is stale, and one the zone already has (a mat's
        ``hello`` reports every zone) is no news: neither changes nor logs anything. The
        first state after a restart that the game cannot read without an alert, and any
        state of a disputed zone, is compared, not read (:meth:`_compare`)."""
        key = (player, tag["zone"])
        heard = (tag["reader"], tag["boot"], tag["zone"])
        last = self._mat_marks.get(key)
        if last is not None and last[:2] == heard[:2] and last[2] >= tag["seq"]:
            return []
        if tuple(tag["tags"]) == self.mat_zones.get(key, ()):
            self._note_zone(tag)
            return []
        self.open_for_input()
        change = self._change(key, self.mat_zones.get(key, ()), self.mat_counts.get(key, 0),
                              tag)
        restarted = heard not in self._heard and (
            self._from_log or (last is not None and last[1] != tag["boot"]))
        self._heard.add(heard)  # the first news of this zone from this boot is in
        if key in self._disputes:
            return self._compare(player, change, tag)
        mats = self.game.mats
        results = [] if mats is None else mats.read(self.state, change, self.config.players)
        if restarted and any(isinstance(result, Alert) for result in results):
            return self._compare(player, change, tag)
        return self._play(player, tag, results)

    def _play(self, player: int, tag: dict[str, Any], results: list[Any]) -> list[Any]:
        """Play what the game read a zone's change as, with the zone's new state."""
        with self._atomic():
            if all(isinstance(result, Mended) for result in results):
                self._log("tag", {"tag": tag})  # the zone's new state, which plays nothing
            played = [self._zone_result(player, tag, result) for result in results]
            self._note_zone(tag)  # last: a failed batch leaves the zone as it was
        return played

    def _zone_result(self, player: int, tag: dict[str, Any], result: Any) -> Any:
        """One result of a zone change, played as a tap's (its alert if the rules refuse);
        a :class:`Mended` closes the open alerts it names, and comes back with their ids."""
        if isinstance(result, Mended):
            return self._mend(result)
        try:
            return self._tapped(player, tag, result)
        except self.game.violation as exc:
            return self._refused(tag, exc, player)

    def _mend(self, mended: Mended, how: str = "mat") -> Mended:
        """Close the open alerts ``mended`` names (``handled`` events, ``how``)."""
        ids = tuple(a["id"] for a in self.alerts if a["code"] == mended.code and
                    all(a.get("params", {}).get(k) == v for k, v in mended.match.items()))
        return replace(mended, ids=self._handle(ids, how))

    def _handle(self, ids: tuple[int, ...], how: str) -> tuple[int, ...]:
        """Log each open alert of ``ids`` as handled (``how``) and close it; the screens
        hear of it once the input commits (:attr:`handled_now`, ``on_handled``)."""
        for alert_id in ids:
            self._log("handled", {"alert": alert_id, "how": how})
            self._close_alert(alert_id)
        self.handled_now += ids
        return ids

    # -- after a restart ---------------------------------------------------------------

    def _compare(self, player: int, change: ZoneChange, tag: dict[str, Any]) -> list[Any]:
        """A zone's state compared with the game's, not read (see the module's text):
        agreed, its dispute's alerts close; disputed, its open alerts give way to one per
        difference the game finds now, and the state the game last read is kept."""
        key = (player, change.zone)
        mats = self.game.mats
        found = [] if mats is None else mats.disagreement(
            self.state, player, change.zone, change.after, self._tag_count(tag),
            self.config.players)
        with self._atomic():
            self._handle(tuple(self._disputes.pop(key, [])), "mat")  # the dispute so far
            if not found:
                self._log("tag", {"tag": tag})
            for alert in found:
                self._log_dispute(tag, alert)
            self._note_zone(tag)
        return list(found)

    def _log_dispute(self, tag: dict[str, Any], alert: Alert) -> None:
        """One difference between a zone and the game: an alert logged with the zone's state
        as ``unread`` (the game did not read it)."""
        self.stop_playing_on()  # the table looks before the advice goes on
        self._log("tag", {"tag": tag, "alert": alert.to_dict(), "unread": True})
        self.alerts.append({**alert.to_dict(), "id": self.count})
        seat = tag_seat(self.config.mats, tag)
        assert seat is not None  # the hub hands a table only its own mats' states
        self._disputes.setdefault((seat, tag["zone"]), []).append(self.count)
        self._push_alert(dict(self.alerts[-1]))

    def accept_mat(self, seat: int) -> tuple[list[Any], tuple[int, ...]]:
        """The table's PIN accepts what ``seat``'s mat shows where it disputes the game:
        each disputed zone's change, from the state the game last read to the mat's, is
        read and played (:meth:`Mats.read`), and its alerts close (``"how": "correct"``).
        Returns the results played and the ids closed: none when no zone of that mat is
        disputed (two tablets may accept at once; the second finds it done)."""
        self.open_for_input()
        keys = sorted(key for key in self._disputes if key[0] == seat)
        if not keys:
            return [], ()
        self.stop_playing_on()
        results: list[Any] = []
        with self._atomic():
            closed = self._handle(tuple(i for key in keys for i in self._disputes.pop(key)),
                                  "correct")
            for key in keys:
                results += self._accept_zone(key)
        return results, closed

    def _accept_zone(self, key: Key) -> list[Any]:
        """Read and play one disputed zone's change since the game last read it."""
        mats, tag = self.game.mats, self._zone_tag(*key)
        change = self._read_change(key, tag)
        results = [] if mats is None else mats.read(self.state, change, self.config.players)
        return self._play(key[0], tag, results)

    def _retry(self, key: Key) -> None:
        """A disputed zone read again on the state the last input left: if the game reads
        its change now without an alert (the bag reader's tap of a guest the mat showed
        seated came in after the mat's state), it is played and the dispute's alerts close
        (``"how": "mat"``, pushed through ``on_handled`` once committed)."""
        mats = self.game.mats
        assert mats is not None
        tag = self._zone_tag(*key)
        results = mats.read(self.state, self._read_change(key, tag), self.config.players)
        if any(isinstance(result, Alert) for result in results):
            return
        self._handle(tuple(self._disputes.pop(key)), "mat")
        self._play(key[0], tag, results)

    def _still_open(self, alert: Alert) -> bool:
        """Whether an open alert says the same as ``alert`` (its code and params)."""
        return any(a["code"] == alert.code and a.get("params") == alert.params
                   for a in self.alerts)

    def disputed(self, seat: int) -> bool:
        """Whether a zone of ``seat``'s mat disagrees with the game (see the module)."""
        return any(key[0] == seat for key in self._disputes)

    # -- the zones' states -------------------------------------------------------------

    def _note_zone(self, tag: dict[str, Any]) -> None:
        """Keep a mat zone's state and its mark (the seat is the mat's in the config), and,
        unless the zone is disputed, as the state the game read."""
        seat = tag_seat(self.config.mats, tag)
        if seat is None:
            return
        key = (seat, tag["zone"])
        self.mat_zones[key] = tuple(tag["tags"])
        self.mat_counts[key] = self._tag_count(tag)
        self._mat_marks[key] = (tag["reader"], tag["boot"], tag["seq"])
        if key not in self._disputes:
            self._mat_read[key] = self.mat_zones[key]
            self._read_counts[key] = self.mat_counts[key]

    def _replay_zone(self, n: int, body: dict[str, Any]) -> None:
        """A logged ``tag`` event of a mat's zone, as :meth:`_note_zone` kept it live."""
        tag = body["tag"]
        seat = tag_seat(self.config.mats, tag)
        if body.get("unread") and seat is not None:
            self._disputes.setdefault((seat, tag["zone"]), []).append(n)
        self._note_zone(tag)

    def _undispute(self, alert_id: Any, how: str) -> None:
        """An alert handled (``how``): a dispute's, dismissed, lets its zone be: once all of
        a zone's are, what the mat shows there counts as read. Closed by the mat or an
        accept, the zone's state that follows is read."""
        for key, ids in list(self._disputes.items()):
            if alert_id in ids:
                ids.remove(alert_id)
                if not ids:
                    del self._disputes[key]
                    if how == "dismiss":
                        self._mat_read[key] = self.mat_zones.get(key, ())
                        self._read_counts[key] = self.mat_counts.get(key, 0)

    @staticmethod
    def _tag_count(tag: dict[str, Any]) -> int:
        return max(int(tag.get("count", 0)), len(tag["tags"]))

    def _change(self, key: Key, before: tuple[str, ...], count: int,
                tag: dict[str, Any]) -> ZoneChange:
        """The change from a zone's state ``before`` (``count`` tags lying there) to the
        state ``tag`` reports, each piece as the registry knows it (:attr:`piece_of`)."""
        return ZoneChange(key[0], key[1], self._sensed(before), self._sensed(tag["tags"]),
                          count - len(before), self._tag_count(tag) - len(tag["tags"]))

    def _read_change(self, key: Key, tag: dict[str, Any]) -> ZoneChange:
        """The change of a disputed zone since the state the game last read."""
        return self._change(key, self._mat_read.get(key, ()), self._read_counts.get(key, 0),
                            tag)

    def _sensed(self, uids: Iterable[str]) -> tuple[Sensed, ...]:
        return tuple(Sensed(uid, self.piece_of(uid)) for uid in uids)

    def _zone_tag(self, seat: int, zone: int) -> dict[str, Any]:
        """A zone's last state as its mat reported it (a ``tag`` event's ``tag``)."""
        reader, boot, seq = self._mat_marks[(seat, zone)]
        tags, count = self.mat_zones[(seat, zone)], self.mat_counts[(seat, zone)]
        return {"reader": reader, "boot": boot, "seq": seq, "zone": zone, "tags": list(tags),
                **({"count": count} if count > len(tags) else {})}

    # -- checkpoints -------------------------------------------------------------------

    def _checkpoint(self, before: Any) -> None:
        """The game's review of its mats after the state went from ``before`` to now
        (:meth:`Mats.review`), disputed zones read again first: each alert logged with its
        zone's last state, pushed once the input commits."""
        mats = self.game.mats
        if mats is None or not self.config.mats or before is self.state:
            return
        for key in sorted(self._disputes):
            self._retry(key)
        zones = SensedZones(self.mat_zones, self._sensed)  # read only if the game looks
        for found in mats.review(before, self.state, zones, self.config.players):
            if not self._still_open(found.alert):  # one alert for one mistake, however
                self._alert(self._zone_tag(found.seat, found.zone), found.alert)  # many look


class SensedZones(Mapping[Key, tuple[Sensed, ...]]):
    """The mats' zones as the game reads them, each zone's pieces looked up in the tag
    registry only when the game reads that zone (a checkpoint runs after every change, and
    most find nothing to look at)."""

    def __init__(self, zones: Mapping[Key, tuple[str, ...]],
                 sensed: Callable[[tuple[str, ...]], tuple[Sensed, ...]]) -> None:
        self._zones, self._sensed = zones, sensed

    def __getitem__(self, key: Key) -> tuple[Sensed, ...]:
        return self._sensed(self._zones[key])

    def __iter__(self) -> Iterator[Key]:
        return iter(self._zones)

    def __len__(self) -> int:
        return len(self._zones)


def tag_seat(mats: list[str | None], tag: dict[str, Any]) -> int | None:
    """The seat whose mat sent ``tag`` (None: no seat's)."""
    return mats.index(tag["reader"]) if tag["reader"] in mats else None
