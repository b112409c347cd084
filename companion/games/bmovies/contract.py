"""The API contract of B Movies: the model of its correction body, for the hub.

B Movies adds no route of its own; its corrections part gives the model of a correction's own
fields (:meth:`~companion.kit.parts.Corrections.model`), :class:`TokenCorrection`, which the
hub decodes ``POST /api/tables/{id}/correct`` with and its OpenAPI document describes. What a
type cannot say (a token id of the box, a value of the tokens, a seat of the table, one of
``token`` and ``value``) :mod:`.corrections` checks.
"""

from __future__ import annotations

from typing import Annotated

import msgspec


class TokenCorrection(msgspec.Struct, kw_only=True):
    """``POST /api/tables/{id}/correct`` at a B Movies table: a popcorn token by its id
    (``token``, its tag's) or, drawn without a tag, by its ``value``, and where it really
    is (``zone``, and ``player`` for a pile). The PIN and the ``alert`` it fixes are the
    hub's (its ``CorrectBody``)."""

    token: Annotated[int, msgspec.Meta(description="the token's id, 0-97")] | \
        msgspec.UnsetType = msgspec.UNSET
    value: Annotated[int, msgspec.Meta(description="the token's value, 0-4 (a token "
                                                   "drawn without a tag)")] | \
        msgspec.UnsetType = msgspec.UNSET
    zone: Annotated[str, msgspec.Meta(description="pile or bucket")]
    player: Annotated[int | None, msgspec.Meta(
        description="the seat whose pile it is (for a value, the pile it leaves too)")] = None
