"""B Movies (a party game for 3 to 6 players) behind the hub's game interface.

The rules are the pure engine in :mod:`.engine` (see ``docs/b-movies.md``); this module
tells the hub what a table of B Movies needs: its options (the variant, and whether the hub
deals the hidden studios or the table enters them), which secret each move needs (a vote or
a hand-reported token is the player's phone's, or one person's at the tablet with the
table's PIN), the public and private views (:mod:`.views`), how a token's tap is read
(:mod:`.tags`) and the record (:mod:`.record`).
"""

from __future__ import annotations

from typing import Any

from companion.kit.errors import TableError
from companion.kit.game import SECRET_EITHER, SECRET_PIN, GameKind, TagThing

from . import tags, views
from .engine import Facts, Move, State, Violation, final_cut, move_from_dict, new_game
from .facts_file import load_facts
from .record import Record, dumps_record

VARIANTS = ("standard", "hidden")
"""The standard game, and the Hidden Team variant (secret studios)."""
STUDIO_DEALS = ("deal", "entered")
"""Hidden Team: the hub deals the studios to the phones in secret, or the table deals the
cardboard cards and enters them with the PIN."""


class BMovies(GameKind):
    """B Movies: pitches, secret votes on the phones, popcorn tokens read by tag."""

    id = "b-movies"
    title = "B Movies"
    violation = Violation
    auto_deal_kinds = frozenset({"deal_studios"})
    closes_secretly = True

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.min_players, self.max_players = facts.min_players, facts.max_players

    @classmethod
    def from_file(cls) -> BMovies:
        """B Movies on the facts shipped with the package (``companion/data/b-movies.json``)."""
        return cls(load_facts())

    def options(self, body: dict[str, Any], players: int) -> dict[str, Any]:
        """``variant`` (standard by default) and, for Hidden Team, ``studios`` (``deal``:
        the hub deals in secret, the default; ``entered``: from the cardboard, with the PIN)."""
        variant = body.get("variant", "standard")
        if variant not in VARIANTS:
            raise TableError("BAD_REQUEST", f"variant must be one of {', '.join(VARIANTS)}",
                             params={"variants": list(VARIANTS)})
        studios = body.get("studios", "deal")
        if studios not in STUDIO_DEALS:
            raise TableError("BAD_REQUEST", f"studios must be one of {', '.join(STUDIO_DEALS)}",
                             params={"studios": list(STUDIO_DEALS)})
        return {"variant": variant, **({"studios": studios} if variant == "hidden" else {})}

    def deals_secretly(self, options: dict[str, Any]) -> bool:
        """Hidden Team with the hub dealing: the studios go to the phones unseen."""
        return options.get("variant") == "hidden" and options.get("studios") == "deal"

    def new_state(self, players: list[str], first_player: int,
                  options: dict[str, Any]) -> State:
        """A game about to start its first round (or to deal its studios, Hidden Team)."""
        return new_game(self.facts, len(players), first_player,
                        options.get("variant", "standard"))

    def move_from_dict(self, data: Any, legacy: bool = False) -> Move:
        """A B Movies move from its JSON form (there is no older form)."""
        return move_from_dict(data)

    def secret(self, state: State, move: Move) -> str | None:
        """A vote and a hand-reported token: the player's phone, or the tablet with the PIN;
        a studio deal entered from the cardboard: the PIN; a pitch: anyone at the tablet."""
        if move.kind == "vote" or (move.kind == "draw_token"):
            return SECRET_EITHER
        if move.kind == "deal_studios":
            return SECRET_PIN
        return None

    def public_view(self, state: State, names: list[str]) -> dict[str, Any]:
        """See :func:`.views.public_view`: no vote before the reveal, no token value."""
        return views.public_view(state, names)

    def private_view(self, state: State, seat: int, names: list[str]) -> dict[str, Any]:
        """See :func:`.views.private_view`."""
        return views.private_view(state, seat, names)

    def scores(self, state: State, names: list[str]) -> dict[str, Any] | None:
        """The Final Cut (tokens, movies, teams, winners, tie-break) once the game is over."""
        return views.named(final_cut(state).to_dict(), names) if state.is_over else None

    def read_tag(self, state: State, seat: int, thing: TagThing | None, uid: str,
                 names: list[str], tapped: frozenset[int] = frozenset()) -> Any:
        """A token tapped on a player's pad: a draw, or an alert (:mod:`.tags`). Tokens of
        one value are told apart by their tags' ids, so ``tapped`` changes nothing."""
        return tags.read_tag(state, self.facts, seat, thing, uid, names)

    def record_text(self, names: list[str], first_player: int, options: dict[str, Any],
                    moves: list[Move]) -> str:
        """A B Movies record (``docs/b-movies.md``): header with ``"game": "b-movies"``."""
        return dumps_record(Record(tuple(names), first_player,
                                   options.get("variant", "standard"), moves))
