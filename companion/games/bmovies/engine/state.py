"""The state of a B Movies game, and the rules that change it.

A game is a :class:`State` built by :func:`new_game` and changed only by :meth:`State.apply`.
Every move is checked completely before anything changes, so a refused move (a
:class:`Violation`) leaves the state exactly as it was; then the automatic steps run
(:func:`settle`): the reveal when the last producer's vote is in, the end of a turn when every
owed token is reported, a clapboard at the start of each round, the Final Cut when none is
left. Chance is input: the engine lists what may happen (:meth:`State.chance_outcomes`) and
the table (or a seeded simulator) says what did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from .bounds import tally
from .facts import Facts
from .moves import FIELDS, Move, check_fields
from .violations import Params, Violation, require

STANDARD, HIDDEN = "standard", "hidden"
"""The two variants: studios face up as markers, or dealt secretly to form teams."""
VARIANTS = (STANDARD, HIDDEN)
"""Every variant :func:`new_game` accepts."""
PHASES = ("setup", "pitch", "vote", "draw", "over")
"""The phases, in the order a turn goes through them (setup only before round 1)."""


def _seats(d: dict[int, Any]) -> dict[str, Any]:
    return {str(k): d[k] for k in sorted(d)}


def _ints(d: dict[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in d.items()}


@dataclass(frozen=True)
class Pitch:
    """The pitch on the table (``None`` between turns): how many Title cards, and the title
    as typed (if any)."""

    cards: int
    title: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"cards", "title"}``, the title ``None`` when nobody typed it."""
        return {"cards": self.cards, "title": self.title}


@dataclass(frozen=True)
class Movie:
    """A made movie: its card count scores and breaks ties, its title is read aloud."""

    cards: int
    title: str | None
    round: int

    def to_dict(self) -> dict[str, Any]:
        """``{"cards", "title", "round"}``."""
        return {"cards": self.cards, "title": self.title, "round": self.round}


@dataclass(frozen=True)
class Reveal:
    """A turn's revealed votes and what they decided: kept public until the next pitch."""

    votes: dict[int, str]
    yes: int
    no: int
    made: bool
    draws: dict[int, int]
    """Tokens owed to each producer by this reveal (before an empty bucket cancels any)."""

    def to_dict(self) -> dict[str, Any]:
        """``{"votes": {"<seat>": vote}, "yes", "no", "made", "draws": {"<seat>": n}}``."""
        return {"votes": _seats(self.votes), "yes": self.yes, "no": self.no,
                "made": self.made, "draws": _seats(self.draws)}


@dataclass(frozen=True)
class Turn:
    """A finished turn, as the history keeps it: the pitch, its reveal, and what was drawn."""

    round: int
    screenwriter: int
    pitch: Pitch
    reveal: Reveal
    received: dict[int, int]
    """Tokens each producer actually drew (fewer than owed when the bucket ran dry)."""

    def to_dict(self) -> dict[str, Any]:
        """The turn flattened: round, screenwriter, cards, title, votes, yes, no, made,
        draws (owed) and received."""
        return {"round": self.round, "screenwriter": self.screenwriter, **self.pitch.to_dict(),
                **self.reveal.to_dict(), "received": _seats(self.received)}


