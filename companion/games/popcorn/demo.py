"""A demo table: four virtual bag readers and scripted players, on the hub's real paths.

Pawns that come out of a bag or go into one are *tapped on the virtual reader* of that bag,
so they travel the real serial or MQTT link, the dedup store and the tag interpretation.
With card tags (``cards``), cards are tapped too: a starting movie, a revealed movie or tile
on any reader of the table, an award drawn on the drawing player's reader, and a movie or a
tile bought on the buyer's reader (when the hub asks which slot, the slot is chosen the way
the tablet does). Every other decision (seat a guest, take an action, keep an award) is made
the way the tablet makes it: through the hub. Without card tags, the cards are dealt by
"deal for us". The players pick at random,
preferring to act rather than pass, at a pace a person can follow.

With a cinema mat under each player's board (``demo --mats``), the players seat their
guests, send them to the exit zone and end their activations by setting the pawns down on
the mat (:mod:`.mats` reads it); after each action they also move on the mats what the
rules moved (a guest pushed out of its seat, an exit zone poured into the bag), as hands
at a real table do, which the hub sees as no news.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence

from companion.kit.errors import TableError
from companion.kit.game import DemoHub, DemoTable, HostLock, MatHand, Tapper
from companion.kit.tags import random_uid

from .cardbook import CARD_KINDS, CardBook
from .engine import Move, Violation
from .engine import pawns as P
from .engine.simulator import PASSIVE_KINDS
from .facts_file import card_copies, load_catalog
from .mats import EXIT, lying_zones

log = logging.getLogger("companion.demo")

PLAYERS = ("Ana", "Bob", "Chloe", "Dev")
"""The demo's players."""
BUYS = {"buy_movie": "movie", "buy_theater": "theater"}
"""The card kind each buying move names."""
REPORTS = {"deal_starting": "movie", "reveal_movie": "movie", "reveal_theater": "theater",
           "draw_award": "award"}
"""The card kind each chance outcome a card's tap reports names."""
SENSED = frozenset({"place", "to_exit", "end_guest"})
"""The moves a player makes on a cinema mat, when there is one, instead of on the tablet."""


GAME = "popcorn"
"""The game's id, which its pieces carry in the tag registry."""


def box_book() -> CardBook:
    """The cards of the box that carry a tag (the standard catalog's)."""
    return CardBook.from_catalog(load_catalog(), card_copies())


def card_uids(book: CardBook, seed: int) -> dict[tuple[str, str], str]:
    """Made-up tags for the box's cards: ``(kind, card id) -> UID``, one per catalog id."""
    rng = random.Random(f"cards:{seed}")
    return {(kind, card): random_uid(rng) for kind in CARD_KINDS for card in book.order[kind]}


def enroll_box(hub: DemoHub, seed: int) -> dict[int, str]:
    """Give every pawn and every card of the box a made-up tag (as if the box had been
    enrolled: a theater with copies gets its first copy's); returns the pawns' UIDs (the
    cards' are :func:`card_uids` of the same seed)."""
    rng = random.Random(f"tags:{seed}")
    registry = hub.registry
    pawns = registry.kind(GAME, "pawn").numbered()
    uids = {pawn: random_uid(rng) for pawn, _ in pawns}
    registry.tag_kind(GAME, "pawn", uids)
    cards = card_uids(box_book(), seed)
    for kind in CARD_KINDS:
        first: dict[object, int] = {}  # each card's first piece number
        for number, card in reversed(registry.kind(GAME, kind).numbered()):
            first[card] = number
        registry.tag_kind(GAME, kind, {first[c]: u for (k, c), u in cards.items() if k == kind})
    return uids


