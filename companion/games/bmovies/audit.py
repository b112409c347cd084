"""A B Movies pile audit: every popcorn token the player tapped against their pile.

The player taps each token of their pile on their pad (:mod:`companion.kit.audits`). The
companion keeps a pile as its values, with the ids of the tokens drawn by tap; a token
reported by hand is in it by its value only (:mod:`.corrections`). Tokens of one value are
interchangeable for the rules, so the pile is compared value by value, and a single token is
named only where its id is known:

- a tapped token the companion had in the bucket stands for a token of its value the pile
  holds without an id, if there is one left: nothing is found;
- **from the bucket**: otherwise it is a difference. While the player is owed a draw, it is
  the draw the pad missed, and the fix draws it (a ``draw_token`` move with its id); else
  the fix is a correction into the pile. When the companion has every token of its value in
  the players' piles already (one of them drawn without a tag), no correction may take it
  from the bucket: that difference is *refused*;
- **from another pile**: a tapped token the companion had, by its id, in another player's
  pile: the fix moves it into this pile (a correction);
- **not tapped**: a token the companion had in the pile that nobody tapped (by its id, or a
  value drawn without one): the fix puts it back into the bucket;
- **tapped twice**, unknown tags and tags that are no token: said, with nothing to mend.

The fixes run in that order once accepted: the tokens back to the bucket first, so that a
token of the same value may then come out of it.

**Privacy.** A pile is secret. The report for the audited player's phone (``private``) names
each token's value (``AUDIT_TOKEN_*`` findings, counts per value); the report for the table's
screen says the same without any value, token id or other pile (``AUDIT_PILE_*``, one count
of tokens), and shows its fixes only by what they mend (``shown_fixes``): the table applies
the same fixes whichever screen accepts them.

Pure: it reads the state (and a copy it changes to check each fix in turn) and returns a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.kit.audits import AuditReport, Finding
from companion.kit.errors import TableError
from companion.kit.game import AuditTap
from companion.kit.texts import Lenient

from .corrections import correct, untagged
from .engine import Move, State, Violation
from .tags import GAME_ID
from .texts import FINDINGS

PUBLIC = {"AUDIT_TOKEN_DRAWN": "AUDIT_PILE_DRAWN",
          "AUDIT_TOKEN_FROM_BUCKET": "AUDIT_PILE_FROM_BUCKET",
          "AUDIT_TOKEN_FROM_PILE": "AUDIT_PILE_FROM_PILE",
          "AUDIT_TOKEN_NOT_TAPPED": "AUDIT_PILE_NOT_TAPPED",
          "AUDIT_TOKEN_NONE_LEFT": "AUDIT_PILE_NONE_LEFT"}
"""Each phone's finding that names a value, and its twin for the table's screen."""


@dataclass(frozen=True)
class _Difference:
    """One token the pile and the companion disagree on: ``code`` (the phone's), its value,
    its id if known, and the fix (None: refused) with what the table's screen sees of it."""

    code: str
    value: int
    token: int | None
    fix: dict[str, Any] | None
    shown: dict[str, Any] | None


def audit(state: State, seat: int, taps: Sequence[AuditTap], names: list[str],
          private: bool) -> AuditReport:
    """What ``seat``'s audit taps say about their pile (see the module's text), for that
    player's phone (``private``) or for the table's screen."""
    name = names[seat]
    tokens, notes = _read_taps(state, seat, name, taps, private)
    differences = _Comparison(state, seat).run(tokens)
    findings, fixes, shown, refused = list(notes), [], [], []
    for diff in differences:
        code = diff.code if private else PUBLIC[diff.code]
        params: dict[str, Any] = {"player": seat, "name": name}
        if private:
            params = {**params, "value": diff.value,
                      **({} if diff.token is None else {"token": diff.token})}
        if diff.fix is None or diff.shown is None:
            refused.append({"code": code, "message": _message(code, params), "params": params})
            continue
        fixes.append(diff.fix)
        shown.append(diff.shown)
        findings.append(Finding(code, _message(code, params), params, len(fixes) - 1))
    counts = _counts(state, seat, tokens, private)
    return AuditReport(tuple(findings), tuple(fixes), tuple(refused), counts,
                       None if private else tuple(shown))


def _message(code: str, params: dict[str, Any]) -> str:
    return FINDINGS[code].format_map(Lenient(params))


def _read_taps(state: State, seat: int, name: str, taps: Sequence[AuditTap],
               private: bool) -> tuple[list[int], list[Finding]]:
    """The tokens tapped, each once, in tap order; the other taps as findings (a token
    tapped twice is said once, however often it came; the phone learns which)."""
    tokens: list[int] = []
    twice: set[int] = set()
    notes: list[Finding] = []
    base = {"player": seat, "name": name}
    for tap in taps:
        thing = tap.piece
        if thing is None:
            notes.append(_note("AUDIT_PILE_UNKNOWN_TAG", {**base, "uid": tap.uid}))
        elif thing.kind != "token" or thing.game not in ("", GAME_ID):
            notes.append(_note("AUDIT_PILE_NOT_A_TOKEN", {**base, "kind": thing.kind}))
        elif int(thing.id) not in tokens:
            tokens.append(int(thing.id))
        elif int(thing.id) not in twice:
            token = int(thing.id)
            twice.add(token)
            known = {"token": token, "value": state.facts.token_value(token)} if private else {}
            notes.append(_note("AUDIT_PILE_TAPPED_TWICE", {**base, **known}))
    return tokens, notes


def _note(code: str, params: dict[str, Any]) -> Finding:
    return Finding(code, _message(code, params), params)


class _Comparison:
    """The pile compared value by value with the tokens tapped, and the fixes checked in
    turn on a copy of the state."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat, self.trial = state, seat, state.clone()

    def run(self, tokens: list[int]) -> list[_Difference]:
        """The differences, in the order their fixes apply."""
        state, seat = self.state, self.seat
        value = state.facts.token_value
        known = state.pile_tokens[seat]
        loose = untagged(state, seat)  # values held without an id, not yet accounted for
        elsewhere, from_bucket = [], []
        for token in tokens:
            if token in known:
                continue
            if state.drawn.get(token) is not None:
                elsewhere.append(token)
            elif value(token) in loose:
                loose.remove(value(token))  # it stands for a token drawn without a tag
            else:
                from_bucket.append(token)
        out = [self._back(value(t), t) for t in known if t not in tokens]
        out += [self._back(v, None) for v in loose]
        out += [self._into("AUDIT_TOKEN_FROM_PILE", t) for t in elsewhere]
        out += [self._from_bucket(t) for t in from_bucket]
        return out

    def _back(self, value: int, token: int | None) -> _Difference:
        """A token of the pile nobody tapped: back to the bucket."""
        body: dict[str, Any] = ({"token": token, "zone": "bucket"} if token is not None
                                else {"value": value, "zone": "bucket", "player": self.seat})
        return self._correct("AUDIT_TOKEN_NOT_TAPPED", value, token, body, "bucket")

    def _into(self, code: str, token: int) -> _Difference:
        """A tapped token the companion had elsewhere: into the pile."""
        value = self.state.facts.token_value(token)
        return self._correct(code, value, token,
                             {"token": token, "zone": "pile", "player": self.seat}, "pile")

    def _from_bucket(self, token: int) -> _Difference:
        """A tapped token the companion had in the bucket: the draw the pad missed, if the
        player is owed one, else a correction into the pile."""
        value = self.state.facts.token_value(token)
        draw = Move("draw_token", player=self.seat, value=value, token=token)
        try:
            self.trial.apply(draw)
        except Violation:
            return self._into("AUDIT_TOKEN_FROM_BUCKET", token)
        shown = {"move": {"move": "draw_token", "player": self.seat}}
        return _Difference("AUDIT_TOKEN_DRAWN", value, token, {"move": draw.to_dict()}, shown)

    def _correct(self, code: str, value: int, token: int | None, body: dict[str, Any],
                 zone: str) -> _Difference:
        """A correction checked on the trial state; refused (``NONE_LEFT``) when the bucket
        has no token of its value left to give."""
        try:
            correct(self.trial, body)
        except TableError as exc:
            if exc.code != "NO_TOKEN_OF_VALUE":  # the comparison built it wrong: say so
                raise
            return _Difference("AUDIT_TOKEN_NONE_LEFT", value, token, None, None)
        shown = {"correct": {"zone": zone, "player": self.seat}}
        return _Difference(code, value, token, {"correct": body}, shown)


def _counts(state: State, seat: int, tokens: list[int],
            private: bool) -> tuple[dict[str, Any], ...]:
    """What was tapped against what the pile held: per value on the phone, one count of
    tokens on the table's screen."""
    pile = state.piles[seat]
    if not private:
        return ({"key": "tokens", "tapped": len(tokens), "expected": len(pile)},)
    tapped = [state.facts.token_value(t) for t in tokens]
    return tuple({"key": str(v), "value": v, "tapped": tapped.count(v),
                  "expected": pile.count(v)}
                 for v in state.facts.values if tapped.count(v) or pile.count(v))
