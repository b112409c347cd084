"""How one tap on a bag reader becomes a move, or an alert (DESIGN: "The path of one draw").

A tapped pawn is either a **draw** (it is in this player's bag and the rules expect a draw:
Open Cinema, draw-guest-to-seat, after a refill) or an **addition** (it is outside the bag
and the rules expect a pawn to go in: a Premiers guest, an advertising gain, exit-to-bag, the
white guest pushed into any bag). Anything else is an :class:`Alert` naming the pawn, its
color, where the companion believes it is, who is concerned, and a fix.

**A pawn is what its color says.** The rules never tell two pawns of one color apart, and
players fill their bags, exit zones and the reserve with whichever pawns of the right color
come to hand. So the companion knows a pawn's place only once it has seen that pawn tapped:
a pawn never tapped since setup (and resting in the box, the reserve, a bag or an exit zone)
may be any pawn of its color there. When such a pawn is tapped where the rules expect a pawn
of its color (a draw from this bag, a guest put into it) but the companion placed it
elsewhere, the tap is still that move: :func:`interpret` answers a :class:`~companion.games.
base.Relabel`, and the table swaps the tapped pawn with the look-alike it had in that place
before playing the move. A pawn the companion has seen tapped keeps its identity, and is
an alert when it turns up where it cannot be.

In the Buying phase, a guest tapped on the reader of the player to buy, of the color of one
of their ready advertising tokens, is that token activated *and* the guest it gains, two
moves for one tap (:func:`ad_tap`, a :class:`~companion.kit.game.TapMoves`), and so does a
guest drawn to a seat with one place left to go (:func:`drawn_to_seat`).

Pure: it reads the state and returns a value; applying the move is the table's job.
"""

from __future__ import annotations

from dataclasses import replace

from companion.kit.alerts import Alert
from companion.kit.game import Relabel, TapMoves

from .alert_params import alert_params, guest_words
from .corrections import into_bag
from .engine import GameState, Move, Violation
from .engine import pawns as P

ALERT_CODES: dict[str, str] = {
    "UNKNOWN_TAG": "the tag is not in the registry",
    "PAWN_OF_ANOTHER_PLAYER": "the pawn belongs to another player's zone",
    "DRAW_BEYOND_AUDIENCE": "the player has already drawn the whole audience",
    "PAWN_NOT_IN_BAG": "a draw is expected, but the companion has this pawn outside the bag",
    "COLOR_NOT_IN_BAG": "a draw is expected, but the companion has no guest of this color "
                        "in the bag that the tapped one could be",
    "NO_DRAW_EXPECTED": "the pawn is in the bag, but nothing expects a draw now",
    "UNEXPECTED_TAG": "nothing expects this pawn to go into this bag now",
    "CARD_NOT_EXPECTED": "a card tag was tapped, but no step expects that card now",
    "CARD_NOT_IN_MARKET": "a movie or theater tapped to buy it is not in the market",
    "CARD_ALREADY_OWNED": "the card tapped is already in a player's cinema",
    "CARD_NOT_BUYABLE": "the card is in the market, but the player to act cannot buy it now",
    "NOT_PLAYERS_TURN": "a card was tapped on the reader of a player who is not to act",
    "CARD_NOT_IN_DECK": "the award card tapped for a draw is not in the award deck",
}
"""Every alert code of Popcorn's taps (pawns and cards), with what it means."""


def interpret(state: GameState, player: int, pawn: int | None, uid: str = "",
              tapped: frozenset[int] = frozenset()) -> Move | Relabel | TapMoves | Alert:
    """The move a tap of ``pawn`` on ``player``'s bag reader stands for, or an alert.

    ``tapped``: the pawns whose place the companion learned from a tap of their own (the
    table's applied taps); every other resting pawn may be any pawn of its color, so its
    tap can stand in for a look-alike (a :class:`Relabel`).
    """
    if pawn is None:
        name = state.names[player]
        return Alert("UNKNOWN_TAG", f"An unknown tag ({uid}) was tapped on {name}'s bag reader.",
                     "Enroll this pawn's tag, or check that it is one of the game's pawns.",
                     player, params=alert_params(state, player, None, uid))
    found = _found(state, player, pawn, tapped)
    if found is not None:
        return drawn_to_seat(state, player, found)
    ad = ad_tap(state, player, pawn, tapped)
    if ad is not None:
        return ad
    if not known_by_color(state, pawn, tapped):
        return _alert_at(state, player, pawn)
    return _alert_by_color(state, player, pawn, look_alikes(state, pawn, tapped))


