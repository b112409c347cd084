"""The English source of every sentence the hub renders by ``code`` (and ``params``).

A refusal or an alert reaches a client as ``{"code", "params", "message"}``. The ``message``
of an English request is the precise sentence the engine or the table wrote; any other
language gets the template below for that ``code``, translated through the gettext catalogs
(``companion/i18n/<lang>/LC_MESSAGES/messages.po``) and filled with ``params``. The dashboard
does the same with the browser catalog, so every device reads its own language.

Each template is marked with :func:`N_`, which returns its argument unchanged: it only tells
``pybabel extract`` (see ``babel.cfg``) that the string is a message. A template names only
the ``params`` that every refusal of its code carries; :func:`companion.i18n.localize.render`
fills a missing one with "?" rather than failing.
"""

from __future__ import annotations


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for a deferred message
    """Mark ``message`` for extraction; translation happens later, when it is rendered."""
    return message


VIOLATIONS: dict[str, str] = {
    "UNKNOWN_MOVE": N_("The companion does not know this kind of move."),
    "BAD_MOVE": N_("A field of the move is missing or has the wrong type."),
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
}
"""One template per engine violation code
(:data:`companion.games.popcorn.engine.violations.CODES`)."""

BM_VIOLATIONS: dict[str, str] = {
    "BAD_SETUP": N_("A B Movies game needs 3 to 6 players, a first player at the table and a "
                    "known variant."),
    "DRAWS_PENDING": N_("The tokens owed after the last vote must be drawn before the next "
                        "pitch."),
    "BAD_PITCH_SIZE": N_("A pitch is 2 to 4 Title cards."),
    "TITLE_TOO_LONG": N_("The movie title is too long for the companion."),
    "NOT_A_PRODUCER": N_("The screenwriter does not vote on their own pitch."),
    "BAD_VOTE": N_("A vote is Yes, Yes! or No."),
    "VOTE_CARD_GONE": N_("That player no longer holds that vote card: Yes! is used once."),
    "NO_DRAW_OWED": N_("That player is owed no popcorn token now."),
    "DRAW_BEYOND_OWED": N_("That player has already drawn every token owed this turn."),
    "TOKEN_ALREADY_DRAWN": N_("That popcorn token is already in a player's pile."),
    "TOKEN_VALUE_MISMATCH": N_("That popcorn token does not have the value the move says."),
    "NO_TOKEN_OF_VALUE": N_("No popcorn token of that value is left in the bucket."),
    "BAD_STUDIO_DEAL": N_("The studio deal does not match the Hidden Team chart."),
    "BAD_STATE": N_("The state is not a well-formed B Movies state."),
}
"""One template per B Movies violation code that Popcorn's engine does not share
(:data:`companion.games.bmovies.engine.CODES`; the shared ones are in :data:`VIOLATIONS`)."""

ERRORS: dict[str, str] = {
    "BAD_JSON": N_("The request body is not the JSON object the hub expects."),
    "BAD_ORIGIN": N_("A page of another site may not change this hub."),
    "BAD_PLAYER": N_("There is no such player at this table."),
    "BAD_REQUEST": N_("A field of the request is missing or has a wrong value."),
    "BAD_SEAT": N_("There is no such seat at this table."),
    "GAME_NOT_OVER": N_("The game has not ended yet."),
    "HAS_CORRECTIONS": N_("This game has corrections, which a game record cannot hold."),
    "NOTHING_TO_UNDO": N_("No move has been made at this table yet."),
    "PIN_REQUIRED": N_("This needs the table's PIN."),
    "WRONG_PIN": N_("That PIN is wrong."),
    "WRONG_TOKEN": N_("That is not this player's phone link."),
    "READER_IN_USE": N_("That bag reader is already in use at another table."),
    "TABLE_CLOSED": N_("This table is closed: its game can no longer change."),
    "TABLE_NOT_FOUND": N_("There is no such table."),
    "TOO_MANY_TRIES": N_("Too many wrong PINs: wait a moment and try again."),
    "NO_DRAW_WAITING": N_("This player has no drawn guest to seat."),
    "BAD_COLOR": N_("That is not a guest color."),
    "BAD_REGISTRY": N_("The tag file is not a valid tag registry."),
    "BAD_UID": N_("That is not a tag UID."),
    "COLOR_FULL": N_("Every guest of that color already has a tag."),
    "DUPLICATE_PAWN": N_("That guest already has a tag."),
    "DUPLICATE_UID": N_("That tag is already enrolled."),
    "BAD_CARD": N_("That is not a card of the catalog."),
    "CARD_FULL": N_("Every card of that kind, or every copy of that card, already has a tag."),
    "NOT_FOUND": N_("There is no such page."),
    "METHOD_NOT_ALLOWED": N_("This request method is not allowed here."),
    "BODY_TOO_LARGE": N_("The request body is too large."),
    "INTERNAL_ERROR": N_("The hub hit an unexpected error; nothing was changed."),
    "NOT_FOR_THIS_GAME": N_("This table plays another game: that request is not for it."),
    "SECRET_UNTIL_END": N_("This holds the players' secrets: it can be read once the game is "
                           "over."),
    "TOKEN_FULL": N_("Every popcorn token of that value already has a tag."),
    "BAD_TOKEN_VALUE": N_("That is not a popcorn token value."),
    "DUPLICATE_TOKEN": N_("That popcorn token already has a tag."),
    "LINK_NOT_KEPT": N_("The hub has restarted since this phone link was made, and it keeps no "
                        "copy of a link on disk: make a new link (the old one then stops "
                        "working)."),
}
"""One template per hub error code (table, PIN, registry, advisor and HTTP refusals)."""

