"""The seating advisor: where a player's drawn guests should sit, and what they should do.

It imports the engine and the engine never imports it. :func:`advise` is the entry point;
``docs/advisor.md`` explains the value function, the search and its figures.
"""

from .advice import Advice, AdviceError, advise

__all__ = ["Advice", "AdviceError", "advise"]
