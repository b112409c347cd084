"""One table at the hub: its players and readers, its event log, and its live game state.

Every input is appended to the table's log and committed before it changes the live state:
a move is first tried on a copy of the state, then logged, then the copy becomes the state.
A state object is never changed once it is the live state, so readers (the dashboards'
views) may use ``table.state`` without the lock.
On start the hub rebuilds each table by replaying its log. Undo and corrections are events
too, so nothing is ever edited. Callers hold the store's lock around every method here.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.kit.alerts import Alert
from companion.kit.errors import TableError
from companion.kit.game import (
    GameKind,
    GameMove,
    GameState,
    Piece,
    PieceKind,
    Relabel,
    TapChoice,
    TapMoves,
    TapOption,
    TapResult,
    play,
    renamed,
    swap_pairs,
)
from companion.kit.parts import Corrections, Pieces
from companion.table.audit import AuditRun
from companion.table.mat_zones import MatZones
from companion.table.playing_on import PlayingOn
from companion.table.store import HubStore
from companion.table.table_audits import TableAudits
from companion.table.violations import BatchViolation

MAX_BATCH = 64
"""The most moves one batch may hold (a whole turn of a 4-player game is about 30)."""


class _NoPieces(Pieces):
    """The pieces of a game that reads no tag: every tap is an alert."""

    def kinds(self) -> tuple[PieceKind, ...]:
        """Nothing to tag."""
        return ()

    def read(self, state: Any, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> TapResult:
        """``NO_PIECES``: this game reads no tag."""
        return Alert("NO_PIECES", f"A tag ({uid}) was tapped on {names[seat]}'s reader, but "
                     "this game reads no tag.", "Put it away.", seat,
                     params={"player": seat, "name": names[seat], "uid": uid})


NO_PIECES = _NoPieces()
"""What a table reads a tap as when its game has no pieces part."""


def hash_pin(pin: str, salt: str) -> str:
    """A salted hash of a table PIN (the PIN itself is shown once, at creation)."""
    return hashlib.sha256(f"{salt}:{pin}".encode()).hexdigest()


def hash_token(token: str, salt: str) -> str:
    """A salted hash of a player token: the hub keeps only these, so a copy of its database
    opens no phone screen. A token is 128 random bits, so one round of SHA-256 is enough
    (there is nothing to guess by brute force, unlike a six-digit PIN)."""
    return hashlib.sha256(f"{salt}:token:{token}".encode()).hexdigest()


def new_token() -> str:
    """A fresh player token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass
class TableConfig:
    """What a table is made of; stored once when the table is created."""

    id: str
    name: str
    players: list[str]
    first_player: int
    readers: list[str]
    token_hashes: list[str]
    """Per seat, :func:`hash_token` of the player's token (``token`` events replace one)."""
    pin_salt: str
    pin_hash: str
    deal_seed: int | None = None
    created: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    game: str = "popcorn"
    """The game played (:mod:`companion.games`); a table stored before B Movies is Popcorn."""
    options: dict[str, Any] = field(default_factory=dict)
    """The game's table options, as its :meth:`Options.check` checked them (B Movies: the
    variant and how the studios are dealt)."""
    mats: list[str | None] = field(default_factory=list)
    """Per seat, the id of the mat under that player's area, or None (a table made before
    mats has none): the table's game reads its zones (:class:`~companion.kit.parts.Mats`)."""

    def bound(self) -> list[str]:
        """Every reader id the table binds: its bag readers, then its mats."""
        return [*self.readers, *(m for m in self.mats if m)]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """Rebuild from the stored JSON, hashing the plain ``tokens`` of an older hub's
        configuration (see :func:`holds_plain_tokens`; the hub then stores the new form)."""
        data = dict(data)
        if holds_plain_tokens(data):
            data["token_hashes"] = [hash_token(t, data["pin_salt"]) for t in data.pop("tokens")]
        return cls(**data)

    def check_pin(self, pin: Any) -> bool:
        """Whether ``pin`` is this table's PIN."""
        return isinstance(pin, str) and secrets.compare_digest(
            hash_pin(pin, self.pin_salt), self.pin_hash)

    def player_of_token(self, token: Any) -> int | None:
        """The seat a player token belongs to, or None."""
        if not isinstance(token, str) or not token:
            return None
        hashed = hash_token(token, self.pin_salt)
        for seat, known in enumerate(self.token_hashes):
            if secrets.compare_digest(known, hashed):
                return seat
        return None


def holds_plain_tokens(data: dict[str, Any]) -> bool:
    """Whether a stored configuration is an older hub's, with the player tokens in clear."""
    return "tokens" in data and "token_hashes" not in data