ALERTS: dict[str, tuple[str, str]] = {
    "UNKNOWN_TAG": (
        N_("An unknown tag ({uid}) was tapped on {name}'s bag reader."),
        N_("Enroll this guest's tag, or check that it is one of the game's guests.")),
    "PAWN_OF_ANOTHER_PLAYER": (
        N_("This {color} {letter} guest is in {place}, but it was tapped on {name}'s bag "
           "reader."),
        N_("Put it back in {place}.")),
    "DRAW_BEYOND_AUDIENCE": (
        N_("{name} has already drawn the whole audience, and a {color} {letter} guest came "
           "out of the bag."),
        N_("Put the {color} {letter} guest back into {name}'s bag.")),
    "PAWN_NOT_IN_BAG": (
        N_("A {color} {letter} guest was drawn from {name}'s bag, but the companion has it "
           "in {place}."),
        N_("If it really was in the bag, correct its place (PIN); otherwise put it back in "
           "{place} and draw again.")),
    "COLOR_NOT_IN_BAG": (
        N_("A {color} {letter} guest was drawn from {name}'s bag, but the companion has no "
           "{color} guest left in {name}'s bag; it had this one in {place}."),
        N_("If it came from another bag or zone, put it back there ({place}, as far as the "
           "companion knows) and draw again; if {name}'s bag really held it, correct its place "
           "(PIN).")),
    "NO_DRAW_EXPECTED": (
        N_("A {color} {letter} guest came out of {name}'s bag, but no draw is expected now."),
        N_("Put it back into {name}'s bag.")),
    "UNEXPECTED_TAG": (
        N_("Nothing expects this {color} {letter} guest to go into {name}'s bag now; the "
           "companion has it in {place}."),
        N_("Put it back in {place}.")),
    "CARD_NOT_IN_DECK": (
        N_("{name} tapped an award card that is not in the award deck."),
        N_("Put that card back where it was and draw from the award deck on {name}'s "
           "reader.")),
    "NOT_PLAYERS_TURN": (
        N_("{title} was tapped on {name}'s reader, but it is {current}'s turn to buy."),
        N_("Put {title} back in the market; {current} buys first.")),
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
    "UNKNOWN_TAG:token": (
        N_("An unknown tag ({uid}) was tapped on {name}'s token pad."),
        N_("Enroll this token's tag (its value first), or check that it is one of the game's "
           "tokens.")),
    "TOKEN_NOT_OWED": (
        N_("A popcorn token was tapped on {name}'s pad, but {name} is owed no token now."),
        N_("Put the token back into the bucket: {name} draws no token now.")),
    "TOKEN_BEYOND_OWED": (
        N_("A popcorn token was tapped on {name}'s pad, but {name} has drawn every token "
           "owed this turn."),
        N_("Put the token back into the bucket: {name} has drawn every token owed this "
           "turn.")),
    "TOKEN_ALREADY_DRAWN": (
        N_("A popcorn token already in a player's pile was tapped on {name}'s pad."),
        N_("Keep the token where it was: it is already in a player's pile.")),
    "NOT_A_TOKEN": (
        N_("A tag that is no popcorn token was tapped on {name}'s pad."),
        N_("Only popcorn tokens are tapped at a B Movies table.")),
    "CARD_NOT_EXPECTED:award": (
        N_("An award card was tapped on {name}'s reader, but no award draw of {name}'s is "
           "waiting for it."),
        N_("Put the award card back; award cards are tapped only when the companion asks for "
           "a draw, on the drawing player's reader.")),
}
"""For each alert code: the message and the fix, with the alert's ``params``. A key
``CODE:kind`` holds the texts of that code for a card of that ``kind`` (param), when they
differ: an award card's alert never names the card (award cards are private)."""

def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_, for plurals
    """Mark a plural message (its singular and plural English forms) for extraction."""
    return singular, plural


BATCH: tuple[str, str] = Nn_(
    "The move was refused, so it was not made: {reason}",
    "Move {index} of {size} was refused, so none of the {size} moves was made: {reason}")
"""A refused batch of moves (its params have ``index``, from 1 here, and ``size``): the
singular and plural forms, chosen by ``size`` with the language's plural rule."""

PLACES: dict[str, str] = {
    "box": N_("the box"),
    "reserve": N_("the reserve"),
    "bag": N_("{owner}'s bag"),
    "exit": N_("{owner}'s exit zone"),
    "hand": N_("{owner}'s hand"),
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
"""The letter on a guest color's pawn disc: ``{letter}`` in a sentence, which names a guest
by its color and letter as the table sees it, never by a pawn number (the dashboard's
``colorLetter`` in ``web/js/i18n.js`` holds the same letters)."""