class ScriptedPlayers:
    """Plays one table to the end: taps pawns on the readers, decides through the hub."""

    def __init__(self, hub: DemoHub | None, table: DemoTable, bank: Tapper,
                 uids: dict[int, str], *,
                 delay: float = 0.6, seed: int = 1,
                 decide: Callable[[Move], object] | None = None,
                 lock: HostLock | None = None,
                 cards: dict[tuple[str, str], str] | None = None,
                 any_pawn: bool = False, mats: dict[int, MatHand] | None = None) -> None:
        """``hub`` is the hub in this process; for a table elsewhere (a ``RemoteTable``)
        give ``hub=None`` with its ``decide`` and ``lock`` instead. ``cards`` (the card tags,
        :func:`card_uids`) makes the players buy by tapping the card on their reader.

        ``any_pawn`` plays as a real table does: the players filled the bags, exit zones
        and reserve with whichever pawns of each color came to hand, so a pawn drawn from a
        bag (or taken from the reserve) is any pawn of its color that may be there, not the
        one the hub placed there (see :meth:`pawn_to_tap`).

        ``mats`` (seat -> its virtual mat) makes the players seat, send out and end their
        guests on the mats (:data:`SENSED`); they then move pawns by their own ids, as
        the tags say (no ``any_pawn``)."""
        self.hub, self.table, self.bank, self.uids = hub, table, bank, uids
        self.mats = mats or {}
        self.cards = cards or {}
        self.any_pawn = any_pawn
        if hub is not None:
            lock = lock if lock is not None else hub.lock
            decide = decide or (lambda move: hub.submit(table.id, move, source="demo"))
        if lock is None or decide is None:
            raise ValueError("scripted players need a hub, or their decide and lock")
        self.lock, self.decide = lock, decide
        self.delay, self.rng = delay, random.Random(seed)
        self.stop = threading.Event()
        self.actions = 0
        self.thread: threading.Thread | None = None

    def start(self) -> ScriptedPlayers:
        """Play in a background thread."""
        self.thread = threading.Thread(target=self.run, name="demo-players", daemon=True)
        self.thread.start()
        return self

    def run(self) -> None:
        """Act until the game is over (or :attr:`stop` is set)."""
        while not self.stop.is_set():
            with self.lock:
                if self.table.state.is_over:
                    return
                step = self._choose()
            if step is None:
                self.stop.wait(0.05)
                continue
            self._do(*step)
            self.tidy_mats()
            self.actions += 1
            self.stop.wait(self.delay)

    def _choose(self) -> tuple[str, Move] | None:
        state = self.table.state
        waiting = state.waiting_players() or [None]
        player = self.rng.choice(waiting)
        reports = [m for m in state.chance_outcomes()
                   if m.kind in REPORTS and (REPORTS[m.kind], m.card) in self.cards]
        if reports:
            return "card", self.rng.choice(reports)
        outcomes = [m for m in state.chance_outcomes(player) if m.kind == "draw_pawn"]
        if outcomes:
            return "tap", self.rng.choice(outcomes)
        moves = state.legal_moves(player)
        if not moves:
            return None
        active = [m for m in moves if m.kind not in PASSIVE_KINDS]
        move = self.rng.choice(active or moves)
        if move.kind in BUYS and (BUYS[move.kind], move.card) in self.cards:
            return "card", move
        if move.kind in SENSED and move.player in self.mats:
            return "mat", move
        return ("tap" if self._into_bag(move) else "decide"), move

    def _into_bag(self, move: Move) -> bool:
        if move.pawn is None or move.kind == "place":
            return False
        trial = self.table.state.clone()
        try:
            trial.apply(move)
        except Violation:
            return False
        return P.owner(trial.loc[move.pawn]) is not None and trial.loc[move.pawn] in {
            P.bag(q) for q in range(trial.n)}

    def _do(self, how: str, move: Move) -> None:
        if how == "card":
            self._card_tap(move)
            return
        if how == "mat":
            self._on_mat(move)
            return
        if how == "decide":
            try:
                self.decide(move)
            except TableError as exc:  # the state moved on meanwhile: choose again
                log.debug("demo: %s refused: %s", move, exc)
            return
        assert move.pawn is not None
        bag_owner = self._bag_of(move)
        reader = self.table.config.readers[bag_owner]
        before = self.table.count
        pawn = self.pawn_to_tap(move.pawn)
        self.bank.tap(reader, self.uids[pawn])
        deadline = time.monotonic() + 10
        while self.table.count == before and time.monotonic() < deadline:
            time.sleep(0.005)

    def _on_mat(self, move: Move) -> None:
        """Make ``move`` with a hand on its player's mat: a drawn guest set down in its
        theater or on the exit zone, a seated guest carried to the exit zone; then wait
        until the hub has acked the mat's reports (it acks once it has played them), and
        move on the mats what the rules moved besides."""
        assert move.player is not None
        mat, state = self.mats[move.player], self.table.state
        if move.kind == "end_guest":
            assert move.slot is not None and move.seat is not None
            pawn = state.occupant(move.player, move.slot, move.seat)
            if pawn is None:
                return
            mat.move(self.uids[pawn], EXIT)
        else:
            assert move.pawn is not None
            mat.set_down(EXIT if move.kind == "to_exit" else int(move.slot or 0),
                         self.uids[move.pawn])
        self._acked(mat)

    def _acked(self, mat: MatHand) -> None:
        """Wait until the hub has acked every report of ``mat`` (it acks once it has
        played them), so that the next look at the state sees what they did."""
        deadline = time.monotonic() + 10
        while mat.pending and time.monotonic() < deadline:
            time.sleep(0.005)

    def tidy_mats(self) -> None:
        """After each action, move on each mat what the rules moved (a guest pushed out of
        its seat, a guest that left by itself, an exit zone poured into the bag), as the
        players' hands do before the next action: each pawn on the zone where the state has
        it, and off the mat when it has left the cinema. The hub sees each change as no
        news; the players wait for its acks before they act again."""
        if not self.mats:
            return
        with self.lock:
            wanted = {seat: self._zones_of(seat) for seat in self.mats}
        for seat, mat in self.mats.items():
            zone_of = wanted[seat]
            lying = {uid: z for z, uids in enumerate(mat.zones) for uid in uids}
            off = [uid for uid in lying if uid not in zone_of]
            if off:
                mat.take_up(*off)
            for uid, zone in zone_of.items():
                if lying.get(uid) != zone:
                    mat.move(uid, zone)
            self._acked(mat)

    def _zones_of(self, seat: int) -> dict[str, int]:
        """Where each of ``seat``'s pawns lies on its mat by the state, by UID."""
        return {self.uids[pawn]: zone
                for pawn, zone in lying_zones(self.table.state, seat).items()}

    def pawn_to_tap(self, pawn: int) -> int:
        """The pawn whose tag a player taps for a move of ``pawn``: ``pawn`` itself, or with
        :attr:`any_pawn`, any pawn of its color that may be where the hub has ``pawn``, as
        far as the table showed it (:mod:`.whereabouts`), picked at random: the players put
        pawns where they liked, and the hub cannot tell which one comes to hand."""
        state = self.table.state
        known = getattr(state, "known", None)
        if not self.any_pawn or known is None:
            return pawn
        place, color = state.loc[pawn], state.pawn_color[pawn]
        alike = [q for q, c in enumerate(state.pawn_color)
                 if c == color and known.may_be(q, place)]
        return self.rng.choice(alike) if alike else pawn

    def _card_tap(self, move: Move) -> None:
        """Tap the card on its player's reader (any reader for a shared reveal); choose the
        slot if the hub asks which (a card it placed in its suggested slot stays there)."""
        assert move.card is not None
        readers = self.table.config.readers
        reader = readers[move.player] if move.player is not None else self.rng.choice(readers)
        kind = BUYS.get(move.kind) or REPORTS[move.kind]
        before = self.table.count
        self.bank.tap(reader, self.cards[(kind, move.card)])
        deadline = time.monotonic() + 10
        while self.table.count == before and time.monotonic() < deadline:
            time.sleep(0.005)
        choice = getattr(self.table, "card_choice", None)
        if choice and choice.get("placed") is None:  # the hub asks which slot
            self._do("decide", move)

    def _bag_of(self, move: Move) -> int:
        if move.kind == "draw_pawn":
            assert move.player is not None
            return move.player
        if move.target is not None:
            return move.target
        assert move.player is not None
        return move.player


def start_demo(hub: DemoHub, readers: list[str], bank: Tapper, delay: float,
               seed: int, mats: Sequence[MatHand] = ()) -> tuple[DemoTable, str, ScriptedPlayers]:
    """The demo's Popcorn table: the box enrolled with made-up tags, a 4-player table
    without "deal for us" (the players tap the cards that are revealed, drawn and bought),
    and its players started; they grab any pawn of the right color, as a real table does.
    With ``mats`` (one per seat), the players seat and send out their guests on them."""
    uids = enroll_box(hub, seed)
    table, pin, _ = hub.create_table(list(PLAYERS), readers, 0, "Demo table", None,
                                     mats=[m.reader for m in mats] or None)
    cards = card_uids(box_book(), seed)
    players = ScriptedPlayers(hub, table, bank, uids, delay=delay, seed=seed, cards=cards,
                              any_pawn=not mats, mats=dict(enumerate(mats)))
    return table, pin, players.start()
