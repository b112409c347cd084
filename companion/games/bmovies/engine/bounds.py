"""What a finished game of B Movies can leave on the table: the bounds of a score sheet.

A score sheet tells only the end of a game (each player's tokens and made movies), yet the
rules still bound it, because a finished game is a known number of pitches:

- the first player's clapboards fix the rounds, and every player pitches once a round
  (rulebook, Setup and Rounds; clarification 2), so a player makes at most that many movies;
- each pitch's reveal makes producers draw (rulebook, Vote: NO and YES; clarification 4): a
  producer draws at most one token per pitch they vote on, or one per Title card of the movie
  their single Yes! backs; and every pitch makes at least some of its producers draw, since a
  rejected pitch needs more No votes than Yes and a made one at least as many Yes as No.

The functions here work those bounds out from :class:`~.facts.Facts` (player counts,
clapboards, the draws table, the single-use cards) and the counting rule of the vote,
:func:`tally`, which the engine's reveal uses too. Nothing here knows a number of the game:
a printing with other facts gets its own bounds. ``companion.games.bmovies.scoresheet``
checks a sheet against them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement

from .facts import NO, Facts

Options = tuple[tuple[str, int], ...]
"""What one producer may reveal on a pitch of a given outcome, and what each card draws."""


def tally(votes: Iterable[str]) -> tuple[int, int, bool]:
    """The Yes votes, the No votes, and whether the pitch is made (rulebook, Vote).

    Yes and Yes! count one Yes each; the pitch is made when Yes >= No, rejected when
    No > Yes.
    """
    cast = list(votes)
    no = sum(vote == NO for vote in cast)
    yes = len(cast) - no
    return yes, no, yes >= no


def rounds(facts: Facts, players: int) -> int:
    """The rounds of a game of ``players``: one per clapboard the first player starts with."""
    return facts.clapboards[players]


@cache
def ballots(facts: Facts, producers: int) -> tuple[tuple[str, ...], ...]:
    """Every set of vote cards ``producers`` producers may reveal together (order aside)."""
    return tuple(combinations_with_replacement(facts.vote_cards, producers))


@cache
def fewest_pitch_draws(facts: Facts, producers: int, made: bool, cards: int) -> int:
    """The fewest tokens a pitch of ``cards`` Title cards makes its producers draw in all,
    when it is made (``made``) or rejected: the least over every ballot with that outcome."""
    return min((sum(facts.draws_for(v, made, cards) for v in ballot)
                for ballot in ballots(facts, producers) if tally(ballot)[2] == made),
               default=0)


@cache
def producer_options(facts: Facts, producers: int, made: bool, cards: int) -> Options:
    """Each vote card one producer may reveal on a pitch that ends ``made`` (or rejected),
    with the tokens it draws them: a card is listed when the other producers can still
    bring that outcome about."""
    others = ballots(facts, producers - 1)
    return tuple((v, facts.draws_for(v, made, cards)) for v in facts.vote_cards
                 if any(tally((v, *rest))[2] == made for rest in others))


def _pitches(facts: Facts, made: Sequence[int],
             rejected: int) -> list[tuple[bool, range | tuple[int]]]:
    """The others' pitches a player voted on: each made movie (its cards known), and each
    rejected pitch (2 to 4 cards, which a sheet does not say)."""
    sizes = range(facts.pitch_min, facts.pitch_max + 1)
    return [(True, (cards,)) for cards in made] + [(False, sizes)] * rejected


def _draws(facts: Facts, producers: int, made: bool, sizes: Iterable[int],
           cards: Collection[str]) -> list[int]:
    """What one producer may draw on a pitch of this outcome and one of ``sizes`` Title
    cards, revealing one of ``cards``."""
    return [draws for size in sizes
            for vote, draws in producer_options(facts, producers, made, size) if vote in cards]


def most_tokens(facts: Facts, producers: int, made: Sequence[int], rejected: int) -> int:
    """The most tokens one player can draw in a finished game, as a producer of the other
    players' pitches: their made movies (card counts ``made``) and ``rejected`` pitches.

    One vote per pitch, with the best card they keep (Yes or No); each single-use card
    (Yes!) may take its place once, on the pitch where it draws the most more (one per
    Title card of the longest movie).
    """
    pitches = _pitches(facts, made, rejected)
    kept = tuple(v for v in facts.vote_cards if v not in facts.single_use)
    regular = [max(_draws(facts, producers, m, sizes, kept), default=0) for m, sizes in pitches]
    bonus = 0
    for card in facts.single_use:
        gains = [draws - best for (m, sizes), best in zip(pitches, regular, strict=True)
                 for draws in _draws(facts, producers, m, sizes, (card,))]
        bonus += max([0, *gains])
    return sum(regular) + bonus


def fewest_tokens(facts: Facts, producers: int, made: Sequence[int], rejected: int) -> int:
    """The fewest tokens one player must draw as a producer of the other players' made
    movies (``made``) and ``rejected`` pitches, the bucket never empty: on each pitch, the
    least any card they may reveal draws them (with two producers, a rejected pitch has
    both voting No, and each No voter draws)."""
    return sum(min(_draws(facts, producers, m, sizes, facts.vote_cards), default=0)
               for m, sizes in _pitches(facts, made, rejected))


def fewest_game_draws(facts: Facts, producers: int, made: Sequence[int],
                      rejected: int) -> int:
    """The fewest tokens a finished game's pitches make the producers draw in all: each
    made movie (card counts ``made``) and each of the ``rejected`` pitches makes at least
    :func:`fewest_pitch_draws` of them draw (before the bucket runs out)."""
    worst_rejected = min(fewest_pitch_draws(facts, producers, False, cards)
                         for cards in range(facts.pitch_min, facts.pitch_max + 1))
    return (sum(fewest_pitch_draws(facts, producers, True, cards) for cards in made)
            + rejected * worst_rejected)
