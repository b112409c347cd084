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


def _key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def english(template: Catalog) -> dict[str, tuple[str, ...]]:
    """Each English message of the template by its id: its forms (two for a plural)."""
    return {_key(m.id): ((m.id,) if isinstance(m.id, str) else tuple(m.id))
            for m in template if m.id}


def form_problems(key: str, source: tuple[str, ...], forms: Iterable[Any]) -> list[str]:
    """The problems of one message's translated ``forms`` against its English ``source``."""
    forms = [forms] if isinstance(forms, str) else list(forms)
    if not forms or not all(isinstance(f, str) and f.strip() for f in forms):
        return [f"untranslated: {key!r}"]
    wanted = placeholders(source[-1]) | placeholders(source[0])
    return [f"placeholders {sorted(placeholders(form))} instead of {sorted(wanted)}: "
            f"{form!r}" for form in forms if placeholders(form) - wanted
            or placeholders(form) < placeholders(source[0]) - {"count"}]


def po_problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Every problem of a ``.po`` catalog against the template."""
    found = {_key(m.id): m for m in catalog if m.id}
    problems: list[str] = []
    for key, source in english(template).items():
        message = found.get(key)
        if message is None:
            problems.append(f"missing: {key!r}")
        elif message.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        else:
            problems += form_problems(key, source, message.string)
    return problems


def browser_problems(template: Catalog, messages: Mapping[str, Any]) -> list[str]:
    """Every problem of a browser catalog's ``messages`` against the template."""
    problems: list[str] = []
    for key, source in english(template).items():
        if key not in messages:
            problems.append(f"missing: {key!r}")
        else:
            problems += form_problems(key, source, messages[key])
    return problems