def _found(state: GameState, player: int, pawn: int,
           tapped: frozenset[int]) -> Move | Relabel | None:
    """The move the tap is, itself or standing in for a look-alike, or None."""
    move = _tap_move(state, player, {pawn})
    if move is not None:
        return move
    if not known_by_color(state, pawn, tapped):
        return None
    alike = look_alikes(state, pawn, tapped)
    if state.phase == "setup":
        filled = _filled(state, player, pawn, alike)
        if filled is not None:
            return filled
    stand_in = _tap_move(state, player, alike) if alike else None
    if stand_in is not None:
        assert stand_in.pawn is not None
        return Relabel(pawn, stand_in.pawn, replace(stand_in, pawn=pawn))
    return None


def drawn_to_seat(state: GameState, player: int,
                  found: Move | Relabel) -> Move | Relabel | TapMoves:
    """A guest drawn by a seat's "draw a guest to a seat" that has one place left to go (one
    eligible seat, or none and so the exit zone): the draw, then that place, for the one
    tap, since the table has nothing to choose. Any other tap's move is ``found`` as it is."""
    move = found.move if isinstance(found, Relabel) else found
    task = state.task_for(player)
    if not isinstance(move, Move) or move.kind != "draw_pawn" or task is None \
            or task.kind != "draw_seat":
        return found
    trial = state.clone()
    if isinstance(found, Relabel) and found.look_alike != found.thing:
        swap(trial, found.thing, found.look_alike)
    trial.apply(move)
    options = trial.legal_moves(player)
    return TapMoves((), found, (options[0],)) if len(options) == 1 else found


def ad_tap(state: GameState, player: int, pawn: int,
           tapped: frozenset[int] = frozenset()) -> TapMoves | None:
    """A guest tapped on the reader of the player to buy, of the color of one of their
    ready advertising tokens: that token is activated and the guest it gains is the one
    tapped (two moves, one tap). The space of the guest's own color comes first, then the
    multicolor space; a white guest goes into the tapping player's own bag. None when no
    ready token explains the tap."""
    if state.phase != "buying" or player != state.current or state.tasks:
        return None
    color = state.pawn_color[pawn]
    ads = [m for m in state.legal_moves() if m.kind == "activate_ad" and m.player == player]
    pick = next((m for m in ads if m.space == color), None) or next(
        (m for m in ads if m.space == "any" and m.color == color), None)
    if pick is None:
        return None
    trial = state.clone()
    trial.apply(pick)
    gain = _found(trial, player, pawn, tapped)
    return None if gain is None else TapMoves((pick,), gain)


def _filled(state: GameState, player: int, pawn: int, alike: set[int]) -> Relabel | None:
    """At setup, a pawn tapped on its bag's reader as the players fill the bags: the table
    learns it is in that bag (no move), if the bag holds it or a look-alike."""
    bag = P.bag(player)
    if state.loc[pawn] == bag:
        return Relabel(pawn, pawn, None)
    in_bag = sorted(q for q in alike if state.loc[q] == bag)
    return Relabel(pawn, in_bag[0], None) if in_bag else None


def resting(state: GameState, pawn: int) -> bool:
    """Whether a pawn rests where players put pawns by the handful (the box, the reserve, a
    bag, an exit zone) and no pending step names it: such a pawn is known only by its color
    until it is tapped."""
    loc = state.loc[pawn]
    owner = None if P.is_seat(loc) else P.owner(loc)
    heaps = (P.BOX, P.RESERVE) if owner is None else (P.bag(owner), P.exit_zone(owner))
    if loc not in heaps:
        return False
    if any(task.pawn == pawn for task in state.tasks):
        return False
    return not any(show.left and show.left[2] == pawn for show in state.showings)


def known_by_color(state: GameState, pawn: int, tapped: frozenset[int]) -> bool:
    """Whether the companion knows ``pawn`` only by its color: never tapped, and resting."""
    return pawn not in tapped and resting(state, pawn)


def look_alikes(state: GameState, pawn: int, tapped: frozenset[int]) -> set[int]:
    """The pawns a tap of ``pawn``, known only by its color, may stand for: every other
    pawn of its color that is known only by its color too."""
    color = state.pawn_color[pawn]
    return {q for q, c in enumerate(state.pawn_color) if c == color and q != pawn
            and q not in tapped and resting(state, q)}


def swap(state: GameState, pawn: int, other: int) -> None:
    """Let two pawns of one color trade places (a relabel: the game is the same game)."""
    if state.pawn_color[pawn] != state.pawn_color[other]:
        raise ValueError(f"pawns {pawn} and {other} differ in color")
    here, there = state.loc[pawn], state.loc[other]
    state.move_pawn(pawn, there)
    state.move_pawn(other, here)


