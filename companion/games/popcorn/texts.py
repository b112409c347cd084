"""Popcorn's sentences: the templates of its refusals and alerts, and its words.

Every code Popcorn raises has an English template here, marked with
:func:`~companion.kit.texts.N_` for the catalogs (``companion/i18n``): the engine's
violations (:data:`companion.games.popcorn.engine.violations.CODES`) and its routes' refusals
(:data:`REFUSALS`), each alert of its tag reading (:data:`ALERTS`,
:data:`companion.games.popcorn.tags.ALERT_CODES`), the guest colors and the places an alert
names (:data:`COLORS`, :data:`PLACES`), and the sentences of the card catalog a player reads
(award conditions and titles, what an action does, each theater tile's name as it looks:
:func:`data_words`, :data:`TILE_TITLES`). The hub renders them
in each device's language (:mod:`companion.i18n.localize`, ``web/js/i18n.js``).
"""

from __future__ import annotations

from companion.kit.texts import N_, DataWord, GameTexts, Words

from .engine import GUEST_COLORS
from .facts_file import action_meanings, award_words, load_catalog
from .tile_looks import LOOK, LOOK_NOTE, tile_look

REFUSALS: dict[str, str] = {
    "UNKNOWN_MOVE": N_("The companion does not know this kind of move."),
    "BAD_MOVE": N_("A field of the move is missing or has the wrong type."),
    "BAD_PLACE": N_("A cinema has no such slot or seat."),
    "GAME_OVER": N_("The game is over."),
    "WRONG_PHASE": N_("This move does not belong to the current phase."),
    "NOT_YOUR_TURN": N_("Another player must act first."),
    "PENDING_STEP": N_("An earlier step (a choice or a reveal) must be resolved first."),
    "NOT_EXPECTED": N_("The game does not expect this kind of move now."),
    "CARD_NOT_AVAILABLE": N_("The card or tile is not where the move says."),
    "AWARD_NOT_DRAWN": N_("The kept award is not one of the two drawn."),
    "MOVIE_ALREADY_BOUGHT": N_("One movie per turn."),
    "THEATER_ALREADY_BOUGHT": N_("One theater per turn."),
    "FIRST_TURN_NO_THEATER": N_("No theater on the first turn."),
    "NOT_ENOUGH_MONEY": N_("The player cannot pay the price."),
    "NO_SUCH_SLOT": N_("A cinema has three slots: left, center and right."),
    "SLOT_HAS_NO_THEATER": N_("A movie needs a theater with seats."),
    "TOKEN_NOT_ON_SPACE": N_("The player has no token on that advertising space."),
    "TOKEN_NOT_READY": N_("No advertising token can be activated in the first round."),
    "COLOR_REQUIRED": N_("The multicolor space needs a guest color."),
    "PAWN_NOT_AVAILABLE": N_("The guest cannot be taken from where it is."),
    "RESERVE_FIRST": N_("The reserve must be used before another player's exit zone."),
    "BAD_TARGET": N_("The target player does not exist."),
    "PAWN_NOT_IN_BAG": N_("The guest is not in that player's bag."),
    "DRAW_NOT_EXPECTED": N_("The player has already drawn the whole audience."),
    "DRAW_NOT_DONE": N_("Guests are placed only after the whole audience is drawn."),
    "PAWN_NOT_DRAWN": N_("The guest is not among the guests waiting to be placed."),
    "THEATER_HAS_NO_MOVIE": N_("Guests sit only in theaters showing a movie."),
    "SEAT_ORDER": N_("Seats fill in order, seat 1 first."),
    "NO_SUCH_SEAT": N_("The theater has no such seat."),
    "SEAT_AVAILABLE": N_("Extra guests go to the exit zone only when no seat is free."),
    "SEAT_NOT_ELIGIBLE": N_("That seat was already activated this showing, or is not next."),
    "PLACEMENT_NOT_DONE": N_("Every drawn guest must be placed before guests act."),
    "THEATER_NOT_FINISHED": N_("Finish the theater being resolved before another one."),
    "NO_GUEST_TO_ACT": N_("No guest waits to act in that theater."),
    "SEAT_COLOR": N_("A colored seat action needs a guest of that color."),
    "SEAT_ACTION_TAKEN": N_("The guest has already taken or passed its seat action."),
    "MOVIE_COLOR": N_("A movie action needs a guest of the movie's color."),
    "MOVIE_ACTION_USED": N_("Each movie action is used once per round."),
    "MOVIE_ACTION_COVERED": N_("The lobby slider covers that action."),
    "MOVIE_ACTION_TAKEN": N_("The guest has already taken its movie action."),
    "ACTION_NOT_USABLE": N_("The action cannot be taken now."),
    "NO_TOKEN_LEFT": N_("The player has no advertising token left."),
    "PAWN_NOT_IN_EXIT": N_("The guest is not in the player's exit zone."),
    "PAWN_NOT_IN_CINEMA": N_("The guest is not on a seat or in the exit zone of the player."),
    "BAD_ACTION_INDEX": N_("The movie has no action there."),
    "GUEST_NOT_ACTING": N_("It is another guest's turn to act."),
    "GUEST_LEFT": N_("That guest has already acted and left for the exit zone."),
    "BAD_POSITION": N_("The position is not a well-formed position document."),
    "NEGATIVE_AMOUNT": N_("Money, popcorn, tokens and counters are never below 0."),
    "PAWN_COUNT": N_("A position places exactly the guests of the box."),
    "PAWN_TWICE": N_("A guest is in one place only."),
    "UNKNOWN_CARD": N_("The position names a card or tile the catalog does not have."),
    "CARD_TWICE": N_("A movie, theater tile or award card is in one place only."),
    "TOKEN_COUNT": N_("A player's advertising tokens must add up to the set."),
    "SEAT_INVALID": N_("A theater's seat list must match its seat count."),
    "NO_DRAW_WAITING": N_("This player has no drawn guest to seat."),
    "NO_SUCH_GUEST": N_("The companion has no {color} guest in {place}."),
    "NOT_THERE": N_("The companion knows this {color} {letter} guest cannot be in {place}."),
    "PAWN_IN_PLAY": N_("This {color} {letter} guest is drawn or seated ({place}): the rules "
                       "move it on; correct it once it is back in a bag, an exit zone, the "
                       "reserve or the box."),
}
"""One template per refusal code: the engine's violations, the advisor's routes' and the
corrections' (a guest named by color and place that is not there)."""

