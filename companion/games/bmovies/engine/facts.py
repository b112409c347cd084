"""The facts of B Movies (token counts, clapboards, the Hidden Team chart...) as a value.

No number of the game is written in the engine's code: each comes from a :class:`Facts`,
built from the data document (``companion/games/bmovies/data/b-movies.json``) by
:meth:`Facts.from_dict`.
A printing with other counts, or a test with a tiny bucket, is then just another document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

YES, YES_BANG, NO = "yes", "yes!", "no"
"""The names of the three vote cards, as moves and records spell them."""
PER_CARD = "cards"
"""In the draws table: one token per Title card of the pitch (the Yes! card's reward)."""


class FactsError(ValueError):
    """The facts document is missing a key or holds an impossible value."""


@dataclass(frozen=True)
class Facts:
    """Every number and list the rules need, read once and never changed."""

    token_counts: tuple[int, ...]
    min_players: int
    max_players: int
    clapboards: dict[int, int]
    pitch_min: int
    pitch_max: int
    vote_cards: tuple[str, ...]
    studios: int
    studio_copies: int
    hidden_deal: dict[int, tuple[int, ...]]
    title_max: int
    hand_size: int
    single_use: tuple[str, ...]
    draws: dict[str, dict[str, int | str]]
    card_points: int
    unmatched_factor: int
    notes: str = field(default="", compare=False)

    def __hash__(self) -> int:  # the dict fields are never changed: hash the scalars
        return hash((self.token_counts, self.min_players, self.max_players, self.pitch_min,
                     self.pitch_max, self.vote_cards, self.studios, self.studio_copies))

    @property
    def tokens_total(self) -> int:
        """How many tokens the bucket holds at the start (98 in the box)."""
        return sum(self.token_counts)

    @property
    def values(self) -> range:
        """The token values, 0 up to the highest."""
        return range(len(self.token_counts))

    def token_value(self, token: int) -> int:
        """The value of physical token ``token``: ids run through the values in ascending
        order, so a reader's registry only needs the id to know what was drawn."""
        if not 0 <= token < self.tokens_total:
            raise ValueError(f"no token {token}")
        for value, count in enumerate(self.token_counts):
            if token < count:
                return value
            token -= count
        raise AssertionError("unreachable")

    def draws_for(self, vote: str, made: bool, cards: int) -> int:
        """How many tokens a producer who revealed ``vote`` draws after the tally."""
        rule = self.draws["made" if made else "rejected"][vote]
        return cards if rule == PER_CARD else int(rule)

    def to_dict(self) -> dict[str, Any]:
        """The data document these facts were read from (keys as in the JSON file)."""
        return {
            "notes": self.notes,
            "players": {"min": self.min_players, "max": self.max_players},
            "tokens": list(self.token_counts),
            "clapboards": {str(k): v for k, v in sorted(self.clapboards.items())},
            "hand_size": self.hand_size,
            "pitch": {"min": self.pitch_min, "max": self.pitch_max},
            "title_max_chars": self.title_max,
            "vote_cards": list(self.vote_cards),
            "single_use": list(self.single_use),
            "draws": {k: dict(v) for k, v in self.draws.items()},
            "studios": self.studios,
            "studio_copies": self.studio_copies,
            "hidden_deal": {str(k): list(v) for k, v in sorted(self.hidden_deal.items())},
            "scoring": {"points_per_movie_card": self.card_points,
                        "unmatched_factor": self.unmatched_factor},
        }

    @classmethod
    def from_dict(cls, data: Any) -> Facts:
        """Read the data document; raises :class:`FactsError` naming the first bad key."""
        try:
            facts = cls._read(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, FactsError):
                raise
            raise FactsError(f"bad B Movies facts document: {exc!r}") from exc
        _check(facts)
        return facts

    @classmethod
    def _read(cls, d: dict[str, Any]) -> Facts:
        return cls(
            token_counts=tuple(_nat(v, "tokens") for v in d["tokens"]),
            min_players=_nat(d["players"]["min"], "players.min"),
            max_players=_nat(d["players"]["max"], "players.max"),
            clapboards={int(k): _nat(v, "clapboards") for k, v in d["clapboards"].items()},
            pitch_min=_nat(d["pitch"]["min"], "pitch.min"),
            pitch_max=_nat(d["pitch"]["max"], "pitch.max"),
            vote_cards=tuple(str(v) for v in d["vote_cards"]),
            studios=_nat(d["studios"], "studios"),
            studio_copies=_nat(d["studio_copies"], "studio_copies"),
            hidden_deal={int(k): tuple(_nat(c, "hidden_deal") for c in v)
                         for k, v in d["hidden_deal"].items()},
            title_max=_nat(d["title_max_chars"], "title_max_chars"),
            hand_size=_nat(d["hand_size"], "hand_size"),
            single_use=tuple(str(v) for v in d["single_use"]),
            draws={str(k): dict(v) for k, v in d["draws"].items()},
            card_points=_nat(d["scoring"]["points_per_movie_card"], "scoring"),
            unmatched_factor=_nat(d["scoring"]["unmatched_factor"], "scoring"),
            notes=str(d.get("notes", "")),
        )


def _nat(value: Any, key: str) -> int:
    if type(value) is not int or value < 0:
        raise FactsError(f"{key}: {value!r} is not a non-negative integer")
    return value


def _check(f: Facts) -> None:
    counts = range(f.min_players, f.max_players + 1)
    if not f.token_counts or f.tokens_total == 0:
        raise FactsError("tokens: the bucket holds no token")
    if set(f.vote_cards) != {YES, YES_BANG, NO} or not set(f.single_use) <= set(f.vote_cards):
        raise FactsError(f"vote_cards must be {YES!r}, {YES_BANG!r} and {NO!r}")
    if not 0 < f.min_players <= f.max_players or not 0 < f.pitch_min <= f.pitch_max:
        raise FactsError("players and pitch need 0 < min <= max")
    for n in counts:
        if n not in f.clapboards or n not in f.hidden_deal:
            raise FactsError(f"clapboards and hidden_deal need an entry for {n} players")
        chart = f.hidden_deal[n]
        if sum(chart) != n or len(chart) > f.studios or max(chart) > f.studio_copies:
            raise FactsError(f"hidden_deal for {n} players does not give one card each")
    for outcome in ("made", "rejected"):
        rules = f.draws.get(outcome, {})
        if set(rules) != set(f.vote_cards) or not all(
                v == PER_CARD or (type(v) is int and v >= 0) for v in rules.values()):
            raise FactsError(f"draws.{outcome} needs a count or {PER_CARD!r} per vote card")