def _tap_move(state: GameState, player: int, pawns: set[int]) -> Move | None:
    """The draw from ``player``'s bag, or else the addition to it, of one of ``pawns``."""
    for move in state.chance_outcomes(player):
        if move.kind == "draw_pawn" and move.pawn in pawns:
            return move
    for move in state.legal_moves():
        if move.pawn in pawns and move.kind != "draw_pawn" and _puts_in_bag(state, move, player):
            return move
    return None


def _puts_in_bag(state: GameState, move: Move, player: int) -> bool:
    trial = state.clone()
    try:
        trial.apply(move)
    except Violation:
        return False
    assert move.pawn is not None
    return trial.loc[move.pawn] == P.bag(player)


def _alert_by_color(state: GameState, player: int, pawn: int, alike: set[int]) -> Alert:
    """Why the tap of a pawn known only by its color is no move. When a draw is due, the
    bag holds no guest of that color it could be (``COLOR_NOT_IN_BAG``). Else, had the
    companion placed it in another player's zone, it is judged as the look-alike in the
    tapping player's bag, if there is one (the other player's zone is only a guess, and
    the tap most likely came out of this bag)."""
    bag = P.bag(player)
    in_bag = sorted(q for q in alike if state.loc[q] == bag)
    elsewhere = P.owner(state.loc[pawn]) not in (None, player)
    if elsewhere and in_bag and not _draw_due(state, player):
        trial = state.clone()
        swap(trial, pawn, in_bag[0])
        return _alert_at(trial, player, pawn)
    if state.loc[pawn] != bag and _draw_due(state, player):
        return _color_not_in_bag(state, player, pawn)
    return _alert_at(state, player, pawn)


def _draw_due(state: GameState, player: int) -> bool:
    return any(m.kind == "draw_pawn" for m in state.chance_outcomes(player))


def _color_not_in_bag(state: GameState, player: int, pawn: int) -> Alert:
    name, color, where = state.names[player], state.pawn_color[pawn], state.where(pawn)
    return Alert("COLOR_NOT_IN_BAG",
                 f"A {guest_words(color)} was drawn from {name}'s bag, but the companion "
                 f"has no {color} guest left in {name}'s bag; it had this one in {where}.",
                 f"If it came from another bag or zone, put it back there ({where}, as far as "
                 f"the companion knows) and draw again; if {name}'s bag really held it, "
                 f"correct its place (PIN).",
                 player, pawn, color, alert_params(state, player, pawn),
                 into_bag(state, player, pawn))


def _alert_at(state: GameState, player: int, pawn: int) -> Alert:
    name, color, where = state.names[player], state.pawn_color[pawn], state.where(pawn)
    guest = guest_words(color)
    owner = P.owner(state.loc[pawn])
    if owner is not None and owner != player:
        return Alert("PAWN_OF_ANOTHER_PLAYER",
                     f"This {guest} is in {where}, but it was tapped on {name}'s bag reader.",
                     f"Put it back in {where}.",
                     player, pawn, color, alert_params(state, player, pawn))
    if state.loc[pawn] == P.bag(player):
        show = state.showings[player] if state.phase == "showings" else None
        if show is not None and show.to_draw == 0:
            return Alert("DRAW_BEYOND_AUDIENCE",
                         f"{name} has already drawn all {state.draw_value(player)} guests, "
                         f"and a {guest} came out of the bag.",
                         f"Put the {guest} back into {name}'s bag.",
                         player, pawn, color, alert_params(state, player, pawn))
        return Alert("NO_DRAW_EXPECTED",
                     f"A {guest} came out of {name}'s bag, but no draw is expected now "
                     f"({state.phase} phase).",
                     f"Put it back into {name}'s bag.",
                     player, pawn, color, alert_params(state, player, pawn))
    if any(m.kind == "draw_pawn" for m in state.chance_outcomes(player)):
        return Alert("PAWN_NOT_IN_BAG",
                     f"A {guest} was drawn from {name}'s bag, but the companion has it in "
                     f"{where}.",
                     f"If it really was in the bag, correct its place (PIN); otherwise put it "
                     f"back in {where} and draw again.",
                     player, pawn, color, alert_params(state, player, pawn),
                     into_bag(state, player, pawn))
    return Alert("UNEXPECTED_TAG",
                 f"Nothing expects this {guest} to go into {name}'s bag now; the companion "
                 f"has it in {where}.", f"Put it back in {where}.",
                 player, pawn, color, alert_params(state, player, pawn))
