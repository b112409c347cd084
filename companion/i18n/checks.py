"""What makes a catalog incomplete: the checks the tests run on every language.

A message of the template (``messages.pot``, the English messages) is a **problem** in a
language's catalog when it is missing, untranslated (empty), fuzzy (a guess ``pybabel
update`` made, not a translation), or when a translation's ``{placeholders}`` differ from the
English ones: a missing ``{name}`` loses a fact, an extra or misspelt one shows "?".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from babel.messages.catalog import Catalog

from .localize import placeholders

Key = tuple[str | None, str]
"""A message's identity: its context (``award:<id>``, or None) and its English id."""


def _key(context: str | None, message_id: str | tuple[str, ...] | list[str]) -> Key:
    return (context, message_id if isinstance(message_id, str) else message_id[0])


def english(template: Catalog) -> dict[Key, tuple[str, ...]]:
    """Each English message of the template by its key: its forms (two for a plural)."""
    return {_key(m.context, m.id): ((m.id,) if isinstance(m.id, str) else tuple(m.id))
            for m in template if m.id}


def form_problems(key: str, source: tuple[str, ...], forms: str | Iterable[Any] | None,
                  ) -> list[str]:
    """The problems of one message's translated ``forms`` against its English ``source``
    (a string, a form per plural, or None: untranslated)."""
    forms = [forms] if isinstance(forms, str) else list(forms or ())
    if not forms or not all(isinstance(f, str) and f.strip() for f in forms):
        return [f"untranslated: {key!r}"]
    wanted = placeholders(source[-1]) | placeholders(source[0])
    return [f"placeholders {sorted(placeholders(form))} instead of {sorted(wanted)}: "
            f"{form!r}" for form in forms if placeholders(form) - wanted
            or placeholders(form) < placeholders(source[0]) - {"count"}]


def po_problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Every problem of a ``.po`` catalog against the template."""
    found = {_key(m.context, m.id): m for m in catalog if m.id}
    problems: list[str] = []
    for key, source in english(template).items():
        message = found.get(key)
        if message is None:
            problems.append(f"missing: {key[1]!r}")
        elif message.fuzzy:
            problems.append(f"fuzzy: {key[1]!r}")
        else:
            problems += form_problems(key[1], source, message.string)
    return problems


def _browser_entry(data: Mapping[str, Any], key: Key) -> Any:
    context, message_id = key
    if context is None:
        return data.get("messages", {}).get(message_id)
    kind, _, thing = context.partition(":")
    return data.get("contexts", {}).get(kind, {}).get(thing)


def browser_problems(template: Catalog, data: Mapping[str, Any]) -> list[str]:
    """Every problem of a browser catalog (its ``messages`` and ``contexts``) against the
    template."""
    problems: list[str] = []
    for key, source in english(template).items():
        entry = _browser_entry(data, key)
        if entry is None:
            problems.append(f"missing: {key[1]!r}")
        else:
            problems += form_problems(key[1], source, entry)
    return problems
