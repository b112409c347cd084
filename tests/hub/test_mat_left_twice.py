"""A guest left in its theater past two checkpoints (issue 40): its one alert stays the only
one. Found by ``bench/mat_mistakes.py``'s hands when they mend late.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.popcorn.engine.simulator import random_move
from tests.hub.test_mats import MatRig, astuple_


def test_a_guest_left_past_two_checkpoints_keeps_its_one_alert(tmp_path: Path) -> None:
    """A guest set down on theater 1, played out from the tablet and left on its zone for
    two rounds: the first checkpoint raises GUEST_LEFT_IN_THEATER; while that alert is
    open, the next round's checkpoint raises none for the same guest."""
    rig = MatRig(tmp_path)
    try:
        table_id, table, _, drawn, _ = astuple_(rig.first_guest_seated())
        rng = random.Random(5)
        for round_ in (2, 3):
            while not (table.state.phase == "buying" and table.state.round == round_):
                rig.play(table_id, random_move(table.state, rng, "eager").to_dict())
            rig.play(table_id, {"move": "end_turn", "player": table.state.current})
        left = [a for a in table.alerts if a["code"] == "GUEST_LEFT_IN_THEATER"]
        assert [a["params"]["pawn"] for a in left] == [drawn[0]], left
    finally:
        rig.close()
