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

from flask import Blueprint, jsonify

from companion.hub import auth
from companion.hub.bodies import json_body, json_object
from companion.hub.hub import Hub


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
        body = json_body()
        auth.admin_pin(body)
        count = hub.registry.import_(body.get("registry"))
        return jsonify({"ok": True, "tags": count})


def _enrollment(tags: Blueprint, hub: Hub) -> None:
    @tags.post("/api/enroll")
    def enroll():
        body = json_body()
        auth.admin_pin(body)
        hub.enroll_mode(body)
        return jsonify(hub.enrollment.status(admin=True))

    @tags.post("/api/enroll/piece")
    def enroll_piece():
        body = json_body()
        auth.admin_pin(body)
        result = hub.bind_piece(body.get("uid"), body.get("game"), body.get("kind"),
                                body.get("value"))
        return jsonify({**result, **hub.enrollment.status(admin=True)})

    @tags.post("/api/enroll/card")
    def enroll_card():
        body = json_body()
        auth.admin_pin(body)
        result = hub.bind_card(body.get("uid"), body.get("kind"), body.get("card"))
        return jsonify({**result, **hub.enrollment.status(admin=True)})

    @tags.delete("/api/enroll")
    def stop_enroll():
        auth.admin_pin(json_object(optional=True))
        hub.stop_enrolling()
        return jsonify(hub.enrollment.status(admin=True))
