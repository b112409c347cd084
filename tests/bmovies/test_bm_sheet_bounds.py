"""Issue 27: a B Movies score sheet that no finished game could produce is refused.

Every sheet of a game the simulator played is accepted (with the box's bucket, and with a
small one that runs dry). For each bound, a scripted game played by the engine lands exactly
on its limit, and its sheet is accepted; the same sheet one past the limit is refused with
the bound's code, naming the player. The limits are those ``docs/b-movies.md`` lists.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.bmovies.engine import (
    State,
    fewest_game_draws,
    final_cut,
    most_tokens,
    play_random,
)
from companion.games.bmovies.scoresheet import (
    SHEET_CODES,
    Sheet,
    SheetError,
    parse_sheet,
    score_sheet,
)
from companion.games.bmovies.texts import SHEET_REFUSALS
from companion.i18n.catalogs import TRANSLATED, translations
from companion.i18n.localize import placeholders, render
from companion.i18n.texts import book
from tests.bmovies.sheets import (
    NAMES,
    fewest_draws_ballot,
    highest_value,
    play_scripted,
    sheet_of,
    split,
)
from tests.bmovies.turns import FACTS, tiny_facts

VARIANTS = st.sampled_from(["standard", "hidden"])
SEEDS = st.integers(0, 10**6)
GAMES = st.tuples(st.integers(3, 6), VARIANTS, SEEDS)
"""A player count, a variant and a seed."""


def rounds(n: int) -> int:
    """The rounds of an ``n``-player game, from the box's facts."""
    return FACTS.clapboards[n]


def accepted(doc: dict[str, Any], facts: Any = FACTS) -> Sheet:
    """The sheet is read without a problem."""
    return parse_sheet(doc, facts)


def refused(doc: dict[str, Any], code: str, facts: Any = FACTS) -> SheetError:
    """The sheet is refused with ``code``."""
    with pytest.raises(SheetError) as caught:
        parse_sheet(doc, facts)
    assert caught.value.code == code, caught.value.message
    return caught.value


def names_the_player(error: SheetError, seat: int) -> None:
    """The refusal names the player, by seat and by name, in its params and its sentence."""
    assert error.params["player"] == seat and error.params["name"] == NAMES[seat]
    assert NAMES[seat] in error.message


def spare_value(doc: dict[str, Any]) -> int:
    """A token value the players do not hold every token of."""
    held = [t for p in doc["players"] for t in p["tokens"]]
    return next(v for v in FACTS.values if held.count(v) < FACTS.token_counts[v])


# --- every real game's sheet is accepted -------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_every_simulated_games_sheet_is_accepted_and_scores_as_the_game(
        game: tuple[int, str, int]) -> None:
    """Issue 27: a sheet made from a game the simulator played is accepted, and scores as
    the game's own Final Cut."""
    n, variant, seed = game
    _, state = play_random(FACTS, n, seed, variant)
    sheet = accepted(sheet_of(state))
    assert score_sheet(sheet, FACTS).to_dict() == final_cut(state).to_dict()


@settings(max_examples=40, deadline=None)
@given(GAMES, st.lists(st.integers(0, 2), min_size=5, max_size=5))
def test_a_game_whose_small_bucket_ran_dry_is_accepted(game: tuple[int, str, int],
                                                       counts: list[int]) -> None:
    """Clarification 6: once the bucket is empty draws give nothing, so a game with a small
    bucket draws fewer tokens than its pitches owed; its sheet is still accepted."""
    n, variant, seed = game
    facts = tiny_facts((counts[0] + 1, *counts[1:]))
    _, state = play_random(facts, n, seed, variant)
    assert not any(state.bucket)  # a game owes at least 15 tokens, the bucket holds 11 at most
    accepted(sheet_of(state), facts)


# --- the limits, as docs/b-movies.md lists them -------------------------------------------


