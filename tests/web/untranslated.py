"""Finding English left on a screen that should speak another language.

Every visible text node of the page is cut into words (runs of Latin letters); each word
must be a word of that language's catalog (its translations), or of the names on the screen
(players, the table, the card titles, reader ids; with German's genitive "s": "Anas Sack"),
or a color's letter. Japanese, written
without Latin letters, only keeps the few Latin words its catalog holds (PIN, Wi-Fi...), so
an English word stands out just the same. Numbers and signs are not words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from playwright.sync_api import Page

from companion.i18n.catalogs import browser_catalog, read_template

WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+")
LETTERS = {"w", "b", "g", "r", "y"}  # the colors' letters on the pawns (labels.js)
VISIBLE_TEXT = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const text = walk.currentNode.textContent.trim();
    const el = walk.currentNode.parentElement;
    if (!text || !el || el.closest("script, style, select, dialog:not([open]), [hidden]")) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    out.push(text);
  }
  return out;
}"""


def words(texts: Iterable[str]) -> set[str]:
    """The lowercased words of ``texts`` (placeholders such as ``{name}`` left out)."""
    return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{\w+\}", " ", text))}


def language_words(lang: str) -> set[str]:
    """Every word of a language's catalog: its translations, the award cards' words included
    (the English messages for en)."""
    if lang == "en":
        return words(m.id if isinstance(m.id, str) else " ".join(m.id)
                     for m in read_template() if m.id and not m.context)
    catalog = browser_catalog(lang)
    values = [v if isinstance(v, str) else " ".join(v) for v in catalog["messages"].values()]
    cards = [text for kind in catalog["contexts"].values() for text in kind.values()]
    return words(values + cards)


def visible_texts(page: Page) -> list[str]:
    """The text of every visible text node of the page."""
    return page.evaluate(VISIBLE_TEXT)


def foreign_texts(texts: Iterable[str], lang: str, names: Iterable[str]) -> list[str]:
    """The texts holding a word that is neither ``lang``'s nor one of ``names``."""
    named = words(names)
    allowed = language_words(lang) | named | {f"{w}s" for w in named} | LETTERS  # Anas Sack
    return [text for text in texts if words([text]) - allowed]
