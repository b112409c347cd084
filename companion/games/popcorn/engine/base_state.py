"""Everything on the table of one game of Popcorn, and the questions it answers: no rules.

:class:`BaseState` holds the whole table: where each of the 60 pawns is, the decks and rows,
each cinema, money, popcorn, the audience tracks, the advertising board, the awards, whose
turn it is and which steps are pending. Its methods answer questions about it (``pawns_at``,
``occupant``, ``owned_pawns``, ``draw_value``, ...) and keep the pawn indexes in step
(:meth:`BaseState.move_pawn`). :class:`PlayerState`, :class:`Showing` and :class:`Task` are
its parts.

This module is the bottom of the engine's rules: the rule modules (:mod:`.buying`,
:mod:`.showings`, :mod:`.tasks`, :mod:`.flow`, :mod:`.game`, ...) import it and change a
``BaseState`` in place, and it imports none of them. The class programs use,
:class:`~.state.GameState`, is a ``BaseState`` with the rules' entry points (``apply``,
``legal_moves``, ...) and its JSON form added on top, after python-chess's ``BaseBoard``
and ``Board``.

The state is mutable for speed, like python-chess's ``Board``: a move changes it in place,
and :meth:`BaseState.clone` gives an independent copy of the same class.

Hidden order is not modelled: an unrevealed deck is a *pool* of possible cards (any of which
may come next) followed by a *queue* of cards whose order is known because players put them
under the deck. The movie deck also knows how many unknown cards lie above the Final
Showing card.
"""

from __future__ import annotations

from typing import Any, Self

from . import pawns as P
from .catalog import COLORS, Catalog, Movie, Theater


class PlayerState:
    """One player's cinema and belongings."""

    __slots__ = (
        "money", "popcorn", "audience", "tokens", "theaters", "movies", "covered", "used",
        "archive", "awards", "right_bonus_taken", "bought_movie", "bought_theater",
    )

    def __init__(self, money: int, theaters: list[str | None], tokens: int) -> None:
        self.money = money
        self.popcorn = 0
        self.audience = 0
        """Index of the audience cube on the track (0 draws the first space's value)."""
        self.tokens = tokens
        """Advertising tokens in the player's supply (not on the board)."""
        self.theaters: list[str | None] = theaters
        self.movies: list[str | None] = [None, None, None]
        self.covered = [0, 0, 0]
        """Action slots the lobby slider covers, per cinema slot."""
        self.used: list[set[int]] = [set(), set(), set()]
        """Movie-action indexes used this round, per cinema slot."""
        self.archive: list[str] = []
        self.awards: list[str] = []
        self.right_bonus_taken = False
        self.bought_movie = False
        self.bought_theater = False

    def clone(self) -> PlayerState:
        """An independent copy."""
        other = PlayerState.__new__(PlayerState)
        for name in PlayerState.__slots__:
            setattr(other, name, getattr(self, name))
        other.theaters = list(self.theaters)
        other.movies = list(self.movies)
        other.covered = list(self.covered)
        other.used = [set(u) for u in self.used]
        other.archive = list(self.archive)
        other.awards = list(self.awards)
        return other

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        data = {name: getattr(self, name) for name in PlayerState.__slots__}
        data["used"] = [sorted(u) for u in self.used]
        return data


class Showing:
    """A player's progress through the Showings phase."""

    __slots__ = ("to_draw", "active", "cursor", "seat_taken", "movie_taken", "activated", "left")

    def __init__(self, to_draw: int) -> None:
        self.to_draw = to_draw
        """Guests still to draw in Open Cinema."""
        self.active = -1
        """Slot of the theater being resolved, or -1."""
        self.cursor = -1
        """Seat index of the guest acting in the active theater."""
        self.seat_taken = False
        self.movie_taken = False
        self.activated = [False, False, False]
        """Theaters already resolved this showing."""
        self.left: list[Any] | None = None
        """The guest who left last: ``[slot, seat, pawn, took its movie action]`` (the pawn is
        None when it had left its seat before), so that a move still meant for it is refused
        for what it is (``MOVIE_ACTION_TAKEN``, ``MOVIE_COLOR``, ...)."""

    def clone(self) -> Showing:
        """An independent copy."""
        other = Showing.__new__(Showing)
        for name in Showing.__slots__:
            setattr(other, name, getattr(self, name))
        other.activated = list(self.activated)
        return other

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        data = {name: getattr(self, name) for name in Showing.__slots__}
        data["activated"] = list(self.activated)
        return data