@pytest.mark.parametrize(("n", "most", "fewest_all_made", "fewest_none_made"), [
    (3, 13, 15, 30), (4, 15, 32, 32), (5, 15, 30, 45), (6, 18, 54, 54)])
def test_the_limits_are_those_the_docs_list(n: int, most: int, fewest_all_made: int,
                                            fewest_none_made: int) -> None:
    """docs/b-movies.md, Bounds: at most 13/15/15/18 tokens for one player (Yes! on a
    4-card movie), at least 30 - made / 32 / 45 - made / 54 tokens in all."""
    producers, pitches = n - 1, n * rounds(n)
    assert most_tokens(FACTS, producers, [4], producers * rounds(n) - 1) == most
    assert most_tokens(FACTS, producers, [], producers * rounds(n)) == producers * rounds(n)
    assert fewest_game_draws(FACTS, producers, [2] * pitches, 0) == fewest_all_made
    assert fewest_game_draws(FACTS, producers, [], pitches) == fewest_none_made


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_movies_up_to_the_rounds_are_accepted_one_more_is_refused(
        game: tuple[int, str, int]) -> None:
    """Rulebook, Setup and Rounds: the clapboards fix the rounds (5, 4, 3, 3) and a player
    pitches once a round. A player whose every pitch was made lists that many movies; one
    more is SHEET_MOVIES_BEYOND_ROUNDS."""
    n, variant, seed = game
    rng = random.Random(seed)
    star = rng.randrange(n)

    def ballot(state: State, rng: random.Random) -> dict[int, str]:
        producers = state.producers()
        if state.screenwriter == star:
            return dict.fromkeys(producers, "yes")
        return split(producers, rng.randint(0, len(producers)), rng)

    doc = sheet_of(play_scripted(n, rng, ballot, variant=variant))
    assert len(doc["players"][star]["movies"]) == rounds(n)
    accepted(doc)
    doc["players"][star]["movies"].append(rng.randint(2, 4))
    error = refused(doc, "SHEET_MOVIES_BEYOND_ROUNDS")
    names_the_player(error, star)
    assert (error.params["count"], error.params["limit"]) == (rounds(n) + 1, rounds(n))


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_tokens_up_to_what_one_player_can_draw_are_accepted_one_more_is_refused(
        game: tuple[int, str, int]) -> None:
    """Rulebook, Vote (NO, YES) and End of Turn: a producer draws one token per pitch they
    vote on, or with their single Yes! one per Title card of the movie. A player who drew on
    every pitch and backed a 4-card movie with Yes! holds (n - 1) x rounds + 3 tokens; one
    more is SHEET_TOKENS_BEYOND_DRAWS."""
    n, variant, seed = game
    rng = random.Random(seed)
    star = rng.randrange(n)

    def cards(state: State, rng: random.Random) -> int:
        backs = state.screenwriter != star and "yes!" in state.hands[star]
        return FACTS.pitch_max if backs else rng.randint(FACTS.pitch_min, FACTS.pitch_max)

    def ballot(state: State, rng: random.Random) -> dict[int, str]:
        producers = state.producers()
        if star not in producers:
            return split(producers, rng.randint(0, len(producers)), rng)
        others = [p for p in producers if p != star]
        need = math.ceil(len(producers) / 2) - 1  # with the star's Yes, the pitch is made
        votes = split(others, rng.randint(need, len(others)), rng)
        votes[star] = "yes!" if "yes!" in state.hands[star] else "yes"
        return votes

    doc = sheet_of(play_scripted(n, rng, ballot, cards=cards, variant=variant))
    limit = (n - 1) * rounds(n) - 1 + FACTS.pitch_max
    assert len(doc["players"][star]["tokens"]) == limit
    accepted(doc)
    doc["players"][star]["tokens"].append(spare_value(doc))
    error = refused(doc, "SHEET_TOKENS_BEYOND_DRAWS")
    names_the_player(error, star)
    assert (error.params["count"], error.params["limit"]) == (limit + 1, limit)


