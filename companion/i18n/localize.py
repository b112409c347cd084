"""Render a ``code`` and its ``params`` as a sentence in a language.

The hub and the dashboard share one scheme: each code has an English template (the hub's
own in :mod:`.texts`, each game's in its ``texts`` module, added up in a
:class:`~.texts.TextBook`), the catalogs translate it, and the params fill it. Some params
are words themselves and are translated first, as the game's
:class:`~companion.kit.texts.Words` say: Popcorn's guest ``color``, and the ``place`` an
alert names, made from ``zone``, ``owner``, ``slot`` and ``seat``. Numbers are written the
language's way (Babel's :func:`~babel.numbers.format_decimal`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any

from babel.numbers import format_decimal

from companion.kit.texts import Lenient

from .texts import BATCH, TextBook, book

Gettext = Callable[[str], str]
"""A function that translates one message, such as ``Translations.gettext``."""
Pgettext = Callable[[str, str], str]
"""A function that translates a message under a context, such as ``Translations.pgettext``."""
Ngettext = Callable[[str, str, int], str]
"""A function that picks and translates a plural form, such as ``Translations.ngettext``
(Babel's catalogs carry each language's plural rule)."""


def fill(template: str, params: Mapping[str, Any], gettext: Gettext, locale: str,
         texts: TextBook | None = None, pgettext: Pgettext | None = None) -> str:
    """``template`` (already translated) with ``params``: words (colors, places, letters) and
    numbers in the language of ``locale``; a name the params lack shows as "?". A word with a
    message context is translated with ``pgettext`` (left in English without it)."""
    texts = texts or book()
    values: dict[str, Any] = dict(params)
    for name in texts.numbers:
        if isinstance(values.get(name), int) and not isinstance(values[name], bool):
            values[name] = format_decimal(values[name], locale=locale)
    for name, words in texts.words.items():
        found = words.pick(params)
        if found is None:
            continue
        if words.context:
            context = words.context.format_map(Lenient(params))
            found = pgettext(context, found) if pgettext else found
        else:
            found = gettext(found)
        values[name] = found.format_map(Lenient(values))
    return template.format_map(Lenient(values))


def render(code: str, params: Mapping[str, Any], english: str, gettext: Gettext,
           locale: str, ngettext: Ngettext | None = None,
           texts: TextBook | None = None, pgettext: Pgettext | None = None) -> str:
    """The sentence for a refusal in ``locale``: in English the precise ``english`` sentence
    the code was raised with; in another language the code's translated template (or, for a
    refusal of a body's field, the field's: :meth:`TextBook.template`), or the English
    sentence for a code no template knows. A refused batch (params ``index`` and
    ``size``) says which of how many moves, in the plural form ``size`` takes."""
    texts = texts or book()
    source = texts.template(code, params)
    if locale == "en" or source is None:
        return english
    reason = fill(gettext(source), params, gettext, locale, texts, pgettext)
    size = params.get("size")
    if ngettext is None or not isinstance(size, int) or not isinstance(params.get("index"), int):
        return reason
    batch = {**params, "index": params["index"] + 1, "reason": reason}
    return fill(ngettext(BATCH[0], BATCH[1], size), batch, gettext, locale, texts, pgettext)


def alert_texts(code: str, params: Mapping[str, Any],
                texts: TextBook | None = None) -> tuple[str, str]:
    """The English message and fix templates of an alert (``KeyError`` for an unknown
    code): those of ``CODE:kind`` for a thing whose ``kind`` has its own, else the code's."""
    found = (texts or book()).alert_texts(code, params)
    if found is None:
        raise KeyError(code)
    return found


def render_alert(code: str, params: Mapping[str, Any], gettext: Gettext,
                 locale: str, texts: TextBook | None = None,
                 pgettext: Pgettext | None = None) -> tuple[str, str]:
    """An alert's message and fix in ``locale``, from its code and params (``pgettext``
    translates the words that have a message context, such as a pawn's letter). Each starts
    with a capital, though a word that opens it may not (a theater tile: "the $2 …")."""
    message, fix = alert_texts(code, params, texts)
    return (_sentence(fill(gettext(message), params, gettext, locale, texts, pgettext)),
            _sentence(fill(gettext(fix), params, gettext, locale, texts, pgettext)))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a template fills, for checking that a translation keeps them."""
    return {name for _, name, _, _ in Formatter().parse(text) if name}
