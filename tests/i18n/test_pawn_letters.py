"""Each language's pawn letters, from the catalogs (issue 22, item 8): a guest's color shows
with a letter on every screen, so that color is never the only cue. English's W/B/G/R/Y
mean nothing in French, where B would read as *blanc* but stand for *bleu*: each language
has its own letters (``msgctxt "letter:<color>"``), and the dashboard takes them from the
browser catalog. No two colors of one language share a letter, and each letter reads as
its color: it starts that color's word in that language and follows its letters in order
(French *Bc* for blanc and *Bl* for bleu, German *Gr* for grün and *Ge* for gelb, Japanese
白 for 白)."""

from __future__ import annotations

import pytest

from companion.games.popcorn.texts import COLORS
from companion.i18n import LANGUAGES
from companion.i18n.catalogs import browser_catalog, read_template, translations

GUESTS = ("white", "blue", "green", "red", "yellow")
"""The guest colors (a seat's "grey", any color, shows no letter of a color)."""


def english() -> dict[str, str]:
    """English's letters: the messages of context ``letter:<color>`` in the template (their
    source is ``web/js/labels.js``)."""
    return {m.context.removeprefix("letter:"): m.id for m in read_template()
            if m.context and m.context.startswith("letter:")}


def letters(lang: str) -> dict[str, str]:
    """The letter of each guest color in ``lang``, as the dashboard finds it (its catalog's
    context ``letter``, else English's)."""
    own = browser_catalog(lang)["contexts"].get("letter", {})
    return {color: own.get(color) or english()[color] for color in GUESTS}


def reads_as(letter: str, word: str) -> bool:
    """Whether ``letter`` starts ``word`` and follows its letters in order."""
    letter, word = letter.casefold(), word.casefold()
    rest = iter(word)
    return word.startswith(letter[0]) and all(ch in rest for ch in letter)


def test_english_letters_are_the_sources_and_every_guest_color_has_one() -> None:
    assert english() == {"white": "W", "blue": "B", "green": "G", "red": "R", "yellow": "Y"}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_language_has_its_own_letters(lang: str) -> None:
    assert set(browser_catalog(lang)["contexts"]["letter"]) == set(GUESTS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_colors_share_a_letter(lang: str) -> None:
    found = letters(lang)
    assert all(1 <= len(letter) <= 2 for letter in found.values()), found
    assert len({letter.casefold() for letter in found.values()}) == len(GUESTS), found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_letter_reads_as_its_color_in_its_language(lang: str) -> None:
    words = {color: translations(lang).gettext(COLORS[color]) for color in GUESTS}
    found = letters(lang)
    assert all(reads_as(found[color], words[color]) for color in GUESTS), (found, words)


def test_french_blue_is_no_longer_the_b_of_blanc() -> None:
    assert letters("fr")["blue"] != letters("fr")["white"]
    assert not letters("fr")["white"].upper().startswith("W")


def test_the_check_catches_a_shared_letter_and_a_letter_of_another_word() -> None:
    assert reads_as("Bl", "bleu") and reads_as("Bc", "blanc") and reads_as("白", "白")
    assert not reads_as("B", "weiß") and not reads_as("Y", "jaune")
    assert not reads_as("Lb", "bleu")