def forced_draws(state: State, seat: int) -> int:
    """The other players' pitches that were rejected (3 players: each one made ``seat``
    vote No and draw)."""
    return sum(1 for turn in state.history if turn.screenwriter != seat and not turn.reveal.made)


@settings(max_examples=30, deadline=None)
@given(VARIANTS, SEEDS)
def test_three_players_tokens_down_to_the_forced_draws_are_accepted_one_fewer_is_refused(
        variant: str, seed: int) -> None:
    """Rulebook, NO: with two producers a pitch is rejected only when both vote No, and
    each No voter draws. A player who drew on nothing else holds one token per rejected
    pitch of the others; one fewer is SHEET_TOKENS_BELOW_DRAWS."""
    rng = random.Random(seed)
    star = rng.randrange(3)

    def ballot(state: State, rng: random.Random) -> dict[int, str]:
        producers = state.producers()
        if state.screenwriter == star:
            return dict.fromkeys(producers, "yes")
        first = not any(t.screenwriter != star for t in state.history)
        if first or rng.random() < 0.5:
            return dict.fromkeys(producers, "no")
        return {p: "no" if p == star else "yes" for p in producers}  # made 1-1: star draws 0

    state = play_scripted(3, rng, ballot, variant=variant)
    doc = sheet_of(state)
    limit = forced_draws(state, star)
    assert len(doc["players"][star]["tokens"]) == limit >= 1
    accepted(doc)
    doc["players"][star]["tokens"].pop()
    error = refused(doc, "SHEET_TOKENS_BELOW_DRAWS")
    names_the_player(error, star)
    assert (error.params["count"], error.params["limit"]) == (limit - 1, limit)


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 6), VARIANTS, SEEDS)
def test_from_four_players_a_player_may_draw_nothing(n: int, variant: str, seed: int) -> None:
    """Rulebook, Vote: with three producers or more a player can always vote on the losing
    side (No on a made pitch, Yes on a rejected one), so no token is forced on anyone."""
    rng = random.Random(seed)
    star = rng.randrange(n)

    def ballot(state: State, rng: random.Random) -> dict[int, str]:
        producers = state.producers()
        if star not in producers:
            return split(producers, rng.randint(0, len(producers)), rng)
        first = not any(t.screenwriter != star for t in state.history)
        made = not first and rng.random() < 0.5
        return {p: ("no" if made else "yes") if p == star else ("yes" if made else "no")
                for p in producers}

    state = play_scripted(n, rng, ballot, variant=variant)
    assert state.piles[star] == [] and forced_draws(state, star) > 0
    accepted(sheet_of(state))


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_tokens_in_all_down_to_the_fewest_draws_are_accepted_one_fewer_is_refused(
        game: tuple[int, str, int]) -> None:
    """Rulebook, Vote: a made pitch needs at least as many Yes as No and each Yes voter
    draws, a rejected one more No than Yes and each No voter draws. A game where each pitch
    draws just that holds the fewest tokens; one fewer is SHEET_TOO_FEW_TOKENS."""
    n, variant, seed = game
    rng = random.Random(seed)
    state = play_scripted(n, rng, fewest_draws_ballot, variant=variant)
    producers = n - 1
    limit = sum(math.ceil(producers / 2) if turn.reveal.made else producers // 2 + 1
                for turn in state.history)
    made = sum(map(len, state.movies))
    assert limit == {3: 30 - made, 4: 32, 5: 45 - made, 6: 54}[n]
    doc = sheet_of(state)
    assert sum(len(p["tokens"]) for p in doc["players"]) == limit
    accepted(doc)
    slack = [seat for seat in range(n)
             if len(state.piles[seat]) > (forced_draws(state, seat) if n == 3 else 0)]
    doc["players"][slack[0]]["tokens"].pop()
    error = refused(doc, "SHEET_TOO_FEW_TOKENS")
    assert (error.params["count"], error.params["limit"]) == (limit - 1, limit)
    assert f"{limit - 1} tokens in all" in error.message


