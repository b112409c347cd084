"""Whole numbers written in a request's text (a query parameter, a part of a path).

``int()`` alone is no check: it takes "٣" (an Arabic-Indic three) and " 7 ", raises on "²"
and on a text of more than 4,300 digits, and a number of twenty digits overflows what SQLite
stores. The routes read such a number with :func:`whole_number`, which is never an error.
"""

from __future__ import annotations


def whole_number(text: str | None, high: int) -> int | None:
    """The whole number ``text`` writes in ASCII digits, if it is at most ``high``; else None
    (no text, another character, or a number above ``high``, however long its text)."""
    if text is None or not text or not (text.isascii() and text.isdigit()):
        return None
    if len(text.lstrip("0")) > len(str(high)):  # too long to be at most high: not read
        return None
    value = int(text)
    return value if value <= high else None
