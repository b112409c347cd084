"""B Movies' sentences: the templates of its refusals and alerts.

Every code B Movies raises has an English template here, marked with
:func:`~companion.kit.texts.N_` for the catalogs (``companion/i18n``): the engine's
violations (:data:`companion.games.bmovies.engine.CODES`), the refusals of a score sheet
(:data:`companion.games.bmovies.scoresheet.SHEET_CODES`), each alert of its token taps
(:data:`companion.games.bmovies.tags.ALERT_CODES`), the refusals of a token correction
(:mod:`companion.games.bmovies.corrections`) and the findings of a pile audit
(:mod:`companion.games.bmovies.audit`). A code Popcorn shares ("GAME_OVER")
carries the same sentence in both games, so it is translated once.
"""

from __future__ import annotations

from companion.kit.texts import N_, GameTexts

REFUSALS: dict[str, str] = {
    "UNKNOWN_MOVE": N_("The companion does not know this kind of move."),
    "BAD_MOVE": N_("A field of the move is missing or has the wrong type."),
    "GAME_OVER": N_("The game is over."),
    "WRONG_PHASE": N_("This move does not belong to the current phase."),
    "NOT_YOUR_TURN": N_("Another player must act first."),
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
"""One template per violation code of the B Movies engine."""

CORRECTION_REFUSALS: dict[str, str] = {
    "NO_SUCH_TOKEN": N_("The companion has no token worth {value} drawn without a tag in that "
                        "player's pile."),
    "TOKEN_ALREADY_THERE": N_("The companion already has that popcorn token (worth {value}) "
                              "there."),
}
"""One template per refusal of a token correction (:mod:`.corrections`) that the engine
does not raise itself (``NO_TOKEN_OF_VALUE`` is the engine's, with its template above). Only
the one who sent the correction with the table's PIN reads them, so they may name a value."""

FINDINGS: dict[str, str] = {
    "AUDIT_TOKEN_DRAWN": N_("A popcorn token worth {value} is in {name}'s pile, but the "
                            "companion had it in the bucket: it counts as a draw {name} was "
                            "owed."),
    "AUDIT_TOKEN_FROM_BUCKET": N_("A popcorn token worth {value} is in {name}'s pile, but the "
                                  "companion had it in the bucket: it goes into the pile."),
    "AUDIT_TOKEN_FROM_PILE": N_("A popcorn token worth {value} is in {name}'s pile, but the "
                                "companion had it in another player's pile: it moves to "
                                "{name}'s pile."),
    "AUDIT_TOKEN_NOT_TAPPED": N_("The companion had a popcorn token worth {value} in {name}'s "
                                 "pile that was not tapped: it goes back to the bucket."),
    "AUDIT_TOKEN_NONE_LEFT": N_("A popcorn token worth {value} is in {name}'s pile, but the "
                                "companion has every token worth {value} in the players' "
                                "piles: a token of that value drawn without a tag must go back "
                                "to the bucket first."),
    "AUDIT_PILE_DRAWN": N_("A popcorn token in {name}'s pile was still in the bucket for the "
                           "companion: it counts as a draw {name} was owed."),
    "AUDIT_PILE_FROM_BUCKET": N_("A popcorn token in {name}'s pile was still in the bucket for "
                                 "the companion: it goes into the pile."),
    "AUDIT_PILE_FROM_PILE": N_("A popcorn token in {name}'s pile was in another player's pile "
                               "for the companion: it moves to {name}'s pile."),
    "AUDIT_PILE_NOT_TAPPED": N_("The companion had a popcorn token in {name}'s pile that was "
                                "not tapped: it goes back to the bucket."),
    "AUDIT_PILE_NONE_LEFT": N_("A popcorn token in {name}'s pile cannot join it: the companion "
                               "has every token of its value in the players' piles, so a token "
                               "drawn without a tag must go back to the bucket first."),
    "AUDIT_PILE_TAPPED_TWICE": N_("A popcorn token was tapped twice during the audit of "
                                  "{name}'s pile: it counts once."),
    "AUDIT_PILE_UNKNOWN_TAG": N_("An unknown tag ({uid}) was tapped during the audit of "
                                 "{name}'s pile."),
    "AUDIT_PILE_NOT_A_TOKEN": N_("A {kind} tag was tapped during the audit of {name}'s pile: "
                                 "only popcorn tokens count."),
}
"""One template per finding (and refusal) of a token pile audit (:mod:`.audit`), filled with
its ``params``. ``AUDIT_TOKEN_*`` name the token's value, for the audited player's phone
only; each has its ``AUDIT_PILE_*`` twin, which says the same to the table's screen without
a value, a token id or the other pile. ``AUDIT_PILE_TAPPED_TWICE``, ``..._UNKNOWN_TAG`` and
``..._NOT_A_TOKEN`` name no value and serve both."""

SHEET_REFUSALS: dict[str, str] = {
    "BAD_SHEET": N_("The score sheet is not a well-formed B Movies sheet."),
    "SHEET_PLAYER_COUNT": N_("A B Movies score sheet lists {min} to {max} players, not "
                             "{count}."),
    "SHEET_MOVIE_SIZE": N_("{name}: a movie is {min} to {max} Title cards, not {cards}."),
    "SHEET_BUCKET": N_("The players hold {count} tokens worth {value}, but the bucket has "
                       "only {limit}."),
    "SHEET_STUDIO_DEAL": N_("With {players} players the studios come in copies {chart}."),
    "SHEET_MOVIES_BEYOND_ROUNDS": N_("{name} lists {count} movies made, but a game of "
                                     "{players} players has {limit} rounds and a player "
                                     "pitches once a round."),
    "SHEET_TOKENS_BEYOND_DRAWS": N_("{name} holds {count} tokens, but one player can draw at "
                                    "most {limit} in this game: one per pitch they vote on, "
                                    "or one per Title card of the movie their single Yes! "
                                    "backs."),
    "SHEET_TOKENS_BELOW_DRAWS": N_("{name} holds {count} tokens, but the other players' "
                                   "{rejected} rejected pitches made {name} draw at least "
                                   "{limit}."),
    "SHEET_TOO_FEW_TOKENS": N_("The players hold {count} tokens in all, but the {pitches} "
                               "pitches of a finished game draw at least {limit}."),
}
"""One template per code of a refused score sheet
(:data:`companion.games.bmovies.scoresheet.SHEET_CODES`), naming the player and the bound."""

ALERTS: dict[str, tuple[str, str]] = {
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
}
"""For each alert code of a token tap: the message and the fix, with the alert's
``params``. An unknown tag on a token pad is ``UNKNOWN_TAG`` with ``kind`` "token", so its
texts are under ``UNKNOWN_TAG:token``."""

TEXTS = GameTexts(refusals={**REFUSALS, **SHEET_REFUSALS, **CORRECTION_REFUSALS, **FINDINGS},
                  alerts=ALERTS, numbers=("value",))
"""B Movies' :class:`~companion.kit.texts.GameTexts`."""