class Task:
    """A pending step that must be resolved before its owner goes on.

    Kinds: ``deal_starting`` (chance), ``lineup`` (reveal movies until both rows are full),
    ``theater`` (reveal a tile into the column of ``size``), ``award`` (draw ``remaining``
    cards, then keep one of ``drawn``), ``gain`` (take a guest of ``color`` into a bag),
    ``bonus`` (choose the pawn for ``action``), ``draw_seat`` (draw a pawn, then seat it).
    """

    __slots__ = ("kind", "player", "color", "action", "size", "remaining", "drawn", "pawn")

    def __init__(self, kind: str, player: int | None = None, **fields: Any) -> None:
        self.kind = kind
        self.player = player
        self.color: str | None = fields.get("color")
        self.action: str | None = fields.get("action")
        self.size: int | None = fields.get("size")
        self.remaining: int = fields.get("remaining", 0)
        self.drawn: list[str] = list(fields.get("drawn", ()))
        self.pawn: int | None = fields.get("pawn")

    def clone(self) -> Task:
        """An independent copy."""
        other = Task.__new__(Task)
        for name in Task.__slots__:
            setattr(other, name, getattr(self, name))
        other.drawn = list(self.drawn)
        return other

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data, without empty fields."""
        data = {name: getattr(self, name) for name in Task.__slots__}
        return {k: v for k, v in data.items() if v is not None and v != []}


class BaseState:
    """Everything on the table, without the rules that change it.

    Programs use its subclass :class:`~.state.GameState`, built by :func:`~.setup.new_game`
    or :func:`~.state.from_dict`; the rule modules take a ``BaseState`` so that they need
    nothing above this module. Pawns live in ``loc`` (a location code per pawn id, see
    :mod:`.pawns`), with the indexes ``at``, ``seated`` and ``seated_count`` kept in step by
    :meth:`move_pawn`.
    """

    def __init__(self, catalog: Catalog, names: tuple[str, ...], first_player: int) -> None:
        self.catalog = catalog
        self.names = names
        self.n = len(names)
        self.pawn_color = P.pawn_colors(catalog.box, ("white", *COLORS))
        self.loc: list[int] = [P.BOX] * len(self.pawn_color)
        self.seated: dict[int, int] = {}
        """Seat location -> pawn id, kept in step with ``loc``."""
        self.seated_count = [0] * self.n
        """How many guests sit in each player's cinema, kept in step with ``seated``."""
        self.at: dict[int, set[int]] = {P.BOX: set(range(len(self.pawn_color)))}
        """Location -> pawn ids there, kept in step with ``loc``."""
        self.players: list[PlayerState] = []
        self.showings: list[Showing] = []
        self.phase = "setup"
        """One of ``setup``, ``buying``, ``showings``, ``over``."""
        self.round = 0
        self.first_player = first_player
        self.current = first_player
        """Whose Buying turn it is."""
        self.turns_left = 0
        self.features: list[str] = []
        self.premiers: list[str] = []
        self.movie_pool: list[str] = []
        self.above_final = 0
        """Unknown movie cards still above the Final Showing card."""
        self.final_revealed = False
        self.last_round = False
        self.theater_pool: dict[int, list[str]] = {}
        self.theater_queue: dict[int, list[str]] = {}
        self.columns: dict[int, list[str]] = {}
        self.award_pool: list[str] = []
        self.award_queue: list[str] = []
        self.starting_pool: list[str] = []
        self.board: list[tuple[int, str, int]] = []
        """Advertising tokens on the board: ``(owner, space, round placed)``."""
        self.tasks: list[Task] = []

    # -- copying and comparing -------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy of the same class that shares only the immutable catalog."""
        cls = type(self)
        other = cls.__new__(cls)
        other.__dict__.update(self.__dict__)
        other.loc = list(self.loc)
        other.seated = dict(self.seated)
        other.seated_count = list(self.seated_count)
        other.at = {k: set(v) for k, v in self.at.items()}
        other.players = [p.clone() for p in self.players]
        other.showings = [s.clone() for s in self.showings]
        other.features, other.premiers = list(self.features), list(self.premiers)
        other.movie_pool = list(self.movie_pool)
        other.theater_pool = {k: list(v) for k, v in self.theater_pool.items()}
        other.theater_queue = {k: list(v) for k, v in self.theater_queue.items()}
        other.columns = {k: list(v) for k, v in self.columns.items()}
        other.award_pool, other.award_queue = list(self.award_pool), list(self.award_queue)
        other.starting_pool = list(self.starting_pool)
        other.board = list(self.board)
        other.tasks = [t.clone() for t in self.tasks]
        return other

    # -- pawns -----------------------------------------------------------------------------

    def pawns_at(self, loc: int) -> list[int]:
        """Pawn ids at a location, lowest first."""
        here = self.at.get(loc)
        return sorted(here) if here else []

    def occupant(self, player: int, slot: int, index: int) -> int | None:
        """The pawn on a seat, or None."""
        return self.seated.get(P.seat(player, slot, index))

    def move_pawn(self, pawn: int, loc: int) -> None:
        """Put a pawn somewhere, keeping the seat index in step."""
        old = self.loc[pawn]
        if old >= P.FIRST_SEAT:
            del self.seated[old]
            self.seated_count[P.seat_owner(old)] -= 1
        if loc >= P.FIRST_SEAT:
            self.seated[loc] = pawn
            self.seated_count[P.seat_owner(loc)] += 1
        self.at[old].discard(pawn)
        here = self.at.get(loc)
        if here is None:
            self.at[loc] = {pawn}
        else:
            here.add(pawn)
        self.loc[pawn] = loc

    def cinema_pawns(self, player: int) -> list[int]:
        """A player's guests on seats or in the exit zone (never the bag)."""
        seats = [i for where, i in self.seated.items() if P.owner(where) == player]
        return sorted(self.pawns_at(P.exit_zone(player)) + seats)

    def owned_pawns(self, player: int) -> list[int]:
        """Every guest a player owns, wherever it is in their bag, hand, cinema or exit."""
        at = self.at
        mine = [*at.get(P.bag(player), ()), *at.get(P.hand(player), ()),
                *at.get(P.exit_zone(player), ())]
        mine += [i for where, i in self.seated.items() if P.seat_owner(where) == player]
        return sorted(mine)

    def where(self, pawn: int) -> str:
        """Where a pawn is, in words."""
        return P.describe(self.loc[pawn], self.names)

    # -- cinemas ---------------------------------------------------------------------------

    def theater(self, player: int, slot: int) -> Theater | None:
        """The theater in a slot, or None for an empty slot."""
        tid = self.players[player].theaters[slot]
        return self.catalog.all_theaters[tid] if tid else None

    def movie(self, player: int, slot: int) -> Movie | None:
        """The movie showing in a slot, or None."""
        mid = self.players[player].movies[slot]
        return self.catalog.movies[mid] if mid else None

    def visible_actions(self, player: int, slot: int) -> int:
        """How many action slots of the movie in ``slot`` the lobby slider leaves visible."""
        movie = self.movie(player, slot)
        if movie is None:
            return 0
        return max(0, len(movie.actions) - self.players[player].covered[slot])

    def draw_value(self, player: int) -> int:
        """How many guests the player draws at Open Cinema."""
        return self.catalog.audience_track[self.players[player].audience].draw

    def movies_owned(self, player: int) -> list[str]:
        """Every movie the player has owned: the archive and the movies showing."""
        ps = self.players[player]
        return ps.archive + [m for m in ps.movies if m]

    # -- turn structure --------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether final scoring has been reached."""
        return self.phase == "over"

    def front_tasks(self) -> list[Task]:
        """The pending steps that can be resolved now (one per player during Showings)."""
        if not self.tasks:
            return []
        if self.phase != "showings":
            return [self.tasks[0]]
        seen: set[int | None] = set()
        fronts = []
        for task in self.tasks:
            if task.player not in seen:
                seen.add(task.player)
                fronts.append(task)
        return fronts

    def task_for(self, player: int | None) -> Task | None:
        """The pending step that blocks ``player``, if any.

        Outside the Showings that is the first pending step, whoever it belongs to; during the
        Showings, the first one that is the player's own or shared (the front of their queue).
        """
        if not self.tasks:
            return None
        if self.phase != "showings":
            return self.tasks[0]
        for task in self.tasks:
            if task.player == player or task.player is None:
                return task
        return None

    def deck_size(self) -> int:
        """Movie cards still in the deck (the Final Showing card not counted)."""
        return len(self.movie_pool)
