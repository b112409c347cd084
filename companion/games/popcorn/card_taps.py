"""What a card tag tapped on a bag reader stands for: a reported chance outcome, a buy, a
choice of slot to make on the tablet, or an :class:`~.interpret.Alert`
(its codes are in :data:`~.tags.ALERT_CODES`).

Movies, theater tiles and award cards carry NFC stickers like the pawns (see
:class:`~.cardbook.CardBook`). A tapped card is, in this order:

1. the outcome the table must report now: the starting movie dealt (to the tapped reader's
   player, or to the only player the deal can go to), the movie or theater revealed, or the
   award card drawn by the reader's own player;
2. in the Buying phase, on the reader of the player to act, a movie or a tile of the market:
   bought at once when only one slot is legal, else a :class:`CardChoice` of the legal slots,
   which the table buys into the suggested slot at once (one tap on another slot moves it);
3. anything else is an alert with a stable code, naming the card by its title (an award
   card only as "an award card": its title is private, and alerts are public). Its
   ``params`` (:func:`card_params`) let a device in another language say the same.

Pure: it reads the state and returns a value; applying the move is the table's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.kit.alerts import Alert
from companion.kit.game import TapChoice

from .advisor.buying import suggested_buy
from .engine import GameState, Move
from .tile_looks import sentence, tile_look

BUY_KINDS = {"movie": "buy_movie", "theater": "buy_theater"}
"""The buying move of each card kind that can be bought."""
CHANCE_KINDS = {"movie": ("deal_starting", "reveal_movie"), "theater": ("reveal_theater",),
                "award": ("draw_award",)}
"""The chance outcomes a card of each kind may report."""


@dataclass(frozen=True)
class CardChoice(TapChoice):
    """A tapped card that several slots could take: the tablet shows one button per move."""

    player: int
    kind: str
    card: str
    title: str
    moves: tuple[Move, ...]
    advised: int = 0
    """The index of the move the advisor takes (:func:`~.advisor.buying.suggested_buy`)."""

    def suggested(self, hints: bool) -> int:
        """The slot the card goes into at once: the advisor's with hints on, else the first
        legal slot."""
        return self.advised if hints else 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the public view's ``card_choice``."""
        return {"player": self.player, "kind": self.kind, "card": self.card,
                "title": self.title, "moves": [m.to_dict() for m in self.moves]}


def card_title(state: GameState, kind: str, card: str) -> str:
    """A card's title for messages: a movie's or award's title, a theater tile named as it
    looks ("the $2 one-seat tile (blue seat: +$3)", :func:`~.tile_looks.tile_look`)."""
    if kind == "movie":
        return state.catalog.movies[card].title
    if kind == "award":
        return state.catalog.awards[card].title
    return tile_look(state.catalog.theaters[card])


def card_params(state: GameState, player: int, kind: str, card: str,
                **more: Any) -> dict[str, Any]:
    """The params of a card alert: the tapping ``player`` and their ``name``, the card's
    ``kind`` and, but for an award card (private), its catalog id ``card`` and ``title`` (a
    tile's title is a word other languages translate by that id); then ``more``."""
    params: dict[str, Any] = {"player": player, "name": state.names[player], "kind": kind}
    if kind != "award":
        params.update(card=card, title=card_title(state, kind, card))
    return {**params, **more}


def interpret_card(state: GameState, player: int, kind: str,
                   card: str) -> Move | CardChoice | Alert:
    """The move a tap of a ``kind`` card on ``player``'s reader stands for, a choice of
    slots, or an alert."""
    outcome = _chance(state, player, kind, card)
    if outcome is not None:
        return outcome
    if kind in BUY_KINDS and state.phase == "buying":
        return _buy(state, player, kind, card)
    return _alert(state, player, kind, card)


def _chance(state: GameState, player: int, kind: str, card: str) -> Move | Alert | None:
    matches = [m for m in state.chance_outcomes()
               if m.kind in CHANCE_KINDS[kind] and m.card == card]
    mine = [m for m in matches if m.player in (None, player)]
    if mine:
        return mine[0]
    if kind == "movie" and len({m.player for m in matches}) == 1:
        return matches[0]  # the only player the starting deal can go to
    if kind == "award" and not matches:
        draws = [m for m in state.chance_outcomes(player) if m.kind == "draw_award"]
        if draws:
            name = state.names[player]
            return Alert("CARD_NOT_IN_DECK", f"{name} tapped an award card that is not in "
                         "the award deck.", f"Put that card back where it was and draw "
                         f"from the award deck on {name}'s reader.", player,
                         params=card_params(state, player, kind, card))
    return None


