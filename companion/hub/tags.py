"""The tag registry's routes and enrollment: which UID is on which piece of which game.

The whole registry (``GET``/``PUT /api/tags``: export and import) and every enrollment
route need the admin PIN, since a UID is what a forged tap needs. Only the counts
(``GET /api/tags/counts``: tags per color, kind and value against what the box holds, and
what is being enrolled) are open to anyone; they never carry a UID.

Enrollment: ``POST /api/enroll`` starts one (a game's ``kind`` of pieces by ``value``, in
order or by picking, :mod:`.enroll_modes`; or an older ``color``, ``cards`` or ``tokens``),
after which taps on any reader enroll tags instead of being played; ``POST
/api/enroll/piece`` names the piece of a UID tapped in ``pick`` mode (or a typed one), as
``POST /api/enroll/card`` does for an older screen's cards; ``DELETE /api/enroll`` ends it.
Each answers the enrollment's status with the UIDs still waiting for their piece
(:meth:`~.enrollment.Enrollment.status`). The taps themselves are handled by
:class:`~.enrollment.Enrollment` and pushed to the admin room (:mod:`.sockets`).
"""

from __future__ import annotations

import msgspec
from flask import Blueprint, jsonify

from companion.hub import auth, models
from companion.hub.bodies import decode, json_body, json_object
from companion.hub.hub import Hub

PIECE_CODES = {"uid": "BAD_UID", "game": "BAD_KIND", "kind": "BAD_KIND", "value": "BAD_VALUE"}
"""The codes of ``POST /api/enroll/piece``'s fields, as the registry refuses them."""
CARD_CODES = {"uid": "BAD_UID", "kind": "BAD_CARD", "card": "BAD_CARD"}
"""The codes of ``POST /api/enroll/card``'s fields, as an older screen knows them."""


def blueprint(hub: Hub) -> Blueprint:
    """The tag registry and enrollment routes of ``hub``."""
    tags = Blueprint("tags", __name__)
    _registry(tags, hub)
    _enrollment(tags, hub)
    return tags


def _registry(tags: Blueprint, hub: Hub) -> None:
    @tags.get("/api/tags")
    def export_tags():
        auth.admin_pin()
        return jsonify({**hub.registry.export(), "counts": hub.registry.counts(),
                        "kinds": hub.registry.piece_counts()})

    @tags.get("/api/tags/counts")
    def tag_counts():
        return jsonify(hub.enrollment.status())

    @tags.put("/api/tags")
    def import_tags():
        raw = json_body()
        auth.admin_pin(raw)
        count = hub.registry.import_(decode(models.TagsImport, raw, code="BAD_REGISTRY").registry)
        return jsonify({"ok": True, "tags": count})


def _enrollment(tags: Blueprint, hub: Hub) -> None:
    @tags.post("/api/enroll")
    def enroll():
        raw = json_body()
        auth.admin_pin(raw)
        body = decode(models.EnrollBody, raw)
        hub.enroll_mode(msgspec.structs.asdict(body))
        return jsonify(hub.enrollment.status(admin=True))

    @tags.post("/api/enroll/piece")
    def enroll_piece():
        raw = json_body()
        auth.admin_pin(raw)
        body = decode(models.EnrollPiece, raw, codes=PIECE_CODES)
        result = hub.bind_piece(body.uid, body.game, body.kind, body.value)
        return jsonify({**result, **hub.enrollment.status(admin=True)})

    @tags.post("/api/enroll/card")
    def enroll_card():
        raw = json_body()
        auth.admin_pin(raw)
        body = decode(models.EnrollCard, raw, codes=CARD_CODES)
        result = hub.bind_card(body.uid, body.kind, body.card)
        return jsonify({**result, **hub.enrollment.status(admin=True)})

    @tags.delete("/api/enroll")
    def stop_enroll():
        auth.admin_pin(json_object(optional=True))
        hub.stop_enrolling()
        return jsonify(hub.enrollment.status(admin=True))
