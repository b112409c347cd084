"""Corrections: the table says where a popcorn token really is, with its PIN.

A token is in the bucket or in one player's pile. The engine keeps a pile as its values
(``State.piles``), with the ids of the tokens drawn by tap (``State.pile_tokens``): a token
reported by hand (a phone's ``draw_token`` without an id) is in the pile by its value only.
A ``correct`` event moves one token, named in one of two ways:

- by its id, when its tag says which token it is: ``{"token": 57, "zone": "pile",
  "player": 1}`` (into Bob's pile, from the bucket or from the pile the companion had it in)
  or ``{"token": 57, "zone": "bucket"}`` (back from the pile that holds it);
- by its value, for a token whose id the companion never learned: ``{"value": 3, "zone":
  "bucket", "player": 1}`` (one of Bob's 3s drawn without a tag goes back to the bucket), or
  ``{"value": 3, "zone": "pile", "player": 1}`` (a 3 from the bucket joins Bob's pile).

Each keeps the engine's invariants: the bucket holds, of each value, the tokens no pile
holds; every id in a pile is one of its values. A bad body raises
:class:`~companion.kit.errors.TableError` (``BAD_REQUEST``; ``NO_SUCH_TOKEN`` for a token
the companion does not have where the correction takes it from, ``TOKEN_ALREADY_THERE`` for
one it already has where the correction puts it, ``NO_TOKEN_OF_VALUE`` for a bucket with no
token of that value left) and changes nothing. A correction never changes whose turn it is
or what a player is owed: a draw the pad missed is a ``draw_token`` move, not a correction.

The refusals name the token's value: they answer only the one who sent the correction with
the table's PIN, and are never pushed to the table's screen.
"""

from __future__ import annotations

from typing import Any

from companion.kit.errors import TableError

from .engine import State

ZONES = ("pile", "bucket")
"""Where a correction may put a token."""


def correct(state: State, body: dict[str, Any]) -> dict[str, Any]:
    """Move the token ``body`` names to ``body["zone"]``, in place (see the module's text);
    returns the correction as the log keeps it: ``{"token", "zone"}`` (and ``"player"`` for
    a pile), or ``{"value", "zone", "player"}``."""
    zone, player = body.get("zone"), body.get("player")
    if zone not in ZONES:
        raise TableError("BAD_REQUEST", f"zone must be one of {', '.join(ZONES)}")
    if ("token" in body) == ("value" in body):
        raise TableError("BAD_REQUEST", 'name the token by its "token" id or by its "value", '
                         "not both")
    if "token" in body:
        return _by_id(state, _token(state, body["token"]), zone, player)
    return _by_value(state, _value(state, body["value"]), zone, _seat(state, player))


def _token(state: State, token: Any) -> int:
    last = state.facts.tokens_total - 1
    if type(token) is not int or not 0 <= token <= last:
        raise TableError("BAD_REQUEST", f"token must be a token id from 0 to {last}")
    return token


def _value(state: State, value: Any) -> int:
    values = state.facts.values
    if type(value) is not int or value not in values:
        raise TableError("BAD_REQUEST", f"value must be a token value from {values[0]} to "
                         f"{values[-1]}")
    return value


def _seat(state: State, player: Any) -> int:
    if type(player) is not int or not 0 <= player < state.n:
        raise TableError("BAD_REQUEST", f"player must be a seat number from 0 to "
                         f"{state.n - 1}")
    return player


def _by_id(state: State, token: int, zone: str, player: Any) -> dict[str, Any]:
    """Token ``token`` into ``player``'s pile, or back to the bucket."""
    value, owner = state.facts.token_value(token), state.drawn.get(token)
    if zone == "bucket":
        if owner is None:
            raise TableError("TOKEN_ALREADY_THERE", f"The companion has token {token} (worth "
                             f"{value}) in the bucket already.", 409,
                             params={"token": token, "value": value, "zone": zone})
        _take_from_pile(state, owner, value, token)
        state.bucket[value] += 1
        return {"token": token, "zone": "bucket"}
    seat = _seat(state, player)
    if owner == seat:
        raise TableError("TOKEN_ALREADY_THERE", f"The companion has token {token} (worth "
                         f"{value}) in that player's pile already.", 409,
                         params={"token": token, "value": value, "zone": zone,
                                 "player": seat})
    if owner is None:
        _take_from_bucket(state, value)
    else:
        _take_from_pile(state, owner, value, token)
    state.piles[seat].append(value)
    state.pile_tokens[seat].append(token)
    return {"token": token, "zone": "pile", "player": seat}


def _by_value(state: State, value: int, zone: str, seat: int) -> dict[str, Any]:
    """A token worth ``value`` without a known id: out of ``seat``'s pile to the bucket, or
    from the bucket into it."""
    if zone == "pile":
        _take_from_bucket(state, value)
        state.piles[seat].append(value)
    else:
        if untagged(state, seat).count(value) == 0:
            raise TableError("NO_SUCH_TOKEN", f"The companion has no token worth {value} "
                             "drawn without a tag in that player's pile.", 409,
                             params={"value": value, "player": seat})
        state.piles[seat].remove(value)
        state.bucket[value] += 1
    return {"value": value, "zone": zone, "player": seat}


def _take_from_bucket(state: State, value: int) -> None:
    if state.bucket[value] == 0:
        raise TableError("NO_TOKEN_OF_VALUE", f"No token worth {value} is left in the bucket: "
                         "the companion has every one in the players' piles.", 409,
                         params={"value": value})
    state.bucket[value] -= 1


def _take_from_pile(state: State, seat: int, value: int, token: int) -> None:
    state.pile_tokens[seat].remove(token)
    state.piles[seat].remove(value)


def untagged(state: State, seat: int) -> list[int]:
    """The values of ``seat``'s pile whose token the companion knows by value only (drawn
    without a tag), in ascending order."""
    rest = sorted(state.piles[seat])
    for token in state.pile_tokens[seat]:
        rest.remove(state.facts.token_value(token))
    return rest
