"""The catalog data file: complete, consistent with the shared catalog, and checked on load."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from companion.games.popcorn.engine import Catalog, CatalogError
from companion.games.popcorn.facts_file import load_catalog, load_catalog_file
from tests.engine.positions import CATALOG

DATA = Path(__file__).parents[2] / "companion" / "games" / "popcorn" / "data"
DATA = DATA / "popcorn-cards.json"
SHARED = Path(__file__).parents[3] / "shared" / "catalog" / "popcorn-cards.json"
ADDED_KEYS = {"box", "structured_setup", "schema_extension"}


def doc() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_counts_match_the_box() -> None:
    """48 movies (44 + 4 starting), 28 tiles + 2 printed theaters, 26 awards, 60 pawns."""
    assert len(CATALOG.movies) == 48
    assert len(CATALOG.regular_movies) == 44 and len(CATALOG.starting_movies) == 4
    assert Counter(t.seats for t in CATALOG.theaters.values()) == {1: 8, 2: 12, 3: 8}
    assert [t.seats for t in CATALOG.default_theaters] == [1, 2]
    assert len(CATALOG.awards) == 26
    assert sum(CATALOG.box.values()) == 60
    assert len(CATALOG.audience_track) == 9


def test_the_data_file_holds_the_shared_facts_unchanged() -> None:
    """Our file is the shared catalog plus structured fields; no shared fact was edited."""
    if not SHARED.exists():
        pytest.skip("shared/ is not beside this checkout")
    ours, shared = doc(), json.loads(SHARED.read_text(encoding="utf-8"))
    assert set(ours) - set(shared) == ADDED_KEYS
    for key in shared:
        if key in ("awards", "audience_track"):
            continue
        assert ours[key] == shared[key], key
    for mine, theirs in zip(ours["awards"], shared["awards"], strict=True):
        extra = dict(mine["popcorn"])
        extra.pop("count", None)
        assert {**mine, "popcorn": extra} == theirs
    track = dict(ours["audience_track"])
    track.pop("past_end_bonus")
    assert track == shared["audience_track"]


def test_load_is_cached_and_parses_every_item() -> None:
    """load_catalog reads the packaged file once; ids index every item."""
    assert load_catalog() is load_catalog()
    assert CATALOG.movies["rosebud"].starting
    assert CATALOG.theater("default_two_seat_tile").seat_actions == ("money_1", "movie_action")


@pytest.mark.parametrize("breakage, message", [
    (lambda d: d["movies"].pop(), "movies: expected 48"),
    (lambda d: d["theaters"].append(copy.deepcopy(d["theaters"][0])), "duplicate ids"),
    (lambda d: d["awards"].pop(0), "awards: expected 26"),
    (lambda d: d["movies"][5].__setitem__("color", "purple"), "bad color"),
    (lambda d: d["movies"][5].__setitem__("actions", ["fly"]), "unknown action"),
    (lambda d: d["theaters"][0].__setitem__("seat_colors", []), "seat lists"),
    (lambda d: d["theaters"][0].__setitem__("price", -1), "price"),
    (lambda d: d.pop("audience_track"), "audience_track"),
    (lambda d: d["awards"][0]["popcorn"].__setitem__("type", "magic"), "scoring type"),
    (lambda d: d["box"]["guests"].pop("white"), "box"),
])
def test_a_malformed_catalog_fails_loudly(breakage, message: str) -> None:
    """Every kind of damage is refused with a message naming it."""
    broken = doc()
    breakage(broken)
    with pytest.raises(CatalogError, match=message):
        Catalog.from_dict(broken)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    """A catalog file that is not JSON names the file."""
    path = tmp_path / "cards.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid JSON"):
        load_catalog_file(path)


def test_no_card_value_in_engine_code() -> None:
    """No movie, theater or award id appears in the engine's code: card facts are data."""
    ids = [*CATALOG.movies, *CATALOG.theaters, *CATALOG.awards]
    ids += [t.id for t in CATALOG.default_theaters]
    engine = Path(__file__).parents[2] / "companion" / "games" / "popcorn" / "engine"
    for path in engine.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for card in ids:
            assert f'"{card}"' not in text, f"{card} is written in {path.name}"


def test_engine_is_pure() -> None:
    """The engine imports nothing from the rest of the project and does no I/O."""
    engine = Path(__file__).parents[2] / "companion" / "games" / "popcorn" / "engine"
    banned = ("import companion", "from companion", "open(", "import os", "import time",
              "import random", "import socket", "datetime", "print(")
    for path in engine.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for word in banned:
            if word == "import random" and path.name == "simulator.py":
                continue  # the generator is passed in; the module only names its type
            assert word not in text, f"{path.name} uses {word!r}"
