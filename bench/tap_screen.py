"""Where the table driver of ``bench/taps.py`` taps a player's own moves: the tablet or that
player's phone.

Both screens offer the same shortcuts under different test ids: the tablet's carry the
player's seat (``seat-play-2``) because it shows every cinema; a phone's do not (it shows one
player's). A :class:`Screen` names a device's controls, so the driver's logic (which move a
shortcut sends, whether it is the record's) is written once and the target is a parameter.
A control a screen does not offer (a phone has no seats to tap) is ``None``: the driver
then enters the moves one by one on that screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

TABLET_IDS = {
    "seat-play": "seat-play-{p}", "seat-all": "seat-all-{p}", "gains": "gains-{p}",
    "suggestion": "suggestion-{p}", "skip-rest": "skip-rest-{p}",
    "choice": "card-choice-{slot}", "guest": "seat-{p}-{slot}-{seat}",
}
"""The tablet's shortcuts, by the driver's name for them, as test id templates (``guest``:
a tap on a seated guest, which ends the guests due before it)."""

PHONE_IDS = {
    "seat-play": "phone-seat-play", "seat-all": "phone-seat-all", "gains": "phone-gains",
    "suggestion": "phone-suggestion", "choice": "phone-choice-{slot}",
    "skip-rest": "phone-skip-rest",
}
"""A phone's shortcuts (``companion/games/popcorn/web/phone_turn.js``): its own player's only."""


@dataclass(frozen=True)
class Screen:
    """A device the driver taps: its page, its name in the tally ("tablet" or "phone"), the
    player it belongs to (a phone) and how its controls are found."""

    page: Page
    device: str
    seat: int | None
    ids: dict[str, str]
    moves: str
    """The selector of the buttons that send one move (or open a group of look-alikes)."""
    group: str
    """The ``data-act`` of a button that opens a group of moves ("which guest?")."""

    @classmethod
    def tablet(cls, page: Page) -> Screen:
        """The table screen: every player's controls."""
        return cls(page, "tablet", None, TABLET_IDS,
                   "button[data-same], button[data-move]", "open-group")

    @classmethod
    def phone(cls, page: Page, seat: int) -> Screen:
        """Player ``seat``'s phone: the buttons of the player's own turn panel."""
        return cls(page, "phone", seat, PHONE_IDS,
                   "[data-testid='phone-play'] button[data-same]", "turn-group")

    def control(self, name: str, **fields: int | None) -> Locator | None:
        """The control ``name`` (a key of :data:`TABLET_IDS`) for ``fields`` (``p``: the
        player, ``slot``), or None when this screen does not offer it."""
        template = self.ids.get(name)
        return None if template is None else self.page.get_by_test_id(template.format(**fields))

    def offers(self, name: str) -> bool:
        """Whether this screen has the control ``name`` at all."""
        return name in self.ids