@dataclass(eq=True)
class State:
    """Everything the rules need to know about a game in progress.

    ``votes`` (before the reveal), ``piles`` and ``studios`` are secret at a table: views
    built for players must hide them (the hub's views do). Equal states give equal
    :meth:`to_dict` documents.
    """

    facts: Facts
    n: int
    variant: str
    first_player: int
    phase: str
    round: int
    rounds: int
    clapboards: int
    screenwriter: int
    bucket: list[int]
    hands: list[tuple[str, ...]]
    owed: list[int]
    received: list[int]
    piles: list[list[int]]
    pile_tokens: list[list[int]]
    movies: list[list[Movie]]
    studios: list[int] | None = None
    pitch: Pitch | None = None
    votes: dict[int, str] = field(default_factory=dict)
    reveal: Reveal | None = None
    history: list[Turn] = field(default_factory=list)

    # --- questions -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the Final Cut has been reached (no clapboard left at a round's start)."""
        return self.phase == "over"

    @property
    def drawn(self) -> dict[int, int]:
        """Physical tokens reported by id, with the seat whose pile holds each."""
        return {t: p for p, tokens in enumerate(self.pile_tokens) for t in tokens}

    def producers(self) -> list[int]:
        """Every seat but the screenwriter's: they vote on the current pitch."""
        return [p for p in range(self.n) if p != self.screenwriter]

    def voted(self) -> list[int]:
        """Seats whose vote is in (not what they voted: that stays secret until the reveal)."""
        return sorted(self.votes)

    def waiting_players(self) -> list[int]:
        """Who must act now: the screenwriter to pitch, producers yet to vote, players still
        owed tokens. Empty during setup (the table deals) and when the game is over."""
        if self.phase == "pitch":
            return [self.screenwriter]
        if self.phase == "vote":
            return [p for p in self.producers() if p not in self.votes]
        if self.phase == "draw":
            return [p for p in range(self.n) if self.owed[p]]
        return []

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """Every decision that may be applied now (only ``player``'s, if given), in a fixed
        order. A producer who voted may vote again until the reveal, so they are listed too.
        Titles are free text, so a listed pitch has none."""
        moves: list[Move] = []
        if self.phase == "pitch" and player in (None, self.screenwriter):
            f = self.facts
            moves = [Move("pitch", player=self.screenwriter, cards=c)
                     for c in range(f.pitch_min, f.pitch_max + 1)]
        elif self.phase == "vote":
            moves = [Move("vote", player=p, vote=card) for p in self.producers()
                     if player in (None, p) for card in self.hands[p]]
        return moves

    def chance_outcomes(self, player: int | None = None) -> list[Move]:
        """Every chance outcome the table may report now (``player`` filters).

        A draw is listed once per value left in the bucket, without a token id (a value is
        what the rules need; a tag adds the id). Before round 1 of a Hidden Team game, every
        deal the chart allows is listed. The list does not weigh outcomes: a draw of a value
        with more tokens left is likelier, which the simulator takes into account.
        """
        if self.phase == "draw":
            values = [v for v in self.facts.values if self.bucket[v]]
            return [Move("draw_token", player=p, value=v) for p in range(self.n)
                    if self.owed[p] and player in (None, p) for v in values]
        if self.phase == "setup" and player is None:
            return [Move("deal_studios", studios=deal) for deal in studio_deals(self.facts, self.n)]
        return []

    # --- changes ---------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Apply ``move``, or raise :class:`Violation` and change nothing.

        After a legal move the automatic steps run (:func:`settle`), so the last vote
        reveals at once, and the last owed draw passes the turn on: ask
        :meth:`legal_moves`, :meth:`chance_outcomes` or :meth:`waiting_players` what
        comes next.
        """
        try:
            require(self.phase != "over", "GAME_OVER",
                    "The game is over: the Final Cut has been reached.")
            check_fields(move)
            CHECKS[move.kind](self, move)
        except Violation as exc:
            exc.params = {**move_params(move), **exc.params}
            raise
        EFFECTS[move.kind](self, move)
        settle(self)

    def clone(self) -> State:
        """An independent copy: applying moves to it never changes this state."""
        return State(
            self.facts, self.n, self.variant, self.first_player, self.phase, self.round,
            self.rounds, self.clapboards, self.screenwriter, list(self.bucket),
            list(self.hands), list(self.owed), list(self.received),
            [list(p) for p in self.piles], [list(p) for p in self.pile_tokens],
            [list(m) for m in self.movies], None if self.studios is None else list(self.studios),
            self.pitch, dict(self.votes), self.reveal, list(self.history))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able document of the whole state, secrets included (see :meth:`from_dict`)."""
        return {
            "facts": self.facts.to_dict(), "n": self.n, "variant": self.variant,
            "first_player": self.first_player, "phase": self.phase, "round": self.round,
            "rounds": self.rounds, "clapboards": self.clapboards,
            "screenwriter": self.screenwriter, "bucket": list(self.bucket),
            "hands": [list(h) for h in self.hands], "owed": list(self.owed),
            "received": list(self.received), "piles": [list(p) for p in self.piles],
            "pile_tokens": [list(p) for p in self.pile_tokens],
            "movies": [[m.to_dict() for m in ms] for ms in self.movies],
            "studios": None if self.studios is None else list(self.studios),
            "pitch": None if self.pitch is None else self.pitch.to_dict(),
            "votes": _seats(self.votes),
            "reveal": None if self.reveal is None else self.reveal.to_dict(),
            "history": [t.to_dict() for t in self.history],
        }

    @classmethod
    def from_dict(cls, data: Any) -> State:
        """Rebuild a state from :meth:`to_dict`; raises ``BAD_STATE`` on a malformed one."""
        try:
            return _state_from(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Violation("BAD_STATE", f"Not a B Movies state document: {exc!r}.") from exc


# --- setup ----------------------------------------------------------------------------


def new_game(facts: Facts, n_players: int, first_player: int = 0,
             variant: str = STANDARD) -> State:
    """A game before round 1. A standard game starts round 1 at once (the first player
    discards a clapboard); a Hidden Team game waits in ``setup`` for ``deal_studios``."""
    lo, hi = facts.min_players, facts.max_players
    require(type(n_players) is int and lo <= n_players <= hi, "BAD_SETUP",
            lambda: f"B Movies is for {lo} to {hi} players, not {n_players}.",
            {"players": n_players if type(n_players) is int else None, "min": lo, "max": hi})
    require(type(first_player) is int and 0 <= first_player < n_players, "BAD_SETUP",
            lambda: f"The first player must be a seat from 0 to {n_players - 1}.",
            {"first_player": first_player if type(first_player) is int else None})
    require(variant in VARIANTS, "BAD_SETUP",
            lambda: f"Unknown variant {variant!r}: it is 'standard' or 'hidden'.",
            {"variant": str(variant)})
    n = n_players
    state = State(
        facts, n, variant, first_player, "setup", 0, facts.clapboards[n],
        facts.clapboards[n], first_player, list(facts.token_counts),
        [facts.vote_cards] * n, [0] * n, [0] * n, [[] for _ in range(n)],
        [[] for _ in range(n)], [[] for _ in range(n)])
    settle(state)
    return state


def studio_deals(facts: Facts, n: int) -> list[tuple[int, ...]]:
    """Every deal of studio cards to ``n`` seats that the Hidden Team chart allows, sorted."""
    chart = facts.hidden_deal[n]
    deals: set[tuple[int, ...]] = set()
    for chosen in permutations(range(facts.studios), len(chart)):
        cards = [s for s, copies in zip(chosen, chart, strict=True) for _ in range(copies)]
        deals.update(permutations(cards))
    return sorted(deals)


# --- checks: raise a Violation, change nothing -------------------------------------------


def move_params(move: Move) -> Params:
    """The refused move's own fields, which every violation's ``params`` carry."""
    params: Params = {k: v for k, v in move.to_dict().items()
                      if k != "move" and not isinstance(v, list)}
    params["move"] = move.kind
    return params


def _check_seat(s: State, move: Move) -> int:
    seat = move.player
    assert seat is not None  # check_fields made sure of it
    require(seat < s.n, "BAD_MOVE", lambda: f"There is no player {seat} at this table.",
            {"player": seat})
    return seat


def _check_pitch(s: State, move: Move) -> None:
    seat = _check_seat(s, move)
    require(s.phase != "draw", "DRAWS_PENDING",
            lambda: f"Tokens are still owed ({sum(s.owed)}): report the draws first.",
            {"owed": sum(s.owed)})
    require(s.phase == "pitch", "WRONG_PHASE",
            lambda: f"No pitch now: the game is in its {s.phase} phase.", {"phase": s.phase})
    require(seat == s.screenwriter, "NOT_YOUR_TURN",
            lambda: f"It is player {s.screenwriter}'s turn to pitch, not player {seat}'s.",
            {"screenwriter": s.screenwriter})
    f, cards, title = s.facts, move.cards, move.title
    assert cards is not None
    require(f.pitch_min <= cards <= f.pitch_max, "BAD_PITCH_SIZE",
            lambda: f"A pitch is {f.pitch_min} to {f.pitch_max} Title cards, not {cards}.",
            {"min": f.pitch_min, "max": f.pitch_max})
    require(title is None or len(title) <= f.title_max, "TITLE_TOO_LONG",
            lambda: f"A title is at most {f.title_max} characters; this one has "
            f"{len(title or '')}.", {"max": f.title_max, "length": len(title or "")})


def _check_vote(s: State, move: Move) -> None:
    seat = _check_seat(s, move)
    require(s.phase == "vote", "WRONG_PHASE",
            lambda: f"No vote now: the game is in its {s.phase} phase.", {"phase": s.phase})
    require(seat != s.screenwriter, "NOT_A_PRODUCER",
            lambda: f"Player {seat} is the screenwriter and does not vote on their own pitch.")
    cards, vote = s.facts.vote_cards, move.vote
    require(vote in cards, "BAD_VOTE",
            lambda: f"{vote!r} is not a vote card: the cards are {', '.join(cards)}.")
    require(vote in s.hands[seat], "VOTE_CARD_GONE",
            lambda: f"Player {seat} no longer holds a {vote!r} card: it was used already.")


def _check_draw(s: State, move: Move) -> None:
    seat, f, value, token = _check_seat(s, move), s.facts, move.value, move.token
    assert value is not None
    require(s.phase == "draw", "WRONG_PHASE",
            lambda: f"No draw now: the game is in its {s.phase} phase.", {"phase": s.phase})
    require(s.reveal is not None and s.reveal.draws.get(seat, 0) > 0, "NO_DRAW_OWED",
            lambda: f"Player {seat} is owed no token this turn.")
    require(s.owed[seat] > 0, "DRAW_BEYOND_OWED",
            lambda: f"Player {seat} has already drawn every token they were owed this turn.",
            {"owed": s.reveal.draws[seat] if s.reveal else 0})
    require(value in f.values, "BAD_MOVE",
            lambda: f"Tokens are worth 0 to {len(f.token_counts) - 1}, not {value}.",
            {"max": len(f.token_counts) - 1})
    if token is not None:
        require(token < f.tokens_total, "BAD_MOVE",
                lambda: f"Tokens are numbered 0 to {f.tokens_total - 1}, not {token}.",
                {"max": f.tokens_total - 1})
        owner = s.drawn.get(token)
        require(owner is None, "TOKEN_ALREADY_DRAWN",
                lambda: f"Token {token} is already in player {owner}'s pile.", {"owner": owner})
        actual = f.token_value(token)
        require(actual == value, "TOKEN_VALUE_MISMATCH",
                lambda: f"Token {token} is worth {actual}, not {value}.", {"actual": actual})
    require(s.bucket[value] > 0, "NO_TOKEN_OF_VALUE",
            lambda: f"No token worth {value} is left in the bucket.")


def _check_deal(s: State, move: Move) -> None:
    require(s.variant == HIDDEN, "WRONG_PHASE",
            "Studios are dealt only in the Hidden Team variant.", {"variant": s.variant})
    require(s.phase == "setup", "WRONG_PHASE",
            "The studios were dealt already, before round 1.", {"phase": s.phase})
    deal, f = move.studios or (), s.facts
    chart = sorted(f.hidden_deal[s.n], reverse=True)
    copies = sorted((deal.count(x) for x in set(deal)), reverse=True)
    require(len(deal) == s.n and all(x < f.studios for x in deal) and copies == chart,
            "BAD_STUDIO_DEAL",
            lambda: f"With {s.n} players the deal gives one studio card to each seat "
            f"(studios 0 to {f.studios - 1}), in copies {', '.join(map(str, chart))}.",
            {"players": s.n, "chart": "+".join(map(str, chart))})


CHECKS: dict[str, Callable[[State, Move], None]] = {
    "pitch": _check_pitch, "vote": _check_vote,
    "draw_token": _check_draw, "deal_studios": _check_deal,
}
"""For each move kind, the function that refuses an illegal one (and changes nothing)."""

# --- effects: the move is legal ---------------------------------------------------------


def _do_pitch(s: State, move: Move) -> None:
    assert move.cards is not None
    s.pitch, s.votes, s.reveal, s.phase = Pitch(move.cards, move.title), {}, None, "vote"


def _do_vote(s: State, move: Move) -> None:
    assert move.player is not None and move.vote is not None
    s.votes[move.player] = move.vote  # a second vote before the reveal replaces the first


def _do_draw(s: State, move: Move) -> None:
    seat, value = move.player, move.value
    assert seat is not None and value is not None
    s.bucket[value] -= 1
    s.piles[seat].append(value)
    if move.token is not None:
        s.pile_tokens[seat].append(move.token)
    s.owed[seat] -= 1
    s.received[seat] += 1


def _do_deal(s: State, move: Move) -> None:
    assert move.studios is not None
    s.studios = list(move.studios)


EFFECTS: dict[str, Callable[[State, Move], None]] = {
    "pitch": _do_pitch, "vote": _do_vote, "draw_token": _do_draw, "deal_studios": _do_deal,
}
"""For each move kind, what a legal move changes."""
assert set(CHECKS) == set(EFFECTS) == set(FIELDS)

# --- the automatic steps ------------------------------------------------------------------


def settle(s: State) -> None:
    """Run every step that needs no one's decision, until someone must act.

    The round start (a clapboard discarded, or the Final Cut), the reveal once every
    producer voted, and the end of a turn once nothing is owed or the bucket is empty (an
    empty bucket gives nothing, clarification 6).
    """
    if s.phase == "setup" and (s.variant == STANDARD or s.studios is not None):
        _start_round(s)
    if s.phase == "vote" and len(s.votes) == s.n - 1:
        _reveal(s)
    if s.phase == "draw" and (not any(s.owed) or not any(s.bucket)):
        _end_turn(s)


def _start_round(s: State) -> None:
    if not s.clapboards:
        s.phase = "over"
        return
    s.clapboards -= 1
    s.round += 1
    s.screenwriter, s.phase = s.first_player, "pitch"


def _reveal(s: State) -> None:
    assert s.pitch is not None
    f, votes = s.facts, dict(s.votes)
    yes, no, made = tally(votes.values())
    draws = {p: f.draws_for(v, made, s.pitch.cards) for p, v in votes.items()}
    s.reveal = Reveal(votes, yes, no, made, draws)
    for p, v in votes.items():
        if v in f.single_use:  # Yes! leaves the game once revealed, whatever the outcome
            s.hands[p] = tuple(c for c in s.hands[p] if c != v)
    if made:
        s.movies[s.screenwriter].append(Movie(s.pitch.cards, s.pitch.title, s.round))
    s.owed = [draws.get(p, 0) for p in range(s.n)]
    s.votes, s.phase = {}, "draw"


def _end_turn(s: State) -> None:
    assert s.pitch is not None and s.reveal is not None
    received = {p: s.received[p] for p in s.reveal.votes}
    s.history.append(Turn(s.round, s.screenwriter, s.pitch, s.reveal, received))
    s.owed, s.received, s.pitch = [0] * s.n, [0] * s.n, None  # the reveal stays in view
    following = (s.screenwriter + 1) % s.n
    if following == s.first_player:
        _start_round(s)
    else:
        s.screenwriter, s.phase = following, "pitch"


# --- reading a state document ---------------------------------------------------------


def _reveal_from(d: dict[str, Any]) -> Reveal:
    return Reveal(_ints(d["votes"]), d["yes"], d["no"], d["made"], _ints(d["draws"]))


def _turn_from(d: dict[str, Any]) -> Turn:
    return Turn(d["round"], d["screenwriter"], Pitch(d["cards"], d["title"]), _reveal_from(d),
                _ints(d["received"]))


def _state_from(d: dict[str, Any]) -> State:
    pitch, reveal, studios = d["pitch"], d["reveal"], d["studios"]
    return State(
        Facts.from_dict(d["facts"]), d["n"], d["variant"], d["first_player"], d["phase"],
        d["round"], d["rounds"], d["clapboards"], d["screenwriter"], list(d["bucket"]),
        [tuple(h) for h in d["hands"]], list(d["owed"]), list(d["received"]),
        [list(p) for p in d["piles"]], [list(p) for p in d["pile_tokens"]],
        [[Movie(m["cards"], m["title"], m["round"]) for m in ms] for ms in d["movies"]],
        None if studios is None else list(studios),
        None if pitch is None else Pitch(pitch["cards"], pitch["title"]),
        _ints(d["votes"]), None if reveal is None else _reveal_from(reveal),
        [_turn_from(t) for t in d["history"]])
