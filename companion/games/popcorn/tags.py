"""How one tap on a bag reader becomes a move, or an alert (DESIGN: "The path of one draw").

A tapped pawn is either a **draw** (it came out of this player's bag and the rules expect a
draw: Open Cinema, draw-guest-to-seat, after a refill) or an **addition** (it goes into the
bag and the rules expect a pawn to go in: a Premiers guest, an advertising gain,
exit-to-bag, the white guest pushed into any bag). At setup, a pawn tapped on a bag's reader
as the players fill it only tells the hub that it is in that bag (a fill).

**The hub believes only what the table showed it** (:mod:`.whereabouts`): the count of each
color in each place, and each pawn's tag when it is tapped. Pawns of one color look alike,
and a move entered by color does not say which one the hand took, so a pawn may be in any of
several places. A tap is the move it stands for when some arrangement of the pawns,
consistent with every tap and move so far, has the tapped pawn where that move takes it
from: :func:`interpret` answers a :class:`~companion.kit.game.Relabel` (the swaps of
look-alikes that make the engine's arrangement such a one, the pawn the tap showed, and the
move). Only a tap that no arrangement explains is an :class:`Alert`. It says what is
certain: where the pawn is when the hub knows, the player's area or cinema when it knows
that much, and otherwise only that the pawn cannot have come from this bag.

In the Buying phase, a guest tapped on the reader of the player to buy, of the color of one
of their ready advertising tokens, is that token activated *and* the guest it gains (a white
one tapped on another player's reader: the white token's guest sent into that bag), two
moves for one tap (:func:`ad_tap`, a :class:`~companion.kit.game.TapMoves`), and so does a
guest drawn to a seat with one place left to go (:func:`drawn_to_seat`).

Pure: it reads the state and returns a value; applying the move is the table's job.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.kit.alerts import Alert
from companion.kit.game import Relabel, TapChoice, TapMoves

from .advisor.buying import suggested_ad
from .alert_params import alert_params, guest_words, place_params, region_params, region_words
from .corrections import into_bag
from .engine import GameState, Move, Violation
from .engine import pawns as P
from .table_state import TableState, swap

ALERT_CODES: dict[str, str] = {
    "UNKNOWN_TAG": "the tag is not in the registry",
    "PAWN_OF_ANOTHER_PLAYER": "the pawn can only be in other players' places",
    "DRAW_BEYOND_AUDIENCE": "the player has already drawn the whole audience",
    "PAWN_NOT_IN_BAG": "a draw is expected, but no arrangement of the pawns has this one in "
                       "the bag",
    "COLOR_NOT_IN_BAG": "a draw is expected, but the bag holds no guest of this color",
    "NO_DRAW_EXPECTED": "the pawn may be in the bag, but nothing expects a draw now",
    "UNEXPECTED_TAG": "nothing expects this pawn to go into this bag now",
    "CARD_NOT_EXPECTED": "a card tag was tapped, but no step expects that card now",
    "CARD_NOT_IN_MARKET": "a movie or theater tapped to buy it is not in the market",
    "CARD_ALREADY_OWNED": "the card tapped is already in a player's cinema",
    "CARD_NOT_BUYABLE": "the card is in the market, but the player to act cannot buy it now",
    "NOT_PLAYERS_TURN": "a card was tapped on the reader of a player who is not to act",
    "WAITING_FOR_GAIN": "a card was tapped to buy it while a player still has to take a "
                        "gained guest",
    "WAITING_FOR_AWARD": "a card was tapped to buy it while a player still has to draw award "
                         "cards",
    "CARD_NOT_IN_DECK": "the award card tapped for a draw is not in the award deck",
}
"""Every alert code of Popcorn's taps (pawns and cards), with what it means."""


