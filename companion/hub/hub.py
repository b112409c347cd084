"""The hub: every table, the tag registry and the reader link, in one process.

A reader event arrives from the :class:`~companion.readers.ingest.Ingest` inside the store's
transaction. The hub finds the table and seat the reader is bound to, maps the UID to a
pawn, lets the table turn the tap into a move or an alert (logged in the same transaction),
answers the reader with ``ok`` or ``error`` feedback, and tells the listeners (the Socket.IO
layer) that the table changed. Tablet requests take the same lock, so the two never
interleave.

Two jobs live in classes of their own that the hub holds: the enrollment under way, which
takes taps before any table sees them (:class:`~.enrollment.Enrollment`), and the queue of
pushes to the screens with its delivery thread (:class:`~.pushes.Pushes`).
"""

from __future__ import annotations

import logging
import secrets
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from companion.games import DEFAULT, GameKind
from companion.games import build as build_games
from companion.hub.enrollment import Enrollment
from companion.hub.pushes import Listener, Pushes
from companion.hub.timing import Timing
from companion.kit.alerts import Alert
from companion.kit.errors import TableError
from companion.kit.game import GameMove, PieceKind
from companion.readers.broker import Broker
from companion.readers.health import PROBLEMS
from companion.readers.ingest import BAG, MAT, Ingest, ReaderEvent, ReaderInfo, TagEvent, ZonesEvent
from companion.readers.mqtt_link import MqttLink
from companion.readers.mqtt_url import MqttUrl
from companion.readers.protocol import READER_ID
from companion.readers.serial_link import SerialLink
from companion.table.archive import Archive
from companion.table.audit import AuditRun
from companion.table.registry import TagRegistry
from companion.table.store import HubStore
from companion.table.table import (
    Table,
    TableConfig,
    config_dict,
    holds_plain_tokens,
    new_config,
)
from companion.table.violations import BatchViolation, violation_error

log = logging.getLogger("companion.hub")

T = TypeVar("T")

IDENTIFY_SECONDS = 30
"""How long a table waits for the one tap its correction dialog asked for (see
:meth:`Hub.identify`): long enough to find the pawn, short enough that a draw tapped later is
played."""