FINDINGS: dict[str, str] = {
    "AUDIT_FOUND_ELSEWHERE": N_("The {color} {letter} guest is in {name}'s bag, but the "
                                "companion had it in {place}."),
    "AUDIT_FOUND_UNSURE": N_("The {color} {letter} guest is in {name}'s bag, but the "
                             "companion knew it was not there and cannot say where it came "
                             "from: check the other bags, or correct its place by hand."),
    "AUDIT_NOT_TAPPED_DRAWN": N_("The companion had a {color} {letter} guest in {name}'s bag "
                                 "that was not tapped: it counts as drawn."),
    "AUDIT_NOT_TAPPED": N_("The companion had a {color} {letter} guest in {name}'s bag that "
                           "was not tapped: it goes to {place}."),
    "AUDIT_TAPPED_TWICE": N_("The {color} {letter} guest was tapped twice: it counts once."),
    "AUDIT_UNKNOWN_TAG": N_("An unknown tag ({uid}) was tapped during the audit of {name}'s "
                            "bag."),
    "AUDIT_NOT_A_GUEST": N_("A {kind} tag was tapped during the audit of {name}'s bag: only "
                            "guests count."),
}
"""One template per finding of a bag audit (:mod:`.audit`), filled with its ``params``; the
screens render them as they render refusals."""