@pytest.mark.parametrize("n", [4, 6])
def test_the_bucket_caps_the_fewest_draws(n: int) -> None:
    """Clarification 6: min(bucket, pitches' draws). With a bucket of 10, a game that drew
    all 10 is accepted, and 9 is SHEET_TOO_FEW_TOKENS with the limit 10 (from 4 players,
    where no player's own draws are forced)."""
    facts = tiny_facts((3, 3, 2, 1, 1))
    _, state = play_random(facts, n, 5)
    doc = sheet_of(state)
    assert sum(map(len, state.piles)) == facts.tokens_total
    accepted(doc, facts)
    next(p for p in doc["players"] if p["tokens"])["tokens"].pop()
    error = refused(doc, "SHEET_TOO_FEW_TOKENS", facts)
    assert (error.params["count"], error.params["limit"]) == (9, 10)


def test_a_three_player_game_whose_bucket_ran_dry_may_hold_fewer_than_forced() -> None:
    """Clarification 6: with the bucket empty, a rejected pitch's No voters draw nothing,
    so the forced draws bound no player then."""
    facts = tiny_facts((3, 3, 2, 1, 1))
    state = play_scripted(3, random.Random(2), lambda s, r: dict.fromkeys(s.producers(), "no"),
                          facts=facts)
    assert any(len(state.piles[seat]) < forced_draws(state, seat) for seat in range(3))
    accepted(sheet_of(state), facts)


# --- the box's bounds: at the limit and one past ---------------------------------------


def played(n: int, seed: int = 1, **options: Any) -> dict[str, Any]:
    """The sheet of a game played to the end by a random table."""
    rng = random.Random(seed)
    return sheet_of(play_scripted(
        n, rng, lambda s, r: split(s.producers(), r.randint(0, n - 1), r), **options))


def test_six_players_are_accepted_seven_and_two_are_refused() -> None:
    """Clarification 1: 3 to 6 players (SHEET_PLAYER_COUNT)."""
    six, three = played(6), played(3)
    accepted(six)
    accepted(three)
    six["players"].append({"name": "Gus"})
    assert refused(six, "SHEET_PLAYER_COUNT").params == {"count": 7, "min": 3, "max": 6}
    three["players"].pop()
    assert refused(three, "SHEET_PLAYER_COUNT").params["count"] == 2


@pytest.mark.parametrize(("size", "past"), [(FACTS.pitch_min, FACTS.pitch_min - 1),
                                            (FACTS.pitch_max, FACTS.pitch_max + 1)])
def test_movies_of_two_and_four_cards_are_accepted_one_and_five_refused(size: int,
                                                                        past: int) -> None:
    """Rulebook, Pitch: "The Screenwriter selects 2-4 cards" (SHEET_MOVIE_SIZE)."""
    doc = played(4, cards=lambda state, rng: size)
    accepted(doc)
    seat = next(i for i, p in enumerate(doc["players"]) if p["movies"])
    doc["players"][seat]["movies"][0] = {"cards": past, "title": "Too Much"}
    error = refused(doc, "SHEET_MOVIE_SIZE")
    names_the_player(error, seat)