class Hub:
    """Tables, tags and readers; thread-safe through the store's lock."""

    def __init__(self, db_path: str | Path, *, games: dict[str, GameKind[Any, Any]] | None = None,
                 readers: Iterable[str] = (), mqtt_table: str = "demo",
                 mats: Iterable[str] = ()) -> None:
        """``games``: the games to host by id (default: every registered game,
        :func:`companion.games.build`); ``readers`` the bag readers and ``mats`` the cinema
        mats it trusts from the start (a table's own are trusted when it binds them)."""
        self.games: dict[str, GameKind[Any, Any]] = build_games() if games is None else games
        """Every game the hub hosts, by id (:mod:`companion.games`)."""
        self.store = HubStore(db_path)
        self.lock = self.store.lock
        self.registry = TagRegistry(self.store, piece_kinds(self.games))
        self.archive = Archive(self.store, self.games, DEFAULT)
        """Every finished game of the hub, and the records imported into it
        (:mod:`companion.table.archive`); read it through :meth:`archived`."""
        self.tables: dict[str, Table] = {}
        self.seats: dict[str, tuple[str, int]] = {}
        self.pushes = Pushes(self.store)
        """The notifications to the screens, delivered by their own thread (:mod:`.pushes`)."""
        self.listeners: list[Listener] = self.pushes.listeners
        """Who is told that a table changed (the Socket.IO layer appends itself)."""
        self.timing = Timing()
        """Where a tap's time goes, for ``bench/e2e.py`` (off unless asked: :mod:`.timing`)."""
        self.mqtt_table = mqtt_table
        self.ingest = Ingest(self.store, readers, mats=mats, on_event=self._on_event,
                             on_status=self._on_status, on_committed=self._committed)
        self.enrollment = Enrollment(self.registry, self.lock, self.ingest.feedback,
                                     self.pushes.emit, {g: k.title for g, k in self.games.items()})
        """The enrollment under way, if any; while one is, taps enroll tags instead of being
        played (:mod:`.enrollment`)."""
        self.zone_seen: dict[str, float] = {}
        """When each mat's last zone state came (the ingest's clock): the reader panel's
        "last scan"."""
        self.health_told: dict[str, frozenset[str]] = {}
        """The health problems each reader's table was last told of (:meth:`_health_news`)."""
        self.identifying: dict[str, float] = {}
        """The tables waiting for a tap that only names a thing, with the
        :func:`time.monotonic` until which they wait (see :meth:`identify`)."""
        self.links: list[Any] = []
        self.phone_tokens: dict[tuple[str, int], str] = {}
        """The phone tokens this run of the hub made (at a table's creation, or a seat's new
        link), by ``(table id, seat)``, in memory only: the database keeps their hashes, so
        a copy of it opens no phone, while the running hub can show a link again
        (:meth:`phone_token`) until it restarts."""
        self.broker: Broker | None = None
        self.on_reader_login: Callable[[str], None] | None = None
        """Called with a reader id when the hub's own broker makes that reader's login
        (a table bound a reader the hub did not know): ``serve`` prints its URL."""
        self._load()

    # -- life cycle ------------------------------------------------------------------------

    def _load(self) -> None:
        for table_id, data in self.store.tables():
            config = TableConfig.from_dict(data)
            if holds_plain_tokens(data):  # an older hub's: keep only the tokens' hashes
                self.store.replace_config(table_id, config_dict(config))
                log.info("hub: table %s: player tokens now stored as hashes", table_id)
            table = Table(config, self.games[config.game], self.store)
            table.replay(self.store.events(table_id))
            table.finish_deals()
            self._register(table)
        if self.tables:
            log.info("hub: rebuilt %d table(s) from the log", len(self.tables))
        self.archive.sync(self.tables.values())  # an older hub's file: its finished games

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        table.piece_of = self.registry.piece_of
        table.on_alert = partial(self.pushes.emit, table.id, "alert")
        table.on_handled = partial(self.pushes.emit, table.id, "handled")
        if table.closed:
            return
        for seat, reader in enumerate(table.config.readers):
            self.seats[reader] = (table.id, seat)
            self.ingest.add_reader(reader)
        for seat, mat in enumerate(table.config.mats):
            if mat:
                self.seats[mat] = (table.id, seat)
                self.ingest.add_reader(mat, MAT)
        if self.broker:
            for reader in self.broker.add_readers(table.config.bound()):
                if self.on_reader_login:
                    self.on_reader_login(reader)

    def start(self, serial: Iterable[str] = (),
              mqtt: MqttUrl | Broker | None | bool = None) -> Hub:
        """Start the reader link. ``mqtt`` is a broker's URL, a :class:`Broker` to start and
        own, or ``True`` for a private Mosquitto on loopback (virtual readers only)."""
        self.ingest.start()
        ports = list(serial)
        if ports:
            self.links.append(SerialLink(self.ingest, ports).start())
        if mqtt is True:
            mqtt = Broker()
        if isinstance(mqtt, Broker):
            mqtt.add_readers(self.ingest.readers)  # every reader logs in as itself
            self.broker = mqtt.start()
            mqtt = self.broker.url
        if isinstance(mqtt, MqttUrl):
            self.links.append(MqttLink(self.ingest, mqtt, self.mqtt_table).start())
        return self

    @property
    def mqtt_url(self) -> MqttUrl | None:
        """Where MQTT readers should connect (the private broker, if one was started)."""
        for link in self.links:
            if isinstance(link, MqttLink):
                return link.url
        return None

    def stop(self) -> None:
        """Stop the links, the ingest worker, the notifier, the broker; close the database."""
        for link in self.links:
            link.stop()
        self.ingest.stop()
        self.pushes.stop()
        if self.broker:
            self.broker.close()
        self.store.close()
        self.timing.close()

    def settled(self, timeout: float = 5.0) -> bool:
        """Wait until every queued notification has been delivered (for tests and tools)."""
        return self.pushes.settled(timeout)

    # -- tables ----------------------------------------------------------------------------

    def create_table(self, players: Any, readers: Any, first_player: Any = 0,
                     name: Any = None, deal_seed: Any = None, hints: Any = True,
                     game: Any = DEFAULT, options: dict[str, Any] | None = None,
                     mats: Any = None, play_on: Any = False) -> tuple[Table, str, list[str]]:
        """Create a table; returns it, its PIN and its player tokens (all shown once: the hub
        keeps only their hashes). ``hints``: whether the table screen pre-fills the advisor's
        placement (else the first free seats); ``play_on``: whether its screens ask the
        advice to play on after the steps the table resolves (:mod:`companion.table.playing_on`).
        ``game``: the game's id; ``options``: the
        game's table options, checked by its options part (:func:`request_options` reads
        them from a create request: its ``options`` object, or an older request's own fields
        that the game's options name). ``mats``: per seat, the id of the mat under that
        player's area, or None (:func:`_mats`)."""
        kind = self.game(game)
        players, readers = _names(players, kind), _readers(readers)
        if len(readers) != len(players):
            raise TableError("BAD_REQUEST", "give one reader id per player, in seat order")
        seat_mats = _mats(mats, kind, readers)
        self._check_kinds(readers, seat_mats)
        if type(first_player) is not int or not 0 <= first_player < len(players):
            raise TableError("BAD_REQUEST", "first_player must be a seat number")
        if deal_seed is not None and type(deal_seed) is not int:
            raise TableError("BAD_REQUEST", "deal_seed must be an integer")
        if type(hints) is not bool or type(play_on) is not bool:
            raise TableError("BAD_REQUEST", "hints and play_on must be true or false")
        chosen = kind.options.check(_own_options(kind, options or {}), len(players))
        if deal_seed is None and kind.options.deals_secretly(chosen):
            deal_seed = secrets.randbits(32)  # a secret deal nobody at the table sees
        with self.lock:
            bound = [*readers, *(m for m in seat_mats if m)]
            self._release_finished(bound)
            busy = [r for r in bound if r in self.seats]
            if busy:
                raise TableError("READER_IN_USE", f"reader {busy[0]} is already bound to table "
                                 f"{self.seats[busy[0]][0]}", 409)
            table_id = uuid.uuid4().hex[:8]
            config, pin, tokens = new_config(table_id, str(name or f"Table {len(self.tables) + 1}"),
                                     players, first_player, readers, deal_seed,
                                     time.time_ns(), kind.id, chosen, seat_mats)
            config.extra["hints"] = hints
            config.extra["play_on"] = play_on
            table = Table(config, kind, self.store)
            with self.store.transaction():  # the table and its first deals, or nothing
                self.store.add_table(table_id, config_dict(config), config.created)
                table.auto_deal()
            self._register(table)
            self.phone_tokens.update({(table_id, seat): token
                                      for seat, token in enumerate(tokens)})
        self.pushes.emit(table_id, "state")
        return table, pin, tokens

    def _check_kinds(self, readers: list[str], mats: list[str | None]) -> None:
        """Refuse a bag reader's id given as a mat's, or a mat's as a bag reader's: a reader
        id is of one kind (:data:`~companion.readers.ingest.MAT` or bag) for the link."""
        for reader, want in [*((r, BAG) for r in readers), *((m, MAT) for m in mats if m)]:
            known = self.ingest.readers.get(reader)
            if known is not None and known.kind != want:
                raise TableError("BAD_REQUEST", f"{reader} is a {known.kind} reader, not a "
                                 f"{want}", params={"reader": reader, "kind": known.kind})

    def _release_finished(self, readers: list[str]) -> None:
        """Close the finished tables that hold any of ``readers``: a new game takes them."""
        for reader in readers:
            table_id = self.seats.get(reader, (None,))[0]
            if table_id is not None and self.tables[table_id].state.is_over:
                self._close(self.tables[table_id])

    def _close(self, table: Table) -> None:
        table.close()
        for reader in table.config.bound():
            if self.seats.get(reader, (None,))[0] == table.id:
                del self.seats[reader]

    def close_table(self, table_id: str) -> None:
        """Close a table: no more input, and its readers are free for another table."""
        with self.lock:
            self._close(self.table(table_id))
        self.pushes.emit(table_id, "state")

    def archived(self) -> Archive:
        """The archive, in step with the tables (a game just ended is in it, one that Undo
        reopened is not); callers hold :attr:`lock`."""
        self.archive.sync(self.tables.values())
        return self.archive

    def game(self, game: Any) -> GameKind:
        """A game by id, or ``BAD_REQUEST`` naming the games there are."""
        if not isinstance(game, str) or game not in self.games:
            raise TableError("BAD_REQUEST", "game must be one of "
                             f"{', '.join(self.games)}", params={"games": list(self.games)})
        return self.games[game]

    def table(self, table_id: str) -> Table:
        """A table by id, or a 404 error."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("TABLE_NOT_FOUND", f"There is no table {table_id!r}.", 404)
        return table

    def submit(self, table_id: str, move: GameMove, source: str = "tablet") -> Table:
        """Apply a tablet move (logged and committed first); rule violations become errors."""
        with self.lock:
            table = self.table(table_id)
            try:
                table.submit(move, source)
            except table.game.violation as exc:
                raise violation_error(exc) from exc
        self.pushes.emit(table_id, "state")
        return table

    def submit_batch(self, table_id: str, moves: Sequence[GameMove],
                     source: str = "tablet", forced: bool = False,
                     go_on: bool = False) -> list[GameMove]:
        """Apply a list of tablet moves all or none (see :meth:`Table.submit_batch`; with
        ``forced``, the moves the rules then force join them; with ``go_on``, the advice
        plays on for their players); the moves applied."""
        with self.lock:
            table = self.table(table_id)
            try:
                applied = table.submit_batch(moves, source, forced, go_on)
            except BatchViolation as exc:
                raise exc.error() from exc
        self.pushes.emit(table_id, "state")
        return applied

    def rechoose(self, table_id: str, index: Any, phone: int | None = None) -> None:
        """Move a card a tap placed to another of its slots (see :meth:`Table.rechoose`).
        ``phone``: the seat of the phone that asks (None: the tablet), which may move only
        its own player's card (else ``403 WRONG_TOKEN``)."""
        with self.lock:
            table = self.table(table_id)
            choice = table.card_choice
            if phone is not None and choice and choice.get("player") != phone:
                names = table.config.players
                raise TableError("WRONG_TOKEN", f"This phone is {names[phone]}'s: the card "
                                 f"waiting for its slot is {names[choice['player']]}'s.", 403,
                                 params={"phone": phone, "player": choice["player"]})
            try:
                table.rechoose(index, "tablet" if phone is None else "phone")
            except table.game.violation as exc:
                raise violation_error(exc) from exc
        self.pushes.emit(table_id, "state")

    def undo(self, table_id: str) -> None:
        """Take back the last move of a table."""
        with self.lock:
            self.table(table_id).undo()
        self.pushes.emit(table_id, "state")

    def correct(self, table_id: str, body: dict[str, Any]) -> None:
        """Put a piece where the table says it really is (the game checks ``body``); an
        ``alert`` it names as the one it fixes is handled (see :meth:`Table.correct`)."""
        with self.lock:
            handled = self.table(table_id).correct(body)
        if handled is not None:
            self.pushes.emit(table_id, "handled", handled)
        self.pushes.emit(table_id, "state")

    def dismiss_alert(self, table_id: str, alert_id: Any) -> None:
        """Mark an open alert handled, for every device (see :meth:`Table.dismiss_alert`)."""
        with self.lock:
            self.table(table_id).dismiss_alert(alert_id)
        self.pushes.emit(table_id, "handled", alert_id)

    def accept_mat(self, table_id: str, seat: Any) -> tuple[int, ...]:
        """The table's PIN accepts what ``seat``'s mat shows where it disputes the game
        after a restart (:meth:`Table.accept_mat`): its change is read as moves, and its
        alerts are handled. Returns the ids of the alerts handled."""
        with self.lock:
            table = self.table(table_id)
            if type(seat) is not int or not 0 <= seat < len(table.config.players):
                raise TableError("BAD_SEAT", f"seat must be a seat number from 0 to "
                                 f"{len(table.config.players) - 1}")
            _, closed = table.accept_mat(seat)  # its handled alerts pushed by the table
        self.pushes.emit(table_id, "state")
        return closed

    def identify(self, table_id: str, on: Any) -> int:
        """Let the next tap on any reader of the table (within :data:`IDENTIFY_SECONDS`) only
        say which thing it was, for the correction dialog: it is logged, pushed as
        ``identify`` and never played. ``on`` false stops waiting. Returns the seconds the
        table waits (0 when stopped)."""
        if type(on) is not bool:
            raise TableError("BAD_REQUEST", "on must be true or false")
        with self.lock:
            self.table(table_id).open_for_input()
            if not on:
                self.identifying.pop(table_id, None)
                return 0
            self.identifying[table_id] = time.monotonic() + IDENTIFY_SECONDS
        return IDENTIFY_SECONDS

    def _identifies(self, table_id: str) -> bool:
        """Whether a tap at the table now only names a thing (and stop waiting: one tap)."""
        until = self.identifying.pop(table_id, None)
        return until is not None and time.monotonic() < until

    def start_audit(self, table_id: str, seats: list[Any], by: str) -> AuditRun:
        """Start auditing the bag of ``seats[0]``, then each other seat in turn (a
        whole-table check); see :meth:`Table.start_audit`."""
        with self.lock:
            run = self.table(table_id).start_audit(seats[0], seats[1:], by)
        self.pushes.emit(table_id, "state")
        return run

    def audit_step(self, table_id: str, step: Callable[[Table], T]) -> T:
        """Run one step of a table's audit (:meth:`Table.finish_audit`, ``accept_audit``,
        ``drop_audit``) under the lock, and push the table's new view."""
        with self.lock:
            result = step(self.table(table_id))
        self.pushes.emit(table_id, "state")
        return result

    def set_hints(self, table_id: str, hints: Any, play_on: Any = None) -> None:
        """Turn a table's seating hints on or off, and (unless None) whether its screens
        ask the advice to play on."""
        with self.lock:
            self.table(table_id).set_hints(hints, play_on)
        self.pushes.emit(table_id, "state")

    def deal(self, table_id: str, seed: Any) -> None:
        """Turn "deal for us" on with a seed, and deal what is pending now."""
        if type(seed) is not int:
            raise TableError("BAD_REQUEST", "seed must be an integer")
        with self.lock:
            table = self.table(table_id)
            table.enable_deal(seed)
        self.pushes.emit(table_id, "state")

    def reissue_token(self, table_id: str, seat: Any) -> str:
        """A new token for a seat's phone; the old one stops working at once (the phones
        that joined with it stop getting that seat's private pushes)."""
        with self.lock:
            token = self.table(table_id).reissue_token(seat)
            self.phone_tokens[(table_id, seat)] = token
        self.pushes.emit(table_id, "token", seat)
        return token

    def phone_token(self, table_id: str, seat: int) -> str:
        """The token of a seat's current phone link, to show that link again without ending
        it; ``LINK_NOT_KEPT`` (409) when this run of the hub did not make it (the hub has
        restarted since: its database holds only the token's hash)."""
        with self.lock:
            table = self.table(table_id)
            token = self.phone_tokens.get((table_id, seat))
            if token is None or table.config.player_of_token(token) != seat:
                raise TableError("LINK_NOT_KEPT", "The hub has restarted since this phone "
                                 "link was made, and it keeps no copy of a link on disk: make "
                                 "a new link (the old one then stops working).", 409)
            return token

    # -- readers ---------------------------------------------------------------------------

    def _committed(self) -> None:
        """A reader batch is committed: its pushes (and its taps' stamps) may go."""
        if self.timing.on:
            self.timing.committed()
        self.pushes.flush()

    def _on_event(self, event: ReaderEvent) -> None:
        """One accepted reader event (inside the store's transaction): a tap, or a mat's
        zone state."""
        if isinstance(event, ZonesEvent):
            self._on_zones(event)
        else:
            self._on_tag(event)

    def _on_zones(self, event: ZonesEvent) -> None:
        """A new state of one of a mat's zones: what its table's game makes of the change
        (:meth:`Table.handle_zones`), pushed as a tap's is when it changed the game, and the
        mat's new counts to its table's screens alone (``mat_zones``: a zone changes at
        every guest set down, and the whole reader list to every screen grew with the
        square of the tables), with the table's event count: a screen that drew every view
        pushed before it has the table's view as of that count (a zone state that plays
        nothing is logged, and pushes no view)."""
        seat = self.seats.get(event.reader)
        if seat is None:
            return
        table = self.tables[seat[0]]
        if table.closed:
            return
        tag = {"reader": event.reader, "boot": event.boot, "seq": event.seq,
               "zone": event.zone, "tags": list(event.tags)}
        if event.count > len(event.tags):
            tag["count"] = event.count
        state, choice = table.state, table.card_choice
        table.handle_zones(seat[1], tag)  # alerts raised and handled: the table's
        self.zone_seen[event.reader] = now = self.ingest.clock()
        if table.state is not state or table.card_choice != choice:
            self.pushes.emit(table.id, "state")  # a state that plays nothing: no new view
        info = self.ingest.readers[event.reader]
        self.pushes.emit(table.id, "mat_zones", {"reader": event.reader, "events": table.count,
                                                 **self._zones_entry(event.reader, info, seat,
                                                                     now)})

    def _on_tag(self, event: TagEvent) -> None:
        """One accepted tap (inside the store's transaction)."""
        locked = time.monotonic()
        if self.enrollment.tap(event):
            return
        seat = self.seats.get(event.reader)
        if seat is None:
            self.ingest.feedback(event.reader, "error", event.seq)
            return
        table = self.tables[seat[0]]
        tag = {"reader": event.reader, "boot": event.boot, "seq": event.seq, "uid": event.uid}
        if table.takes_audit_tap(seat[1]):  # never a draw: the audit only counts it
            table.audit_tap(tag, self.registry.piece_of(event.uid))
            self.ingest.feedback(event.reader, "ok", event.seq)
            self.pushes.emit(table.id, "state")
            return
        if self._identifies(table.id):
            self._identify_tap(table, seat[1], tag, event)
            return
        result = table.handle_tag(seat[1], self.registry.piece_of(event.uid), tag)
        if self.timing.on:
            self.timing.tap(table.id, table.count, self.ingest.received.get(
                (event.reader, event.boot, event.seq)), self.ingest.batch_started, locked)
        level = "error" if isinstance(result, Alert) else "ok"
        self.ingest.feedback(event.reader, level, event.seq)
        self.pushes.emit(table.id, "state")

    def _identify_tap(self, table: Table, seat: int, tag: dict[str, Any],
                      event: TagEvent) -> None:
        """A tap the correction dialog waited for: logged, ok feedback, an ``identify`` push
        to the table's screens. A piece of a public kind (Popcorn's pawns) is pushed with its
        number and value; a secret one only by its kind (an award's or a token's value is a
        secret, and every screen gets the push)."""
        piece = self.registry.piece_of(event.uid)
        table.identify(seat, piece, tag)
        self.ingest.feedback(event.reader, "ok", event.seq)
        self.pushes.emit(table.id, "identify", {"player": seat,
                                                "thing": self.registry.shown(piece)})

    def _on_status(self, info: ReaderInfo) -> None:
        """A reader came online, went offline, or its health changed: every screen gets
        the ``readers`` list, and the reader's table a ``reader_health`` push for each
        problem that is new (:meth:`_health_news`)."""
        seat = self.seats.get(info.reader)
        self.pushes.emit(seat[0] if seat else "", "readers", self.reader_status())
        self._health_news(info)

    def _health_news(self, info: ReaderInfo) -> None:
        """Tell the reader's table of the problems (a low battery, a weak signal, many
        failed reads) that were not there at the last look. A problem is told once, and
        again only after it cleared: the health levels' hysteresis keeps a value hovering
        at a threshold from clearing and raising it at every heartbeat."""
        now = info.health.problems()
        new = now - self.health_told.get(info.reader, frozenset())
        self.health_told[info.reader] = now
        seat = self.seats.get(info.reader)
        if not new or seat is None:
            return
        status = self._reader_entry(info.reader, info, self.ingest.clock())
        self.pushes.emit(seat[0], "reader_health",
                         {"reader": info.reader, "seat": seat[1],
                          "problems": [p for p in PROBLEMS if p in new], "status": status})

    def reader_status(self) -> list[dict[str, Any]]:
        """Every known reader: online, transport, the table and seat it is bound to, and
        its health from its last heartbeat with the levels the screens show
        (:meth:`Health.to_dict <companion.readers.health.Health.to_dict>`)."""
        now = self.ingest.clock()
        return [self._reader_entry(reader, info, now)
                for reader, info in sorted(self.ingest.readers.items())]

    def _reader_entry(self, reader: str, info: ReaderInfo, now: float) -> dict[str, Any]:
        seat = self.seats.get(reader)
        return {"reader": reader, "kind": info.kind, "online": info.online,
                "transport": info.transport,
                "table": seat[0] if seat else None, "seat": seat[1] if seat else None,
                **info.health.to_dict(now), **self._zones_entry(reader, info, seat, now)}

    def _zones_entry(self, reader: str, info: ReaderInfo, seat: tuple[str, int] | None,
                     now: float) -> dict[str, Any]:
        """A mat's zones as its table keeps them: how many tags lie on each (None: a bag
        reader, or a mat no table binds), and how long ago its last zone state came."""
        zones = None
        table = self.tables[seat[0]] if info.kind == MAT and seat is not None else None
        if table is not None and seat is not None and table.game.mats is not None:
            zones = [table.mat_counts.get((seat[1], zone), 0)
                     for zone in range(table.game.mats.zones)]
        seen = self.zone_seen.get(reader)
        return {"zones": zones, "zones_age": None if seen is None else round(now - seen, 1)}

    # -- enrollment ------------------------------------------------------------------------

    def enroll_mode(self, body: dict[str, Any]) -> None:
        """Start the enrollment a request asks for (:func:`.enroll_modes.mode_of`: a game's
        kind of pieces by value, in order or by picking, or an older ``color``, ``cards`` or
        ``tokens``); taps enroll tags until :meth:`stop_enrolling`."""
        self.enrollment.start(body)

    def stop_enrolling(self) -> None:
        """End any enrollment; taps are played again (see :meth:`Enrollment.stop`)."""
        self.enrollment.stop()

    def bind_piece(self, uid: Any, game: Any, kind: Any, value: Any) -> dict[str, Any]:
        """Bind a UID to the next free piece of a value and push the result (see
        :meth:`Enrollment.bind`)."""
        return self.enrollment.bind(uid, game, kind, value)

    def bind_card(self, uid: Any, kind: Any, card: Any) -> dict[str, Any]:
        """Bind a UID to a card, as an older request names it (see
        :meth:`Enrollment.bind_card`)."""
        return self.enrollment.bind_card(uid, kind, card)

    @property
    def last_enrolled(self) -> dict[str, Any] | None:
        """The last ``enroll`` push of the enrollment under way (:attr:`Enrollment.last`)."""
        return self.enrollment.last