ALERTS: dict[str, tuple[str, str]] = {
    "MAT_UNKNOWN_TAG": (
        N_("An unknown tag ({uid}) was set down on {name}'s cinema."),
        N_("Enroll this guest's tag, or take it off the cinema.")),
    "MAT_NOT_A_GUEST": (
        N_("Something that is not a guest was set down on {name}'s cinema."),
        N_("Take it off the cinema: only guests sit there.")),
    "GUEST_NOT_DRAWN": (
        N_("A {color} {letter} guest was set down in theater {slot} of {name}'s cinema, but "
           "{name} has not drawn it."),
        N_("Put it back where it came from: only guests drawn from the bag take a seat.")),
    "EXIT_POURED_EARLY": (
        N_("{name}'s exit zone was emptied, but {name}'s bag still holds guests: the exit "
           "zone goes back into the bag only when the bag is empty."),
        N_("Put the guests back on the exit zone; pour them into the bag when a draw finds "
           "it empty.")),
    "MAT_EXTRA_GUEST": (
        N_("{name}'s mat shows a {color} {letter} guest in theater {slot} that the companion "
           "does not have there."),
        N_("Set the guests as the tablet shows them, or accept what the mat shows (table "
           "PIN).")),
    "MAT_EXTRA_GUEST:exit": (
        N_("{name}'s mat shows a {color} {letter} guest on the exit zone that the companion "
           "does not have there."),
        N_("Set the guests as the tablet shows them, or accept what the mat shows (table "
           "PIN).")),
    "MAT_MISSING_GUEST": (
        N_("The companion has a {color} {letter} guest in theater {slot} of {name}'s cinema, "
           "but the mat does not show it."),
        N_("Set the guests as the tablet shows them, or accept what the mat shows (table "
           "PIN).")),
    "MAT_MISSING_GUEST:exit": (
        N_("The companion has a {color} {letter} guest on {name}'s exit zone, but the mat "
           "does not show it."),
        N_("Set the guests as the tablet shows them, or accept what the mat shows (table "
           "PIN).")),
    "THEATER_HAS_NO_MOVIE:mat": (
        N_("A {color} {letter} guest was set down in theater {slot} of {name}'s cinema, "
           "which shows no movie."),
        N_("Take it off: guests sit only in theaters showing a movie.")),
    "NO_SUCH_SEAT:mat": (
        N_("A {color} {letter} guest was set down in theater {slot} of {name}'s cinema, "
           "which is full."),
        N_("Take it off and seat it in a theater with a free seat.")),
    "GUEST_TAKEN_OUT": (
        N_("A {color} {letter} guest was taken out of theater {slot} of {name}'s cinema "
           "before it was activated."),
        N_("Put it back in seat #{seat} of theater {slot}: a guest leaves its seat only "
           "when it is activated.")),
    "GUEST_LEFT_IN_THEATER": (
        N_("A {color} {letter} guest is still in theater {slot} of {name}'s cinema, but the "
           "Showings are over."),
        N_("Move it to {name}'s exit zone: every guest leaves its theater once activated.")),
    "GUEST_NOT_SEATED": (
        N_("A {color} {letter} guest was set down on {name}'s exit zone, but it was neither "
           "in {name}'s theaters nor drawn."),
        N_("Put it back where it came from.")),
    "UNKNOWN_TAG": (
        N_("An unknown tag ({uid}) was tapped on {name}'s bag reader."),
        N_("Enroll this guest's tag, or check that it is one of the game's guests.")),
    "PAWN_OF_ANOTHER_PLAYER": (
        N_("This {color} {letter} guest is in {place}, but it was tapped on {name}'s bag "
           "reader."),
        N_("Put it back in {place}.")),
    "PAWN_OF_ANOTHER_PLAYER:unsure": (
        N_("This {color} {letter} guest is in another player's place, but it was tapped on "
           "{name}'s bag reader."),
        N_("Put it back where it came from.")),
    "DRAW_BEYOND_AUDIENCE": (
        N_("{name} has already drawn the whole audience, and a {color} {letter} guest came "
           "out of the bag."),
        N_("Put the {color} {letter} guest back into {name}'s bag.")),
    "DRAW_BEYOND_AUDIENCE:unsure": (
        N_("{name} has already drawn the whole audience, and a {color} {letter} guest was "
           "tapped on the bag reader."),
        N_("Put the {color} {letter} guest back where it came from.")),
    "PAWN_NOT_IN_BAG": (
        N_("A {color} {letter} guest was drawn from {name}'s bag, but the companion has it "
           "in {place}."),
        N_("If it really was in the bag, correct its place (PIN); otherwise put it back in "
           "{place} and draw again.")),
    "PAWN_NOT_IN_BAG:unsure": (
        N_("A {color} {letter} guest was drawn from {name}'s bag, but the companion knows "
           "this guest was not in that bag."),
        N_("Put it back where it came from and draw again; if the bag really held it, check "
           "the bag (audit).")),
    "COLOR_NOT_IN_BAG": (
        N_("A {color} {letter} guest was drawn from {name}'s bag, but the companion has no "
           "{color} guest left in {name}'s bag; it had this one in {place}."),
        N_("If it came from another bag or zone, put it back there ({place}, as far as the "
           "companion knows) and draw again; if {name}'s bag really held it, correct its place "
           "(PIN).")),
    "COLOR_NOT_IN_BAG:unsure": (
        N_("A {color} {letter} guest was drawn from {name}'s bag, but the companion has no "
           "{color} guest left in {name}'s bag."),
        N_("Put it back where it came from and draw again; if the bag really held it, check "
           "the bag (audit).")),
    "NO_DRAW_EXPECTED": (
        N_("A {color} {letter} guest came out of {name}'s bag, but no draw is expected now."),
        N_("Put it back into {name}'s bag.")),
    "UNEXPECTED_TAG": (
        N_("Nothing expects this {color} {letter} guest to go into {name}'s bag now; the "
           "companion has it in {place}."),
        N_("Put it back in {place}.")),
    "UNEXPECTED_TAG:unsure": (
        N_("Nothing expects this {color} {letter} guest to go into {name}'s bag now."),
        N_("Put it back where it came from.")),
    "CARD_NOT_IN_DECK": (
        N_("{name} tapped an award card that is not in the award deck."),
        N_("Put that card back where it was and draw from the award deck on {name}'s "
           "reader.")),
    "NOT_PLAYERS_TURN": (
        N_("{title} was tapped on {name}'s reader, but it is {current}'s turn to buy."),
        N_("Put {title} back in the market; {current} buys first.")),
    "WAITING_FOR_GAIN": (
        N_("{title} was tapped on {name}'s reader, but {waiting} still has to take a {color} "
           "guest."),
        N_("Put {title} back in the market; first {waiting} takes the {color} guest and taps "
           "it on the bag's reader.")),
    "WAITING_FOR_AWARD": (
        N_("{title} was tapped on {name}'s reader, but {waiting} still has to draw award "
           "cards."),
        N_("Put {title} back in the market; first {waiting} draws the award cards (their "
           "phone says how).")),
    "CARD_NOT_BUYABLE": (
        N_("The rules do not let {name} buy {title} now (its price, a card of that kind "
           "already bought this turn, a step to finish first, or no theater before round 2)."),
        N_("Put {title} back in the market.")),
    "CARD_ALREADY_OWNED": (
        N_("{title} was tapped on {name}'s reader, but it is already in {owner}'s cinema."),
        N_("Put {title} back in {owner}'s cinema.")),
    "CARD_NOT_IN_MARKET": (
        N_("{title} was tapped on {name}'s reader to buy it, but it is not in the market."),
        N_("Put {title} back; only the movies and theater tiles face up in the market can "
           "be bought.")),
    "CARD_NOT_EXPECTED": (
        N_("{title} was tapped on {name}'s reader, but no step expects that card now."),
        N_("Put {title} back where it was.")),
    "CARD_NOT_EXPECTED:award": (
        N_("An award card was tapped on {name}'s reader, but no award draw of {name}'s is "
           "waiting for it."),
        N_("Put the award card back; award cards are tapped only when the companion asks for "
           "a draw, on the drawing player's reader.")),
}
"""For each alert code: the message and the fix, with the alert's ``params``. A key
``CODE:kind`` holds the texts of that code for a card of that ``kind`` (param), when they
differ: an award card's alert never names the card (award cards are private), and a pawn
alert's ``CODE:unsure`` names no place (the hub cannot say where the pawn is)."""

