"""What every card alert must have: texts whose placeholders its params fill, in every
language."""

from __future__ import annotations

from companion.i18n.catalogs import translations
from companion.i18n.localize import alert_texts, placeholders, render_alert


def assert_localized(code: str, params: dict) -> None:
    """A card alert has texts, its params fill every placeholder of them, and it renders
    whole in French, German and Japanese; an award card's alert names no card."""
    message, fix = alert_texts(code, params)
    assert placeholders(message) | placeholders(fix) <= set(params), (code, params)
    for lang in ("fr", "de", "ja"):
        catalog = translations(lang)
        text = " ".join(render_alert(code, params, catalog.gettext, lang,
                                       pgettext=catalog.pgettext))
        assert "{" not in text and "?" not in text and "tapped" not in text, text
    if params.get("kind") == "award":
        assert "title" not in params and "card" not in params, params
