"""Reading the facts of B Movies from the package's data file: the engine's only I/O.

The engine itself never reads a file, so tests and tools can hand it any :class:`Facts`;
everything that runs a real game asks :func:`load_facts` for the ones printed in the box.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from .engine import Facts

DATA_FILE = "b-movies.json"
"""The facts document in the package's ``data/`` folder (``companion/games/bmovies/data``)."""


@cache
def load_facts() -> Facts:
    """The facts of the box, read once (``Facts`` is frozen, so sharing it is safe)."""
    data = resources.files("companion.games.bmovies").joinpath("data", DATA_FILE)
    text = data.read_text(encoding="utf-8")
    return Facts.from_dict(json.loads(text))