def interpret(state: GameState, player: int, pawn: int | None,
              uid: str = "") -> Relabel | GuestChoice | TapMoves | Alert:
    """The move a tap of ``pawn`` on ``player``'s bag reader stands for, or an alert.

    What the hub knows of the pawns is ``state``'s (a :class:`~.table_state.TableState`);
    a plain engine state knows only its counts, as a table that has tapped nothing yet.
    """
    if pawn is None:
        name = state.names[player]
        return Alert("UNKNOWN_TAG", f"An unknown tag ({uid}) was tapped on {name}'s bag reader.",
                     "Enroll this pawn's tag, or check that it is one of the game's pawns.",
                     player, params=alert_params(state, player, None, uid))
    state = tracked(state)
    found = _found(state, player, pawn)
    if found is not None:
        return drawn_to_seat(state, player, found)
    ad = ad_tap(state, player, pawn)
    if ad is not None:
        return ad
    return _alert(state, player, pawn)


def tracked(state: GameState) -> TableState:
    """``state`` as a table follows it: itself, or a copy that knows only the counts."""
    return state if isinstance(state, TableState) else TableState.following(state)


def _found(state: TableState, player: int, pawn: int) -> Relabel | GuestChoice | None:
    """The move the tap is, with the relabel that lets the arrangement explain it; a
    :class:`GuestChoice` when the guest may have come from several places; or None."""
    found = _candidates(state, player, pawn)
    if len(found) > 1:
        return GuestChoice.of(state, player, pawn, found)
    return found[0] if found else None


def _candidates(state: TableState, player: int, pawn: int) -> list[Relabel]:
    """Each move the tap may be, one per place the pawn may have come from: a draw (or a
    fill, at setup), or the additions into the bag, the place where the engine's arrangement
    already has the pawn first (no relabel), then in the rules' order."""
    known, bag = state.known, P.bag(player)
    if state.phase == "setup":
        swaps = known.swaps_for(pawn, bag, state.loc)
        return [] if swaps is None else [Relabel(tuple(swaps), pawn, None)]
    if known.may_be(pawn, bag) and _draw_due(state, player):
        found = relabelled(state, pawn, bag, Move("draw_pawn", player=player, pawn=pawn))
        return [] if found is None else [found]
    sources: dict[int, Relabel] = {}
    for move in additions(state, player, state.pawn_color[pawn]):
        assert move.pawn is not None
        source = state.loc[move.pawn]
        if source not in sources and known.may_be(pawn, source):
            found = relabelled(state, pawn, source, replace(move, pawn=pawn))
            if found is not None:
                sources[source] = found
    return sorted(sources.values(), key=lambda found: len(found.swaps))


@dataclass(frozen=True)
class GuestChoice(TapChoice):
    """A guest tapped into ``player``'s bag that may have come from several places (a gain
    from another player's exit zone, when the reserve has none of its color): the tap says
    which pawn, not which place. The table plays the first at once and keeps the others on
    the screen, one button per place (:meth:`~companion.table.table.Table.rechoose`)."""

    player: int
    pawn: int
    color: str
    places: tuple[dict[str, Any], ...]
    """Where each move takes the guest from, as place params (:func:`.place_params`)."""
    moves: tuple[Relabel, ...] = ()

    @classmethod
    def of(cls, state: TableState, player: int, pawn: int,
           found: list[Relabel]) -> GuestChoice:
        """The choice among the moves ``found`` (each the tap from another place)."""
        places = []
        for option in found:
            trial = state.clone()
            trial.relabel(option.swaps)
            places.append(place_params(trial.loc[pawn], state.names))
        return cls(player, pawn, state.pawn_color[pawn], tuple(places), tuple(found))

    def suggested(self, hints: bool) -> int:
        """The first place, in the rules' order: a guess the table corrects with one tap."""
        return 0

    def to_dict(self) -> dict[str, Any]:
        """The public view's ``card_choice``: ``kind`` ``guest``, the tapping ``player``, the
        guest's ``color``, and per move its JSON and the place it takes the guest from."""
        return {"kind": "guest", "player": self.player, "color": self.color,
                "moves": [m.move.to_dict() for m in self.moves if isinstance(m.move, Move)],
                "places": [dict(p) for p in self.places]}