class Table(MatZones, TableAudits, PlayingOn):
    """A live table: config, log position, game state, recent alerts."""

    config: TableConfig

    def __init__(self, config: TableConfig, game: GameKind[Any, Any], store: HubStore) -> None:
        """``game``: the table's game (:mod:`companion.games`)."""
        self.config, self.game, self.store = config, game, store
        self.state: GameState = self._fresh()
        """The game's live state (the game's own state object)."""
        self.entries: list[dict[str, Any]] = []
        """Applied moves and corrections, in order (undo pops the last)."""
        self.count = 0
        """Events in the log."""
        self.alerts: deque[dict[str, Any]] = deque(maxlen=20)
        """The open alerts, oldest first (the last 20 raised): each an alert's JSON with its
        ``id``, the number of the ``tag`` event that raised it. A device that dismisses
        one, or a correction that handles it, logs a ``handled`` event, which takes it out
        here for every device, across reloads and restarts."""
        self.closed = False
        """A closed table keeps its log, record and scores, but takes no input."""
        self.hints: bool = bool(config.extra.get("hints", True))
        """Whether the table screen pre-fills the advisor's placement (else the first free
        seats); set at creation, changed with the PIN (a ``hints`` event)."""
        self.play_on: bool = bool(config.extra.get("play_on", False))
        """Whether the screens ask the advice to play on after a step the table resolves
        (they send "Play as suggested" with ``go_on``: :mod:`.playing_on`); set and changed
        as :attr:`hints` is."""
        self.last_kind: str | None = None
        """The kind of the last event replayed from the log (see :meth:`finish_deals`)."""
        self._options: list[list[Step]] = []
        """The options of :attr:`card_choice`: each one's moves, with the marks its tap
        leaves in the log."""
        self.card_choice: dict[str, Any] | None = None
        """A tap that asks which move it is (a :class:`TapChoice` as JSON: Popcorn's card
        tapped to buy it that several slots could take, its guests set down together on a
        mat in an order the mat cannot tell): shown in the public view until any
        move, undo or correction clears it. It is a prompt, not game state, so a restarted
        hub starts without one."""
        self.audit: AuditRun | None = None
        """The bag audit under way, if any (:mod:`.audit`): rebuilt from the log like the
        state, so a restart or a reload finds it where it was."""
        self.alert_rounds: set[int] = set()
        """The rounds (:meth:`Replays.round_of`) in which a tap raised an alert: the
        end-of-round checklist offers an audit after such a round."""
        self._init_mats()
        self._init_playing_on()
        self.on_alert: Callable[[dict[str, Any]], None] = lambda alert: None
        """Called with each alert the table raises, as the table keeps it (with its id; a
        checkpoint's once it is committed): the hub pushes it to the table's screens."""
        self.on_handled: Callable[[int], None] = lambda alert_id: None
        """Called with the id of each alert the table handled itself (a mat set a guest
        right, a dispute agreed or was accepted), once its input is committed."""
        self._nested = 0
        """How many :meth:`_atomic` blocks are open: only the outermost one's change is a
        checkpoint."""
        self._pushing: list[dict[str, Any]] = []
        """Alerts raised in the input under way, pushed once it commits."""
        self._public: tuple[int, Any, dict[str, Any]] | None = None
        """The game's public view last built: the event count and the state it was built
        from, and the view (:meth:`view`)."""

    @property
    def id(self) -> str:
        """The table's id."""
        return self.config.id

    def _fresh(self) -> Any:
        return self.game.new_state(self.config.players, self.config.first_player,
                                   self.config.options)

    # -- the log ---------------------------------------------------------------------------

    @contextmanager
    def _atomic(self) -> Iterator[None]:
        """One input and the deals it triggers: logged in one transaction, and on any error
        the live state, the count and the entries go back to what they were."""
        state, count, entries = self.state, self.count, len(self.entries)
        pushing, handled = len(self._pushing), self.handled_now
        self._nested += 1
        try:
            with self.store.transaction():
                yield
                if self._nested == 1:
                    self._play_on()
                    self._checkpoint(state)
        except BaseException:
            self.state, self.count = state, count
            del self.entries[entries:]
            del self._pushing[pushing:]
            self.handled_now = handled
            raise
        finally:
            self._nested -= 1
        if not self._nested:  # committed: the screens may hear of it now
            raised, self._pushing = self._pushing, []
            handled, self.handled_now = self.handled_now, ()
            for alert in raised:
                self.on_alert(alert)
            for alert_id in handled:
                self.on_handled(alert_id)

    def _push_alert(self, alert: dict[str, Any]) -> None:
        """Hand an alert the table keeps to :attr:`on_alert`: at once outside an input's
        transaction (a tap's, inside the reader batch's, which holds the push until its
        commit), else once the outermost input commits (a route's would otherwise wait
        for the next reader batch)."""
        if self._nested:
            self._pushing.append(alert)
        else:
            self.on_alert(alert)

    def _log(self, kind: str, body: dict[str, Any]) -> None:
        self.store.append(self.id, self.count + 1, kind, body)
        self.count += 1

    def _log_batch(self, moves: Sequence[GameMove], source: str) -> None:
        """Log ``moves`` as one batch (each a ``move`` event with ``"batch"``, the number of
        the first) and keep them as applied entries, which one Undo takes back together."""
        batch = self.count + 1
        for move in moves:
            self._log("move", {"move": move.to_dict(), "source": source, "batch": batch})
            self.entries.append({"move": move.to_dict(), "batch": batch})

    def replay(self, events: list[tuple[int, str, dict[str, Any]]]) -> None:
        """Rebuild the live state from the stored log (at hub start)."""
        self._from_log = True
        for n, kind, body in events:
            self.count = n
            if kind != "tag" or body.get("move") or body.get("fill") is not None:
                self.last_kind = kind  # a tap that changed nothing is no input to deal after
            if kind in ("move", "tag") and body.get("move"):
                # a log written before moves named their guest: act for the acting guest
                move = self.game.records.logged(self.state, body["move"])
                marks = _tap_marks(kind, body)
                play(self.game, self.state, move, marks)
                self.entries.append({"move": move.to_dict(), "source": body.get("source"),
                                     "batch": body.get("batch"), **marks})
            elif kind == "tag" and body.get("fill") is not None:
                entry = _fill_entry(body)
                play(self.game, self.state, None, entry)
                self.entries.append(entry)
            elif kind == "correct":
                correction, batch = _batch_part(body)
                self._corrections().correct(self.state, correction)
                self.entries.append({"correct": correction, "batch": batch})
            elif kind == "audit":
                self._replay_audit(n, body)
            elif kind == "tag" and "audit" in body and self.audit is not None:
                self.audit.add_tap(body)
            elif kind == "deal":
                self.config.deal_seed = body["seed"]
            elif kind == "close":
                self.closed = True
            elif kind == "hints":
                self.hints = bool(body.get("hints"))
                self.play_on = bool(body.get("play_on", self.play_on))
            elif kind == "token":
                self.config.token_hashes[body["seat"]] = body["hash"]
            elif kind == "undo" and self.entries:
                self._pop_input()
                self.state = self._rebuilt()
            elif kind == "handled":
                self._close_alert(body.get("alert"))
                self._undispute(body.get("alert"), body.get("how", ""))
            if kind == "tag" and body.get("alert"):
                self.alerts.append({**body["alert"], "id": n})
                self._note_alert_round()
            if kind == "tag" and "zone" in body.get("tag", {}):
                self._replay_zone(n, body)

    def _rebuilt(self) -> Any:
        state = self._fresh()
        for entry in self.entries:
            if "move" in entry:
                play(self.game, state, self.game.move_from_dict(entry["move"]), entry)
            elif "correct" in entry:
                self._corrections().correct(state, entry["correct"])
            elif "fill" in entry:
                play(self.game, state, None, entry)
        return state

    def _pieces(self) -> Pieces:
        """The game's pieces part; a game without one reads every tap as ``UNKNOWN_TAG``."""
        return self.game.pieces if self.game.pieces is not None else NO_PIECES

    def _corrections(self) -> Corrections:
        """The game's corrections part, or ``NOT_FOR_THIS_GAME`` (its table corrects with
        Undo)."""
        if self.game.corrections is None:
            raise TableError("NOT_FOR_THIS_GAME", f"{self.game.title} has no pieces to "
                             "correct: use Undo.", 409, params={"game": self.game.id})
        return self.game.corrections

    # -- inputs ----------------------------------------------------------------------------

    def open_for_input(self) -> None:
        """Refuse any input once the table is closed (``TABLE_CLOSED``, 409)."""
        if self.closed:
            raise TableError("TABLE_CLOSED", f"Table {self.config.name!r} is closed: its game "
                             "can be read and exported, but not changed.", 409)

    def close(self) -> None:
        """End the table for good (a ``close`` event); its readers can serve a new table."""
        self.open_for_input()
        self._log("close", {})
        self.closed = True

    def submit(self, move: GameMove, source: str = "tablet") -> None:
        """Check a move, log it, apply it; then deal what "deal for us" deals."""
        self.open_for_input()
        before, trial = self.state, self.state.clone()
        trial.apply(move)  # raises Violation, and nothing was logged or changed
        with self._atomic():
            self._log("move", {"move": move.to_dict(), "source": source})
            self.state = trial
            self.entries.append({"move": move.to_dict()})
            self.card_choice = None
            self.auto_deal()
            self.table_moved([] if move.player is None else [move.player], before)

    def submit_batch(self, moves: Sequence[GameMove], source: str = "tablet",
                     forced: bool = False, go_on: bool = False) -> list[GameMove]:
        """Check a list of moves as a whole, then log and apply all of them, or none; the
        moves applied.

        The moves are tried in order on a copy of the state; the first one the rules refuse
        raises a :class:`BatchViolation` naming its index, and nothing was logged or changed.
        With ``forced``, the moves the rules then leave the batch's players no choice about
        (:meth:`GameKind.forced`) join the batch. With ``go_on``, the game's advice then
        plays on for the batch's players (:mod:`.playing_on`); without, it stops for them.
        Each move is then logged as its own ``move``
        event carrying ``"batch": n`` (the event number of the batch's first move), in one
        transaction, so :meth:`undo` can take the whole batch back at once. "Deal for us"
        deals after the whole batch.
        """
        self.open_for_input()
        before, trial = self.state, self.state.clone()
        for index, move in enumerate(moves):
            try:
                trial.apply(move)
            except self.game.violation as exc:
                raise BatchViolation(exc, index, len(moves)) from exc
        moves = list(moves)
        for player in dict.fromkeys(m.player for m in moves) if forced else ():
            hints = self.game.hints
            for move in hints.forced(trial, player) if hints and player is not None else []:
                trial.apply(move)
                moves.append(move)
        with self._atomic():
            self._log_batch(moves, source)
            self.state = trial
            self.card_choice = None
            self.auto_deal()
            players = {m.player for m in moves if m.player is not None}
            if go_on:
                self.go_on(players)
            else:
                self.table_moved(players, before)
        return moves

    def handle_tag(self, player: int, piece: Piece | None,
                   tag: dict[str, Any]) -> Any:
        """A tap on a player's reader: log it with its meaning, apply it if it is a move.

        ``piece`` is what the registry knows the UID to be (one of a game's pieces, value
        included), None for an unknown tag; the table's game says what the tap means
        (:meth:`Pieces.read`). A tap that several moves could follow becomes
        :attr:`card_choice` and changes nothing else.
        """
        self.open_for_input()
        result = self._pieces().read(self.state, player, piece, tag.get("uid", ""),
                                     self.config.players)
        try:
            return self._tapped(player, tag, result)
        except self.game.violation as exc:  # the game read a move its rules refuse
            return self._refused(tag, exc, player)

    def _refused(self, tag: dict[str, Any], exc: Any, player: int) -> Alert:
        """A tap (or a zone's change) read as a move the rules refuse: its alert."""
        return self._alert(tag, refused_tap(exc, player, self.config.players))

    def _alert(self, tag: dict[str, Any], result: Alert) -> Alert:
        """A tap that is no move: logged with its alert, which stays open, and pushed to
        the screens once committed (:meth:`_push_alert`)."""
        alert = result.to_dict()
        self.stop_playing_on()  # the table looks before the advice goes on
        self._log("tag", {"tag": tag, "alert": alert})
        self.alerts.append({**alert, "id": self.count})
        self._note_alert_round()
        self._push_alert(dict(self.alerts[-1]))
        return result

    def _tapped(self, player: int, tag: dict[str, Any], result: Any) -> Any:
        """Play what the game read a tap as (see :meth:`handle_tag`)."""
        if isinstance(result, TapChoice):
            return self._choose(tag, result)
        if isinstance(result, TapMoves):
            return self._tap_moves(tag, result)
        if isinstance(result, Alert):
            return self._alert(tag, result)
        marks: dict[str, Any] = {"tap": True, "seen": None}
        if isinstance(result, Relabel):
            marks.update(relabel_marks(result))
            if result.move is None:
                self._fill(tag, result.seen, marks)
                return result
            result = result.move
        trial = self.state.clone()
        play(self.game, trial, result, marks)
        with self._atomic():
            self._log("tag", {"tag": tag, "move": result.to_dict(), **marks})
            self.state = trial
            self.entries.append({"move": result.to_dict(), **marks})
            self.card_choice = None
            self.auto_deal()
        return result

    def _tap_moves(self, tag: dict[str, Any], result: TapMoves) -> TapMoves:
        """A tap that stands for several moves: all applied or none, as one batch. The tap's
        ``tag`` event holds the first move; each other one is a ``move`` event of the batch
        (``"tap": true``); each relabel goes with its move's event, so that a replay of the
        log swaps the look-alikes at the same point. Undo takes them all back."""
        self._play_option(tag, _option(result))
        return result

    def _choose(self, tag: dict[str, Any], choice: TapChoice) -> TapChoice:
        """A tap several options could follow: play the one it suggests (as that tap's
        moves), or, with none, only ask (a ``tag`` event with the ``choice``); either way the
        choice stays in the view, with ``placed``, until another input clears it."""
        placed = choice.suggested(self.hints)
        shown = {**choice.to_dict(), "placed": placed}
        options = [_option(m) for m in choice.moves]
        if placed is None:
            self._log("tag", {"tag": tag, "choice": shown})
        else:
            self._play_option(tag, options[placed], clear=False)
        self.card_choice, self._options = shown, options
        return choice

    def _play_option(self, tag: dict[str, Any], steps: list[Step], clear: bool = True) -> None:
        """Play a tap's moves (``steps``, each with its marks) as one input: the tap's
        ``tag`` event holds the first, each other one is a ``move`` event, and several are a
        batch (``"batch"``: the number of the first event) that one Undo takes back. All or
        none: a move the rules refuse raises before anything is logged. ``clear``: the input
        ends any choice shown (not when it is the choice's own)."""
        trial = self.state.clone()
        for move, marks in steps:
            play(self.game, trial, move, marks)
        with self._atomic():
            batch = {"batch": self.count + 1} if len(steps) > 1 else {}
            for n, (move, marks) in enumerate(steps):
                body = {"move": move.to_dict(), **marks, **batch}
                self._log("tag" if n == 0 else "move",
                          {"tag": tag, **body} if n == 0 else {"source": "tap", **body})
                self.entries.append(body)
            self.state = trial
            if clear:
                self.card_choice = None
            self.auto_deal()

    def rechoose(self, index: Any, source: str = "tablet") -> None:
        """Replace the option a tap's choice played (``card_choice["placed"]``) by its option
        ``index``: one input, logged as an ``undo`` and the option's moves (a batch when
        they are several) in one transaction, so the record holds only the final ones and
        one Undo takes them back. ``NO_CHOICE`` (409) when no played choice waits; a move
        the rules refuse changes nothing."""
        self.open_for_input()
        choice = self.card_choice
        if not choice or choice.get("placed") is None:
            raise TableError("NO_CHOICE", "No card waits in a slot to be moved: tap another "
                             "slot right after the card is placed.", 409)
        if type(index) is not int or not 0 <= index < len(choice["moves"]):
            raise TableError("BAD_REQUEST", f"index must be one of the choice's moves, 0 to "
                             f"{len(choice['moves']) - 1}")
        if index == choice["placed"]:
            return
        steps = self._options[index]
        entries = list(self.entries)
        try:
            self._pop_input()
            trial = self._rebuilt()
            for move, marks in steps:  # raises the game's violation: nothing logged
                play(self.game, trial, move, marks)
            with self._atomic():
                self._log("undo", {})
                batch = {"batch": self.count + 1} if len(steps) > 1 else {}
                for move, marks in steps:
                    body = {"move": move.to_dict(), **marks, **batch}
                    self._log("move", {"source": source, **body})
                    self.entries.append(body)
                self.state = trial
                self.auto_deal()
        except BaseException:
            self.entries = entries
            raise
        self.card_choice = {**choice, "placed": index}

    def _fill(self, tag: dict[str, Any], thing: int, marks: dict[str, Any]) -> None:
        """A tap that only tells where a thing is (a bag being filled at setup): logged as a
        ``tag`` event with ``fill``, an input that Undo takes back like a move."""
        entry = {"fill": thing, **marks}
        trial = self.state.clone()
        play(self.game, trial, None, entry)
        with self._atomic():
            self._log("tag", {"tag": tag, **entry})
            self.state = trial
            self.entries.append(entry)
            self.card_choice = None

    def undo(self) -> None:
        """Take back the last input, with the cards "deal for us" dealt after it (``undo``)."""
        self.open_for_input()
        if all(e.get("source") == "deal" for e in self.entries):  # the setup's own deals stay
            raise TableError("NOTHING_TO_UNDO", "No move has been made at this table yet.", 409)
        self._log("undo", {})
        self._pop_input()
        self.state = self._rebuilt()
        self.card_choice = None
        self.stop_playing_on()

    def _pop_input(self) -> None:
        while self.entries and self.entries[-1].get("source") == "deal":
            self.entries.pop()
        if self.entries:
            batch = self.entries.pop().get("batch")
            while batch is not None and self.entries and self.entries[-1].get("batch") == batch:
                self.entries.pop()

    def correct(self, body: dict[str, Any]) -> int | None:
        """Table authority: a piece is really somewhere else (a ``correct`` event, checked by
        the game: :meth:`Corrections.correct`; Popcorn's "pawn 17 is really in Ana's exit
        zone"). A game without pieces to correct answers ``NOT_FOR_THIS_GAME``.

        ``body["alert"]``, if given, is the id of the alert whose fix this correction is: if
        that alert is still open, it is handled in the same transaction (a ``handled``
        event). Returns the id of the alert handled, or None.
        """
        self.open_for_input()
        self.stop_playing_on()
        body = dict(body)
        alert = body.pop("alert", None)
        if alert is not None and type(alert) is not int:
            raise TableError("BAD_REQUEST", "alert must be the id of one of the table's alerts")
        trial = self.state.clone()
        corrections = self._corrections()
        body = corrections.correction(trial, body)
        logged = corrections.correct(trial, body) or body  # validates
        handled = alert if self.open_alert(alert) else None
        with self._atomic():
            self._log("correct", logged)
            if handled is not None:
                self._log("handled", {"alert": handled, "how": "correct"})
            self.state = trial
            self.entries.append({"correct": logged})
        self.card_choice = None
        self._close_alert(handled)
        return handled

    def open_alert(self, alert_id: Any) -> bool:
        """Whether ``alert_id`` is the id of one of the table's open alerts."""
        return any(a["id"] == alert_id for a in self.alerts)

    def dismiss_alert(self, alert_id: Any) -> None:
        """A device dismissed an alert: it is handled (a ``handled`` event), and no device
        shows it again. ``ALERT_NOT_FOUND`` (404) if it is not open: never raised, already
        handled, or older than the last 20."""
        self.open_for_input()
        if not self.open_alert(alert_id):
            raise TableError("ALERT_NOT_FOUND", f"The table has no open alert {alert_id}: it "
                             "was handled already, or never raised.", 404,
                             params={"alert": alert_id})
        self._log("handled", {"alert": alert_id, "how": "dismiss"})
        self._close_alert(alert_id)
        self._undispute(alert_id, "dismiss")

    def _close_alert(self, alert_id: Any) -> None:
        for alert in list(self.alerts):
            if alert["id"] == alert_id:
                self.alerts.remove(alert)

    def identify(self, player: int, piece: Piece | None, tag: dict[str, Any]) -> None:
        """A tap that only says which piece it was (the correction dialog asked for one):
        logged as a ``tag`` event with ``identify`` (the piece, or None for an unknown tag),
        never played."""
        self.open_for_input()
        seen = None if piece is None else piece.to_dict()
        self._log("tag", {"tag": tag, "identify": seen, "player": player})

    def _note_alert_round(self) -> None:
        round_ = self.game.replays.round_of(self.state)
        if round_ is not None:
            self.alert_rounds.add(round_)

    def enable_deal(self, seed: int) -> None:
        """Turn "deal for us" on (a ``deal`` event: the stored config never changes);
        ``NOT_FOR_THIS_GAME`` for a game whose table cannot choose it."""
        self.open_for_input()
        if self.game.dealing is None or not self.game.dealing.optional:
            raise TableError("NOT_FOR_THIS_GAME", f"{self.game.title} has no \"deal for us\" "
                             "to turn on.", 409, params={"game": self.game.id})
        old = self.config.deal_seed
        try:
            with self._atomic():
                self._log("deal", {"seed": seed})
                self.config.deal_seed = seed
                self.auto_deal()
        except BaseException:
            self.config.deal_seed = old
            raise

    def set_hints(self, hints: Any, play_on: Any = None) -> None:
        """Turn the seating hints on or off, and unless ``play_on`` is None whether the
        screens ask the advice to play on (a ``hints`` event; undo never takes it back);
        ``NOT_FOR_THIS_GAME`` for a game without hints."""
        self.open_for_input()
        if self.game.hints is None:
            raise TableError("NOT_FOR_THIS_GAME", f"{self.game.title} has no hints to turn "
                             "on or off.", 409, params={"game": self.game.id})
        if type(hints) is not bool or type(play_on) not in (bool, type(None)):
            raise TableError("BAD_REQUEST", "hints and play_on must be true or false")
        self.play_on = self.play_on if play_on is None else play_on
        self._log("hints", {"hints": hints, "play_on": self.play_on})
        self.hints = hints
        if not (hints and self.play_on):
            self.stop_playing_on()

    def reissue_token(self, seat: Any) -> str:
        """A new token for a seat's phone (a ``token`` event holding only its hash): the old
        link stops working. Returns the token, which the hub never stores."""
        if type(seat) is not int or not 0 <= seat < len(self.config.players):
            raise TableError("BAD_SEAT", f"seat must be a seat number from 0 to "
                             f"{len(self.config.players) - 1}")
        self.open_for_input()
        token = new_token()
        hashed = hash_token(token, self.config.pin_salt)
        self._log("token", {"seat": seat, "hash": hashed})
        self.config.token_hashes[seat] = hashed
        return token

    def finish_deals(self) -> None:
        """Deal, in one transaction, whatever "deal for us" still owes the table.

        The hub calls this for every open table when it starts: a table whose dealing was
        cut short (by a crash of a hub older than the one-transaction rule, say) would
        otherwise wait for a reveal that nobody makes, since dealing is the hub's job. Only a
        log that ends with an input the hub deals after (a move, a tap, a ``deal``) is dealt
        on: after an ``undo`` or a correction the running hub did not deal either, and the
        restarted one must show the same table.
        """
        if not self.closed and self.last_kind in ("move", "tag", "deal"):
            with self._atomic():
                self.auto_deal()

    def auto_deal(self) -> None:
        """With "deal for us" on, draw each pending reveal or award with the seeded generator.

        Callers log the input that caused the deals in the same transaction (see
        :meth:`_atomic`), so the log never holds a move without the deals it triggered.
        """
        dealing = self.game.dealing
        if self.config.deal_seed is None or dealing is None:
            return
        while not self.state.is_over:
            outcomes = dealing.outcomes(self.state)
            if not outcomes:
                return
            rng = random.Random(f"{self.config.deal_seed}:{self.count}")
            move = rng.choice(outcomes)
            trial = self.state.clone()
            trial.apply(move)
            self._log("move", {"move": move.to_dict(), "source": "deal"})
            self.state = trial
            self.entries.append({"move": move.to_dict(), "source": "deal"})

    # -- outputs ---------------------------------------------------------------------------

    def recorded_moves(self) -> list[Any]:
        """The applied moves as a game record holds them: with no relabels.

        A record has no event for two look-alike pawns trading names, so each pawn keeps
        the name the record's own replay gives its place: after a relabel of ``a`` and
        ``b``, a later move of ``a`` is written as a move of whichever pawn the record has
        where ``b`` was. The record is the same game, pawn for pawn of each color.
        """
        return self._recorded(self.entries)

    def _recorded(self, entries: list[dict[str, Any]]) -> list[Any]:
        """The moves of ``entries`` as a record holds them: each correction as the game's
        record move (or nothing, for one that only relabels), every pawn renamed through
        the relabels so far (see :meth:`recorded_moves`)."""
        name: dict[int, int] = {}
        moves = []
        for entry in entries:
            correction = entry.get("correct")
            for a, b in swap_pairs(entry.get("relabel") or (correction or {}).get("relabel")):
                name[a], name[b] = name.get(b, b), name.get(a, a)
            if "move" in entry:
                move = self.game.move_from_dict(entry["move"])
            elif correction is not None:
                move = self._corrections().record_move(correction)
            else:
                continue
            if move is not None:
                moves.append(renamed(self.game, move, name))
        return moves

    def record_text(self) -> str:
        """The game so far as its game's record (JSON Lines), for ``replay``."""
        return self.record_later()()

    def record_later(self) -> Callable[[], str]:
        """What :meth:`record_text` gives, in two steps: this call checks that the game can
        be a record and copies the list of entries (under the hub's lock: a cheap copy of
        references, since an entry is never changed once logged); the function it returns
        builds the text from that copy, which is the slow part, outside the lock."""
        self._recordable()
        entries, config = list(self.entries), self.config
        return lambda: self.game.records.text(config.players, config.first_player,
                                              config.options, self._recorded(entries))

    def _recordable(self) -> None:
        for entry in self.entries:
            if "correct" in entry:
                self._corrections().record_move(entry["correct"])  # HAS_CORRECTIONS, for some
        if self.game.closes_secretly and not self.state.is_over:
            raise TableError("SECRET_UNTIL_END", f"A {self.game.title} record holds every "
                             "secret vote and token: it can be read once the game is over.",
                             409, params={"game": self.game.id})

    def check_open_state(self) -> None:
        """Refuse the whole state (``/state``, with the PIN) of a game whose state holds
        secrets until it ends (B Movies' votes, tokens and studios)."""
        if self.game.closes_secretly and not self.state.is_over:
            raise TableError("SECRET_UNTIL_END", f"The {self.game.title} state holds every "
                             "player's secrets: it can be read once the game is over.",
                             409, params={"game": self.game.id})

    def view(self) -> dict[str, Any]:
        """The public view of the live state, with the pending ``card_choice`` (or None), the
        ``audit`` under way (or None), the ``alert_rounds``, whether the screens ask the
        advice to ``play_on`` and the seats whose advice is ``playing_on`` now."""
        state, choice = self.state, self.card_choice  # read once: no lock needed
        return {**self._public_view(state), "card_choice": choice,
                "audit": self.audit_view(), "alert_rounds": sorted(self.alert_rounds),
                "play_on": self.play_on, "playing_on": sorted(self.playing_on)}

    def _public_view(self, state: Any) -> dict[str, Any]:
        """The game's public view of ``state``, built once per state: a move's answer and
        its push (and a screen's reload) share it. Every change of the live state logs an
        event and puts a new state in place or moves one in place with a new count, so the
        count and the state object together name what the view shows; the view is never
        changed after it is built."""
        count, cached = self.count, self._public
        if cached is not None and cached[0] == count and cached[1] is state:
            return cached[2]
        view = self.game.public_view(state, self.config.players)
        self._public = (count, state, view)
        return view

    def private(self, seat: int) -> dict[str, Any]:
        """One seat's private view of the live state (its phone's screen), with its own
        audit's report while that audit runs."""
        view = self.game.private_view(self.state, seat, self.config.players)
        if self.audit is not None and self.audit.player == seat:
            view = {**view, "audit": self.audit_view(private=True)}
        return view

    def scores(self) -> dict[str, Any]:
        """The final scores, or ``GAME_NOT_OVER`` (409) while the game runs."""
        scores = self.game.scores(self.state, self.config.players)
        if scores is None:
            raise TableError("GAME_NOT_OVER", "The game has not ended yet.", 409)
        return scores

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no PIN, no tokens)."""
        return {"id": self.id, "name": self.config.name, "game": self.game.id,
                "options": dict(self.config.options), "players": self.config.players,
                "readers": self.config.readers, "mats": list(self.config.mats),
                "first_player": self.config.first_player,
                "deal_for_us": self.config.deal_seed is not None, "hints": self.hints,
                "play_on": self.play_on,
                "events": self.count,
                "over": self.state.is_over, "closed": self.closed}


def new_config(table_id: str, name: str, players: list[str], first_player: int,
               readers: list[str], deal_seed: int | None, created: int,
               game: str = "popcorn", options: dict[str, Any] | None = None,
               mats: Sequence[str | None] = ()) -> tuple[TableConfig, str, list[str]]:
    """A fresh configuration, its random PIN and its player tokens (both returned once: the
    configuration keeps only their salted hashes)."""
    pin = f"{secrets.randbelow(10**6):06d}"
    salt = secrets.token_hex(8)
    tokens = [new_token() for _ in players]
    config = TableConfig(table_id, name, list(players), first_player, list(readers),
                         [hash_token(t, salt) for t in tokens], salt, hash_pin(pin, salt),
                         deal_seed, created, game=game, options=dict(options or {}),
                         mats=list(mats))
    return config, pin, tokens


def _batch_part(body: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """A logged correction without its batch marks (an audit's fixes), and its batch."""
    correction = {k: v for k, v in body.items() if k not in ("batch", "audit")}
    return correction, body.get("batch")


def _fill_entry(body: dict[str, Any]) -> dict[str, Any]:
    """The applied entry of a logged bag fill (see :meth:`Table.handle_tag`)."""
    return {"fill": body["fill"], **_tap_marks("tag", body)}


def _tap_marks(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """What an applied entry keeps of a logged tap (or of a move a tap made with another,
    ``"tap": true``): that it was one, its relabel and the thing it showed (``seen``, which
    an older log left out)."""
    if kind != "tag" and not body.get("tap"):
        return {}
    marks: dict[str, Any] = {"tap": True}
    if body.get("relabel"):
        marks["relabel"] = body["relabel"]
    if "seen" in body:
        marks["seen"] = body["seen"]
    return marks


def refused_tap(violation: Any, player: int, names: list[str]) -> Alert:
    """A tap the game read as a move its own rules then refused: an alert with that move's
    own violation (its code, sentence and params), never a stale one."""
    code = str(getattr(violation, "code", "MOVE_REFUSED"))
    message = str(getattr(violation, "message", violation))
    params = {"player": player, "name": names[player], **getattr(violation, "params", {})}
    return Alert(code, message, "Check the table: the rules refuse that move now.", player,
                 params=params)


Step = tuple[GameMove, dict[str, Any]]
"""One move a tap plays, with the marks its tap leaves beside it in the log."""

_SHOWED_NONE: dict[str, Any] = {"tap": True, "seen": None}
"""The marks of a move a tap made beside the one it showed (a batch's other moves)."""


def _option(option: TapOption) -> list[Step]:
    """The moves of one option of a :class:`TapChoice` (or of a :class:`TapMoves`), each
    with the marks its tap leaves beside it: a relabel's swaps and the piece it showed, or
    for a plain move of a batch only that the tap showed none."""
    if isinstance(option, TapMoves):
        return [_option(step)[0] if isinstance(step, Relabel) else (step, _SHOWED_NONE)
                for step in option.steps()]
    if isinstance(option, Relabel):
        assert option.move is not None
        return [(option.move, relabel_marks(option))]
    return [(option, {"tap": True})]


def relabel_marks(relabel: Relabel) -> dict[str, Any]:
    """What a :class:`Relabel` leaves in the log beside its move: its swaps (if any) and the
    thing the tap showed."""
    marks: dict[str, Any] = {"tap": True, "seen": relabel.seen}
    if relabel.swaps:
        marks["relabel"] = [list(pair) for pair in relabel.swaps]
    return marks



def config_dict(config: TableConfig) -> dict[str, Any]:
    """The stored JSON of a configuration."""
    return asdict(config)
