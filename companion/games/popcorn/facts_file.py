"""Reads the catalog data file shipped with the package (the engine itself does no I/O)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .engine import Catalog, CatalogError

DATA_FILE = "popcorn-cards.json"
"""The catalog's file name in the package's ``data/`` folder
(``companion/games/popcorn/data``)."""


@lru_cache(maxsize=1)
def _packaged() -> dict:
    data = resources.files("companion.games.popcorn").joinpath("data", DATA_FILE)
    text = data.read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The packaged catalog, parsed and checked once per process."""
    return Catalog.from_dict(_packaged())


def action_meanings() -> dict[str, str]:
    """What each action id does, in words (the dashboard's tooltips): ``money_2`` → "Gain $2."."""
    return {a["id"]: a["meaning"] for a in _packaged()["actions"]}


def award_words() -> list[dict[str, str]]:
    """Each award card's ``id``, ``title`` and ``condition`` as printed (for translation)."""
    return [{key: a[key] for key in ("id", "title", "condition")}
            for a in _packaged()["awards"]]


def card_copies() -> dict[str, dict[str, int]]:
    """How many physical copies the box holds of each card: ``{kind: {id: n}}`` for the
    kinds ``movie``, ``theater`` and ``award`` (the catalog's ``copies``, 1 where absent)."""
    doc = _packaged()
    return {kind: {c["id"]: int(c.get("copies", 1)) for c in doc[key]}
            for kind, key in (("movie", "movies"), ("theater", "theaters"), ("award", "awards"))}


def load_catalog_file(path: str | Path) -> Catalog:
    """A catalog from another file; raises :class:`CatalogError` naming what is wrong."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogError(f"{path}: not valid JSON ({exc})") from exc
    return Catalog.from_dict(doc)