def relabelled(state: TableState, pawn: int, place: int, move: Move) -> Relabel | None:
    """The relabel that puts ``pawn`` at ``place`` with ``move`` after it, if the rules
    take that move then."""
    swaps = state.known.swaps_for(pawn, place, state.loc)
    if swaps is None:
        return None
    trial = state.plain()
    for a, b in swaps:
        swap(trial, a, b)
    try:
        trial.apply(move)
    except Violation:
        return None
    return Relabel(tuple(swaps), pawn, move)


def additions(state: GameState, player: int, color: str) -> list[Move]:
    """The legal moves that put a guest of ``color`` into ``player``'s bag, in the rules'
    order (each names the pawn of the engine's arrangement it takes)."""
    found = []
    for move in state.legal_moves():
        if move.pawn is None or move.kind == "draw_pawn" or \
                state.pawn_color[move.pawn] != color:
            continue
        trial = state.plain() if isinstance(state, TableState) else state.clone()
        try:
            trial.apply(move)
        except Violation:
            continue
        if trial.loc[move.pawn] == P.bag(player):
            found.append(move)
    return found


def drawn_to_seat(state: TableState, player: int,
                  found: Relabel | GuestChoice) -> Relabel | GuestChoice | TapMoves:
    """A guest drawn by a seat's "draw a guest to a seat" that has one place left to go (one
    eligible seat, or none and so the exit zone): the draw, then that place, for the one
    tap, since the table has nothing to choose. Any other tap's move is ``found`` as it is."""
    move = found.move if isinstance(found, Relabel) else None
    task = state.task_for(player)
    if not isinstance(found, Relabel) or not isinstance(move, Move) or move.kind != "draw_pawn" \
            or task is None \
            or task.kind != "draw_seat":
        return found
    trial = state.plain()
    for a, b in found.swaps:
        swap(trial, a, b)
    trial.apply(move)
    options = trial.legal_moves(player)
    return TapMoves((), found, (options[0],)) if len(options) == 1 else found


def ad_tap(state: GameState, player: int, pawn: int) -> TapMoves | None:
    """A guest tapped on ``player``'s reader in the Buying phase, of the color of one of
    the ready advertising tokens of the player to buy: that token is activated and the
    guest it gains is the one tapped (two moves, one tap). The space of the guest's own
    color comes first, then the multicolor space. The white space alone sends its guest to
    any bag, so a white guest tapped on another player's reader is that token's guest sent
    into that player's bag. None when no ready token explains the tap."""
    if state.phase != "buying" or state.tasks:
        return None
    state = tracked(state)
    color, buyer = state.pawn_color[pawn], state.current
    if player != buyer and color != "white":
        return None
    ads = [m for m in state.legal_moves() if m.kind == "activate_ad" and m.player == buyer]
    pick = suggested_ad(ads, color)
    if pick is None:
        return None
    trial = state.clone()
    trial.apply(pick)
    found = _candidates(trial, player, pawn)  # from one place or several: the first
    return TapMoves((pick,), found[0]) if found and found[0].move is not None else None


def _draw_due(state: GameState, player: int) -> bool:
    return any(m.kind == "draw_pawn" for m in state.chance_outcomes(player))


def _alert(state: TableState, player: int, pawn: int) -> Alert:
    """Why no arrangement explains the tap, in what the hub knows for certain."""
    places, bag = state.known.maybe[pawn], P.bag(player)
    owners = {P.owner(x) for x in places}
    others = None not in owners and player not in owners
    if _draw_due(state, player):
        if not any(state.pawn_color[q] == state.pawn_color[pawn] for q in state.pawns_at(bag)):
            return _alert_of(state, "COLOR_NOT_IN_BAG", player, pawn)
        return _alert_of(state, "PAWN_OF_ANOTHER_PLAYER" if others else "PAWN_NOT_IN_BAG",
                         player, pawn)
    show = state.showings[player] if state.phase == "showings" else None
    beyond = show is not None and show.to_draw == 0
    if places == {bag}:
        return _alert_of(state, "DRAW_BEYOND_AUDIENCE" if beyond else "NO_DRAW_EXPECTED",
                         player, pawn)
    if bag in places:  # out of the bag, or from somewhere else: only the table knows
        return _alert_of(state, "DRAW_BEYOND_AUDIENCE" if beyond else "UNEXPECTED_TAG",
                         player, pawn, unsure=True)
    return _alert_of(state, "PAWN_OF_ANOTHER_PLAYER" if others else "UNEXPECTED_TAG",
                     player, pawn)


