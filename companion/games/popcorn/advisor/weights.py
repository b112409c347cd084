"""The advisor's value function: what each kind of gain is worth, read from a data file.

A plan's gains are counted in six terms (:data:`TERMS`); its value is the sum of each gain
times its weight. The weights live in ``companion/games/popcorn/data/advisor-weights.json``
so that tuning them never touches code; popcorn is the unit, so a weight reads as "Popcorn
per unit".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

WEIGHTS_FILE = "advisor-weights.json"
"""The weights' file name in Popcorn's ``data/`` folder (``companion/games/popcorn/data``)."""

TERMS: tuple[str, ...] = ("money", "popcorn", "audience", "guests", "awards", "culled")
"""The gain terms, in the order a gains tuple holds them (see :mod:`.model`)."""


@dataclass(frozen=True)
class Weights:
    """One weight per term of :data:`TERMS`, in that order."""

    values: tuple[float, ...]

    def value(self, gains: Sequence[int]) -> float:
        """The worth of a gains tuple, rounded so that equal plans compare equal.

        Written out term by term: the search calls this for every partial plan it tries.
        """
        w = self.values
        return round(w[0] * gains[0] + w[1] * gains[1] + w[2] * gains[2] + w[3] * gains[3]
                     + w[4] * gains[4] + w[5] * gains[5], 9)

    @classmethod
    def from_dict(cls, doc: dict) -> Weights:
        """Weights from the file's ``terms`` object; every term must be there, as a number."""
        terms = doc.get("terms")
        if not isinstance(terms, dict) or set(terms) != set(TERMS):
            raise ValueError(f"advisor weights need exactly the terms {', '.join(TERMS)}")
        if not all(isinstance(terms[t], int | float) for t in TERMS):
            raise ValueError("every advisor weight must be a number")
        return cls(tuple(float(terms[t]) for t in TERMS))


@lru_cache(maxsize=1)
def load_weights() -> Weights:
    """The packaged weights, read once per process."""
    data = resources.files("companion.games.popcorn").joinpath("data", WEIGHTS_FILE)
    text = data.read_text(encoding="utf-8")
    return Weights.from_dict(json.loads(text))