def test_every_token_of_the_highest_value_is_accepted_one_more_is_refused() -> None:
    """Rulebook, Components: 5 tokens worth 4 (SHEET_BUCKET)."""
    doc = played(5, value=highest_value)
    top, count = len(FACTS.token_counts) - 1, FACTS.token_counts[-1]
    held = [t for p in doc["players"] for t in p["tokens"]]
    assert held.count(top) == count
    accepted(doc)
    pile = next(p["tokens"] for p in doc["players"] if any(t != top for t in p["tokens"]))
    pile[next(i for i, t in enumerate(pile) if t != top)] = top
    error = refused(doc, "SHEET_BUCKET")
    assert error.params == {"value": top, "count": count + 1, "limit": count}


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_studios_as_the_chart_deals_them_are_accepted_a_third_copy_is_refused(n: int) -> None:
    """Rulebook, Hidden Team Variant: the chart's copies (SHEET_STUDIO_DEAL)."""
    doc = played(n, variant="hidden")
    accepted(doc)
    studios = [p["studio"] for p in doc["players"]]
    pair = next(s for s in studios if studios.count(s) == 2)
    other = next(i for i, s in enumerate(studios) if s != pair)
    doc["players"][other]["studio"] = pair
    assert refused(doc, "SHEET_STUDIO_DEAL").params["players"] == n


# --- every refusal speaks every language -----------------------------------------------


def one_refusal_per_code() -> dict[str, SheetError]:
    """A real refusal of each code, from sheets of played games changed one way."""
    base = played(3, variant="hidden")
    changes = {
        "BAD_SHEET": lambda d: d["players"][1].pop("name"),
        "SHEET_PLAYER_COUNT": lambda d: d["players"].pop(),
        "SHEET_MOVIE_SIZE": lambda d: d["players"][1]["movies"].append(5),
        "SHEET_BUCKET": lambda d: d["players"][1]["tokens"].extend([4] * 6),
        "SHEET_STUDIO_DEAL": lambda d: [p.update(studio=i) for i, p in enumerate(d["players"])],
        "SHEET_MOVIES_BEYOND_ROUNDS": lambda d: d["players"][1].update(movies=[2] * 6),
        "SHEET_TOKENS_BEYOND_DRAWS": lambda d: d["players"][1].update(tokens=[0] * 14),
        "SHEET_TOKENS_BELOW_DRAWS": lambda d: d["players"][1].update(
            tokens=[], movies=[2] * 5),
        "SHEET_TOO_FEW_TOKENS": lambda d: [p.update(tokens=[], movies=[2] * 5)
                                           for p in d["players"]],
    }
    errors = {}
    for code, change in changes.items():
        doc = copy.deepcopy(base)
        change(doc)
        errors[code] = refused(doc, code)
    return errors


def test_every_sheet_code_has_a_template_that_its_params_fill() -> None:
    """Each code of SHEET_CODES has an English template in B Movies' texts, which the hub's
    book renders it with, naming only params its refusals carry; the per-player bounds name
    the player."""
    assert set(SHEET_REFUSALS) == set(SHEET_CODES)
    assert all(book().template(code) == SHEET_REFUSALS[code] for code in SHEET_CODES)
    for code, error in one_refusal_per_code().items():
        assert placeholders(SHEET_REFUSALS[code]) <= set(error.params), code
        assert error.to_dict() == {"code": code, "params": error.params,
                                   "message": error.message}
    for code in ("SHEET_MOVIE_SIZE", "SHEET_MOVIES_BEYOND_ROUNDS", "SHEET_TOKENS_BEYOND_DRAWS",
                 "SHEET_TOKENS_BELOW_DRAWS"):
        assert "{name}" in SHEET_REFUSALS[code]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_refused_sheet_renders_in_every_language(lang: str) -> None:
    """The hub's renderer says each refusal in the request's language, with the player's
    name and the numbers of the bound; in English it keeps the precise sentence."""
    gettext = translations(lang).gettext
    for code, error in one_refusal_per_code().items():
        said = render(code, error.params, error.message, gettext, lang)
        assert said != SHEET_REFUSALS[code] and "{" not in said and "?" not in said, said
        if "name" in error.params and "{name}" in SHEET_REFUSALS[code]:
            assert str(error.params["name"]) in said
        if "limit" in error.params:
            assert str(error.params["limit"]) in said
        assert render(code, error.params, error.message, gettext, "en") == error.message