PLACES: dict[str, str] = {
    "box": N_("the box"),
    "reserve": N_("the reserve"),
    "bag": N_("{owner}'s bag"),
    "exit": N_("{owner}'s exit zone"),
    "hand": N_("{owner}'s hand"),
    "cinema": N_("{owner}'s cinema"),
    "area": N_("{owner}'s play area"),
    "seat-0": N_("seat {seat} of {owner}'s left theater"),
    "seat-1": N_("seat {seat} of {owner}'s center theater"),
    "seat-2": N_("seat {seat} of {owner}'s right theater"),
}
"""Where a guest is, by ``zone`` (and ``slot`` for a seat): ``{place}`` in an alert."""

COLORS: dict[str, str] = {
    "white": N_("white"),
    "blue": N_("blue"),
    "green": N_("green"),
    "red": N_("red"),
    "yellow": N_("yellow"),
    "grey": N_("grey"),
}
"""Guest and seat colors, as adjectives: ``{color}`` in a sentence."""

LETTERS: dict[str, str] = {"white": "W", "blue": "B", "green": "G", "red": "R", "yellow": "Y",
                           "grey": "·"}
"""The letter on a guest color's pawn disc: ``{letter}`` in a sentence, which names a guest by
its color and letter as the table sees it ("the blue B guest"), never by a pawn number (no
pawn carries one). The dashboard's discs take the same letters (``colorLetter`` in
``web/js/i18n.js``, from the catalog's ``codes.words.letter``)."""