def _buy(state: GameState, player: int, kind: str, card: str) -> Move | CardChoice | Alert:
    title = card_title(state, kind, card)
    if card not in _market(state, kind):
        return _alert(state, player, kind, card)
    name, current = state.names[player], state.names[state.current]
    moves = tuple(m for m in state.legal_moves() if m.kind == BUY_KINDS[kind] and m.card == card)
    if player == state.current and len(moves) == 1:
        return moves[0]
    if player == state.current and moves:
        return CardChoice(player, kind, card, title, moves,
                          moves.index(suggested_buy(state, moves)))
    # a player's own step the table waits for (a gained guest, award cards) blocks every
    # buy: the alert names it and whose it is, rather than whose turn it is
    owed = next((task for task in state.tasks if task.kind in ("gain", "award")), None)
    if owed is not None:
        return _waiting(state, player, kind, card, owed)
    if player != state.current:
        return Alert("NOT_PLAYERS_TURN", sentence(f"{title} was tapped on {name}'s reader, but "
                     f"it is {current}'s turn to buy."),
                     f"Put {title} back in the market; {current} buys first.", player,
                     params=card_params(state, player, kind, card, current=current))
    return Alert("CARD_NOT_BUYABLE", f"The rules do not let {name} buy {title} now (its "
                 f"price, a {kind} already bought this turn, a step to finish first, or no "
                 "theater before round 2).",
                 f"Put {title} back in the market.", player,
                 params=card_params(state, player, kind, card))


def _waiting(state: GameState, player: int, kind: str, card: str, task: Any) -> Alert:
    """A card tapped to buy while a player owes a step (a gained guest, award cards): the
    alert names that step and whose it is."""
    title, name = card_title(state, kind, card), state.names[player]
    owner = state.names[task.player]
    head = sentence(f"{title} was tapped on {name}'s reader, but ")
    back = f"Put {title} back in the market; first "
    if task.kind == "gain":
        return Alert("WAITING_FOR_GAIN", f"{head}{owner} still has to take a {task.color} guest.",
                     f"{back}{owner} takes the {task.color} guest and taps it on the bag's "
                     "reader.", player, params=card_params(state, player, kind, card,
                                                           waiting=owner, color=task.color))
    return Alert("WAITING_FOR_AWARD", f"{head}{owner} still has to draw award cards.",
                 f"{back}{owner} draws the award cards (their phone says how).", player,
                 params=card_params(state, player, kind, card, waiting=owner))


def _market(state: GameState, kind: str) -> list[str]:
    if kind == "movie":
        return [*state.features, *state.premiers]
    return [c for column in state.columns.values() for c in column]


def _owner(state: GameState, kind: str, card: str) -> int | None:
    for p, ps in enumerate(state.players):
        held = {"movie": [*ps.movies, *ps.archive], "theater": ps.theaters,
                "award": []}[kind]
        if card in held:
            return p
    return None


def _alert(state: GameState, player: int, kind: str, card: str) -> Alert:
    name = state.names[player]
    if kind == "award":  # never name an award card in public
        return Alert("CARD_NOT_EXPECTED", f"An award card was tapped on {name}'s reader, "
                     f"but no award draw of {name}'s is waiting for it.",
                     "Put the award card back; award cards are tapped only when the "
                     "companion asks for a draw, on the drawing player's reader.", player,
                     params=card_params(state, player, kind, card))
    title = card_title(state, kind, card)
    owner = _owner(state, kind, card)
    if owner is not None:
        return Alert("CARD_ALREADY_OWNED", sentence(f"{title} was tapped on {name}'s reader, "
                     f"but it is already in {state.names[owner]}'s cinema."),
                     f"Put {title} back in {state.names[owner]}'s cinema.", player,
                     params=card_params(state, player, kind, card, owner=state.names[owner]))
    if kind in BUY_KINDS and state.phase == "buying":
        return Alert("CARD_NOT_IN_MARKET", sentence(f"{title} was tapped on {name}'s reader to "
                     "buy it, but it is not in the market."), f"Put {title} back; only the {kind}s "
                     "face up in the market can be bought.", player,
                     params=card_params(state, player, kind, card))
    return Alert("CARD_NOT_EXPECTED", sentence(f"{title} was tapped on {name}'s reader, but "
                 f"no step expects that {kind} now ({state.phase} phase)."),
                 f"Put {title} back where it was.", player,
                 params=card_params(state, player, kind, card))
