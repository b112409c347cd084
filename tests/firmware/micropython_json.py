"""MicroPython's ``json.loads``, as lenient as it is, for running the firmware under CPython.

CPython's ``json.loads`` is strict, so under it a firmware that trusted ``json.loads`` to
refuse garbled commands would look right. On a board it is not: MicroPython's parser
(``extmod/modjson.c``) reads ``,`` and ``:`` as blanks, takes the character after an unknown
backslash as itself, does not check that a key has a value or that ``]`` closes a list, and
takes a NUL byte for the end of the text (except right after a backslash). :func:`loads`
follows that parser step by step, so a test can hand the firmware the ``json`` it meets on a
board (the ``board_json`` fixture). It was checked against MicroPython 1.27's WebAssembly
port on 30,000 mutated hub commands and random strings: same value or same error on each.
"""

from __future__ import annotations

import json
from typing import Any

dumps = json.dumps
"""Encoding is not at issue: the firmware's messages are built, never parsed, on the board."""

_BLANKS = ",: \t\n\r"
_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WORDS = {"n": ("null", None), "t": ("true", True), "f": ("false", False)}
_NUMBER = set("0123456789+-.eE")


class _Pending:
    """The key slot of a dict waiting for its value."""


def _error() -> ValueError:
    return ValueError("syntax error in JSON")


def _end(text: str, i: int) -> bool:
    """Whether modjson sees the end at ``i``: its end-of-input marker is a NUL byte."""
    return i >= len(text) or text[i] == "\0"


def _hex4(digits: str) -> int:
    """The code point of a ``\\u`` escape, computed as modjson does: without checking that the
    four characters are hex digits (a short escape runs into the closing quote)."""
    if len(digits) < 4:
        raise _error()
    code = 0
    for ch in digits:
        value = ((ord(ch) | 0x20) - ord("0")) & 0xFF
        if value > 9:
            value = (value - (ord("a") - ord("9") - 1)) & 0xFF
        code = (code << 4) | value
    if code >= 0x110000:
        raise _error()
    return code


def _string(text: str, i: int) -> tuple[str, int]:
    """The string whose opening quote is just before ``i``, and the index after it."""
    out = []
    while not _end(text, i) and text[i] != '"':
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            i += 1
            c = text[i]
            if c == "u":
                c = chr(_hex4(text[i + 1:i + 5]))
                i += 4
            else:
                c = _ESCAPES.get(c, c)
        out.append(c)
        i += 1
    if _end(text, i):
        raise _error()
    return "".join(out), i + 1


def _number(text: str, i: int) -> tuple[int | float, int]:
    """The number starting at ``i`` (any run of digits, signs, dots and e), and its end."""
    end = i + 1
    while end < len(text) and text[end] in _NUMBER:
        end += 1
    token = text[i:end]
    try:
        if not set(token) & set(".eE"):
            return int(token, 10), end
        if token[:1] == "-" and token[1:2] in (".", "e", "E"):
            token = "-0" + token[1:]  # MicroPython reads "-.", "-e5" as -0.0
        return float(token), end
    except ValueError:
        raise _error() from None


def _token(text: str, i: int) -> tuple[Any, bool, int]:
    """The value starting at ``i``: (value, whether it is a container to enter, next index)."""
    c = text[i]
    if c in _WORDS:
        word, value = _WORDS[c]
        if text[i:i + len(word)] != word:
            raise _error()
        return value, False, i + len(word)
    if c == '"':
        value, end = _string(text, i + 1)
        return value, False, end
    if c == "-" or c.isdigit():
        value, end = _number(text, i)
        return value, False, end
    if c == "[":
        return [], True, i + 1
    if c == "{":
        return {}, True, i + 1
    raise _error()


def loads(text: str) -> Any:
    """Parse ``text`` the way MicroPython does; ``ValueError`` where MicroPython raises one."""
    stack: list[Any] = []
    top: Any = None
    key: Any = _Pending
    i = 0
    done = False
    while not _end(text, i) and not done:
        if text[i] in _BLANKS:
            i += 1
            continue
        if text[i] in "]}":
            if top is None:
                raise _error()
            i += 1
            done = not stack
            if stack:
                top = stack.pop()
            continue
        value, enter, i = _token(text, i)
        if top is None:
            top, done = value, not enter
            continue
        if isinstance(top, list):
            top.append(value)
        elif key is _Pending:
            if enter:
                raise _error()
            key = value
        else:
            top[key] = value
            key = _Pending
        if enter:
            stack.append(top)
            top = value
    while not _end(text, i) and text[i] in " \t\n\r\v\f":
        i += 1
    if not done or not _end(text, i):
        raise _error()
    return top