ACTION = "action:"
"""The message context of what an action does (a tooltip): ``action:<action id>``."""
AWARD = "award:"
"""The message context of an award's condition: ``award:<award id>``."""
AWARD_TITLE = "award-title:"
"""The message context of an award's title: ``award-title:<award id>``."""
LETTER = "letter:"
"""The message context of a guest color's letter: ``letter:<color>`` (``{letter}``)."""
LETTER_NOTE = ("The letter on a guest pawn of this color: one or two letters that start the "
               "color's word, never the same as another color's.")
"""What a translator is told about a letter."""
TITLE_NOTE = ("A card title: as printed on the English card, unless the language's rulebook "
              "names the card itself.")
"""What a translator is told about an award's title."""


def data_words() -> tuple[DataWord, ...]:
    """The card catalog's sentences a player reads, each keyed by its action's or card's id:
    what each action does, each award's condition and its title (a title stays as printed on
    the English card unless the language's rulebook gives its own)."""
    actions = [DataWord(ACTION + action, meaning)
               for action, meaning in action_meanings().items()]
    awards = [word for award in award_words() for word in (
        DataWord(AWARD + award["id"], award["condition"]),
        DataWord(AWARD_TITLE + award["id"], award["title"], TITLE_NOTE))]
    letters = [DataWord(LETTER + color, mark, LETTER_NOTE)
               for color, mark in LETTERS.items() if color in GUEST_COLORS]
    tiles = [DataWord(context, look, LOOK_NOTE) for context, look in tile_titles().items()]
    return tuple(actions + awards + letters + tiles)


def tile_titles() -> dict[str, str]:
    """Each theater tile's name inside a sentence, keyed ``theater:<id>``: the English the
    catalogs translate under that context (:mod:`.tile_looks`), and the templates of the
    ``{title}`` word of a tile's alert (its params ``kind`` and ``card``)."""
    return {LOOK + t.id: tile_look(t) for t in load_catalog().theaters.values()
            if not t.default}


def texts() -> GameTexts:
    """Popcorn's :class:`~companion.kit.texts.GameTexts`."""
    return GameTexts(
        refusals={**REFUSALS, **FINDINGS}, alerts=ALERTS,
        words={"color": Words(("{color}",), COLORS),
               "letter": Words(("{color}",), LETTERS, context=LETTER + "{color}"),
               "place": Words(("{zone}-{slot}", "{zone}"), PLACES),
               "title": Words(("{kind}:{card}",), tile_titles(), context=LOOK + "{card}")},
        numbers=("pawn", "seat", "price", "money"),
        data_words=data_words())