def request_options(options: dict[str, Any] | None, body: dict[str, Any]) -> dict[str, Any]:
    """The game options of a create request: its ``options`` object, or (an older request,
    which put them beside the hub's own fields: ``options`` None) the whole ``body``, marked
    so that :func:`_own_options` keeps only the fields the game's options name."""
    return {LEGACY: True, **body} if options is None else options


LEGACY = "\0legacy"
"""The mark of a create request that had no ``options`` object (see :func:`request_options`)."""


def _own_options(kind: GameKind[Any, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as the game's own: an older request's body less the hub's fields."""
    if LEGACY not in options:
        return options
    names = kind.options.schema.get("properties", {})
    return {k: v for k, v in options.items() if k in names}


def piece_kinds(games: dict[str, GameKind[Any, Any]]) -> dict[str, tuple[PieceKind, ...]]:
    """The kinds of pieces each hosted game declares, by game id (a game without a pieces
    part has none): the tag registry keeps each game's apart."""
    return {gid: game.pieces.kinds() for gid, game in games.items() if game.pieces is not None}


def _names(players: Any, game: GameKind) -> list[str]:
    low, high = game.min_players, game.max_players
    if (not isinstance(players, list) or not low <= len(players) <= high
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise TableError("BAD_REQUEST", f"players must be a list of {low} to {high} names",
                         params={"min": low, "max": high})
    names = [p.strip()[:24] for p in players]
    if len(set(names)) != len(names):
        raise TableError("BAD_REQUEST", "player names must differ")
    return names


def _readers(readers: Any) -> list[str]:
    if not isinstance(readers, list) or not all(isinstance(r, str) and READER_ID.match(r)
                                                for r in readers):
        raise TableError("BAD_REQUEST", "readers must be a list of reader ids")
    if len(set(readers)) != len(readers):
        raise TableError("BAD_REQUEST", "each bag needs its own reader")
    return list(readers)


def _mats(mats: Any, game: GameKind, readers: list[str]) -> list[str | None]:
    """A create request's ``mats``: per seat, a mat's reader id or None, for a game that
    reads mats; none given is no mat at all."""
    if mats is None:
        return []
    if game.mats is None:
        raise TableError("BAD_REQUEST", f"{game.title} reads no mats", params={"game": game.id})
    if not isinstance(mats, list) or len(mats) != len(readers) or not all(
            m is None or (isinstance(m, str) and READER_ID.match(m)) for m in mats):
        raise TableError("BAD_REQUEST", "mats must give one mat id (or null) per player, in "
                         "seat order")
    named = [m for m in mats if m is not None]
    if len(set(named)) != len(named) or set(named) & set(readers):
        raise TableError("BAD_REQUEST", "each mat needs its own id, not a bag reader's")
    return list(mats)
