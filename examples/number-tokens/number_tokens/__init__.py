"""Number Tokens on the Popcorn Companion hub: the game behind the game interface.

The required part (``NumberTokens``) and four small parts: its options (how many rounds,
whether the last token counts twice), its pieces (the twelve tokens, read by tag), its
words (templates and its own French, German and Japanese catalogs in ``i18n/``) and its
table screen (``web/``). Records, replays, scores on the command line and the archive come
from the companion's defaults. ``pyproject.toml`` names :func:`game` as the entry point.
"""

from __future__ import annotations

from typing import Any

from companion.kit.alerts import Alert
from companion.kit.game import SECRET_EITHER, GameKind, Piece, PieceKind, PieceValue, Screens
from companion.kit.parts import Options, Pieces
from companion.kit.texts import N_, GameTexts

from .rules import TOKENS, Move, NumberViolation, State, move_from_dict

GAME_ID = "number-tokens"
"""The game's id: in the registry of pieces, records, URLs and its catalogs' name."""

ALERTS = {
    "UNKNOWN_TAG": (N_("An unknown tag was tapped on {name}'s reader."),
                    N_("Enroll the box's tokens first, or put that tag away.")),
    "NOT_A_NUMBER_TOKEN": (N_("{name} tapped a piece of another game."),
                           N_("Put it back in its own box.")),
    "NOT_YOUR_TURN": (N_("{name} played a token out of turn."),
                      N_("Take it back: it is another player's turn.")),
    "ALREADY_PLAYED": (N_("Token {token} was played already."),
                       N_("Take it back and play a token still in the box.")),
    "GAME_OVER": (N_("The game is over: {name} tapped a token."),
                  N_("Put it back in the box.")),
}
"""The alerts a tap may raise, each with its message and its fix (English, marked)."""

TEXTS = GameTexts(
    refusals={"NOT_YOUR_TURN": N_("It is another player's turn."),
              "ALREADY_PLAYED": N_("Token {token} was played already."),
              "NO_SUCH_TOKEN": N_("There is no token {token}."),
              "GAME_OVER": N_("The game is over."),
              "BAD_MOVE": N_("A play names its player and its token as numbers."),
              "UNKNOWN_MOVE": N_("The only move is to play a token.")},
    alerts=ALERTS, numbers=("token",),
    catalogs=GameTexts.catalogs_in(__name__), domain=GAME_ID)
"""Every sentence of the game, and where its translations are."""


class NumberOptions(Options):
    """How many tokens each player plays, and whether the last one counts twice: the
    schema is all there is (the default check reads it)."""

    schema = {"type": "object", "description": N_("Each player taps tokens on their own reader."),
              "properties": {
                  "rounds": {"title": N_("Tokens per player"), "type": "integer",
                             "minimum": 1, "maximum": 3, "default": 3},
                  "double_last": {"title": N_("The last token counts twice"),
                                  "type": "boolean", "default": False}}}


class NumberPieces(Pieces):
    """The twelve tokens, one kind; a tap is a play, whatever the rules then say of it."""

    alert_codes = {code: message for code, (message, _) in ALERTS.items()}

    def kinds(self) -> tuple[PieceKind, ...]:
        """One kind: tokens 1 to 12, one of each."""
        return (PieceKind("token", N_("number token"),
                          tuple(PieceValue(n, str(n)) for n in TOKENS)),)

    def read(self, state: State, seat: int, piece: Piece | None, uid: str,
             names: list[str]) -> Move | Alert:
        """A token of this game is a play by the reader's seat (the rules refuse it if it is
        not that seat's turn, or the token was played); anything else is an alert."""
        params = {"name": names[seat], "player": seat}
        if piece is None:
            return _alert("UNKNOWN_TAG", seat, {**params, "uid": uid})
        if piece.game != GAME_ID or piece.kind != "token":
            return _alert("NOT_A_NUMBER_TOKEN", seat, params)
        return Move(seat, int(piece.value if piece.value is not None else piece.id))


def _alert(code: str, seat: int, params: dict[str, Any]) -> Alert:
    message, fix = ALERTS[code]
    return Alert(code, message.format(**params), fix, seat, params=params)


class NumberTokens(GameKind[State, Move]):
    """The required part: who the game is, a new state, reading a move, who may send one,
    the views and the scores."""

    id = GAME_ID
    title = N_("Number Tokens")
    min_players, max_players = 2, 4
    violation = NumberViolation
    closes_secretly = True  # the tokens lie face down until the end

    def __init__(self) -> None:
        super().__init__()
        self.options = NumberOptions()
        self.pieces = NumberPieces()
        self.texts = TEXTS
        self.screens = Screens.in_package(__name__, table="table.js")

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> State:
        """No token played; the first player to play."""
        return State(len(players), first_player, options.get("rounds", 3),
                     options.get("double_last", False))

    def move_from_dict(self, data: Any) -> Move:
        """A play from its JSON."""
        return move_from_dict(data)

    def secret(self, state: State, move: Move) -> str | None:
        """A play is the player's own (their phone) or the table's (its PIN)."""
        return SECRET_EITHER

    def public_view(self, state: State, names: list[str]) -> dict[str, Any]:
        """Whose turn, and how many tokens each has played: never which."""
        return {"game": GAME_ID, "names": names, "current": state.current,
                "rounds": state.rounds, "over": state.is_over,
                "played": [len(tokens) for tokens in state.played],
                "scores": self.scores(state, names)}

    def private_view(self, state: State, seat: int, names: list[str]) -> dict[str, Any]:
        """A seat's own tokens and total."""
        return {"game": GAME_ID, "seat": seat, "name": names[seat],
                "tokens": list(state.played[seat]), "total": state.totals()[seat]}

    def scores(self, state: State, names: list[str]) -> dict[str, Any] | None:
        """Everyone's tokens and total, and the winners, once the game is over."""
        if not state.is_over:
            return None
        totals = state.totals()
        return {"players": [{"name": name, "tokens": tokens, "total": total}
                            for name, tokens, total in zip(names, state.played, totals,
                                                           strict=True)],
                "winners": [n for n, t in zip(names, totals, strict=True) if t == max(totals)]}


def game() -> NumberTokens:
    """The entry point (``popcorn_companion.games``: ``number-tokens``)."""
    return NumberTokens()