def _alert_of(state: TableState, code: str, player: int, pawn: int,
              unsure: bool = False) -> Alert:
    """The alert ``code`` about a tap of ``pawn`` on ``player``'s reader, in English, with the
    params another language renders it from, and the correction its fix offers; ``unsure``:
    say nothing of where the pawn is (its ``CODE:unsure`` texts)."""
    name, color = state.names[player], state.pawn_color[pawn]
    region = {"kind": "unsure"} if unsure else region_params(state.known.maybe[pawn],
                                                              state.names)
    where = region_words(region, state.names)
    params = {**alert_params(state, player, pawn), **region}
    texts = ENGLISH.get(f"{code}:unsure") if region.get("kind") == "unsure" else None
    message, fix = texts or ENGLISH[code]
    words = {"name": name, "guest": guest_words(color), "color": color, "place": where,
             "draw": state.draw_value(player)}
    correct = into_bag(state, player, pawn) if code in CORRECTABLE else None
    return Alert(code, message.format(**words), fix.format(**words), player, params, correct)


CORRECTABLE = frozenset({"PAWN_NOT_IN_BAG", "COLOR_NOT_IN_BAG"})
"""Alerts whose fix may be a correction: the bag really held the pawn."""

ENGLISH: dict[str, tuple[str, str]] = {
    "PAWN_OF_ANOTHER_PLAYER": (
        "This {guest} is in {place}, but it was tapped on {name}'s bag reader.",
        "Put it back in {place}."),
    "PAWN_OF_ANOTHER_PLAYER:unsure": (
        "This {guest} is in another player's place, but it was tapped on {name}'s bag "
        "reader.", "Put it back where it came from."),
    "DRAW_BEYOND_AUDIENCE": (
        "{name} has already drawn all {draw} guests, and a {guest} came out of the bag.",
        "Put the {guest} back into {name}'s bag."),
    "DRAW_BEYOND_AUDIENCE:unsure": (
        "{name} has already drawn all {draw} guests, and a {guest} was tapped on the bag "
        "reader.", "Put the {guest} back where it came from."),
    "NO_DRAW_EXPECTED": (
        "A {guest} came out of {name}'s bag, but no draw is expected now.",
        "Put it back into {name}'s bag."),
    "PAWN_NOT_IN_BAG": (
        "A {guest} was drawn from {name}'s bag, but the companion has it in {place}.",
        "If it really was in the bag, correct its place (PIN); otherwise put it back in "
        "{place} and draw again."),
    "PAWN_NOT_IN_BAG:unsure": (
        "A {guest} was drawn from {name}'s bag, but the companion knows this guest was not in "
        "that bag.", "Put it back where it came from and draw again; if the bag really held "
        "it, check the bag (audit)."),
    "COLOR_NOT_IN_BAG": (
        "A {guest} was drawn from {name}'s bag, but the companion has no {color} guest left "
        "in {name}'s bag; it had this one in {place}.",
        "If it came from another bag or zone, put it back there ({place}, as far as the "
        "companion knows) and draw again; if {name}'s bag really held it, correct its place "
        "(PIN)."),
    "COLOR_NOT_IN_BAG:unsure": (
        "A {guest} was drawn from {name}'s bag, but the companion has no {color} guest left "
        "in {name}'s bag.", "Put it back where it came from and draw again; if the bag "
        "really held it, check the bag (audit)."),
    "UNEXPECTED_TAG": (
        "Nothing expects this {guest} to go into {name}'s bag now; the companion has it in "
        "{place}.", "Put it back in {place}."),
    "UNEXPECTED_TAG:unsure": (
        "Nothing expects this {guest} to go into {name}'s bag now.",
        "Put it back where it came from."),
}
"""The English message and fix of each pawn alert (``CODE:unsure`` when the hub cannot say
where the pawn is: its translations are in :data:`.texts.ALERTS`)."""
