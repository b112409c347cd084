"""``readers tap`` on a virtual cinema mat: a hand's move, and what the hub made of it.

A mat line (:mod:`.mat_lines`) picks a guest as a hand does and changes the virtual mat's
zones (:class:`~companion.readers.virtual.VirtualMat`): the mat reports each zone that
changed. A mat gets no feedback, so the command waits for the hub's ack of those reports
(the hub acks a batch once it has played it and committed), then reads the table: the moves
recorded, the alert raised, or that the change was no move, or no news at all (a zone the
hub already had so), without waiting any longer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.commands.mat_lines import MatHand, MatLine, pawn_tags, zone_name
from companion.commands.tap_hub import Seat, Snapshot, TapError, describe_alert, describe_steps
from companion.commands.tap_lines import Pieces, color_words

if TYPE_CHECKING:
    from companion.commands.reader_options import VirtualBank
    from companion.commands.tap_hub import HubClient
    from companion.readers.virtual import VirtualMat

NO_MOVE = ("hub: ok, no move (the hub noted the zone's new state: a guest taken up, or "
           "set down where the rules already have it)")
"""What a mat line whose change the hub logged but played nothing for prints."""
KEPT_ALERTS = 20
"""How many open alerts a table lists at most (its last ones)."""
NO_NEWS = "hub: no change: the hub already had the mat's zones so; nothing was played"
"""What a mat line whose report the hub acked but did not log prints."""


class MatTapper:
    """Mat lines on a bank's virtual mats, against one hub (``say`` prints a line)."""

    def __init__(self, hub: HubClient, bank: VirtualBank, timeout: float,
                 say: Callable[[str], None] = print) -> None:
        self.hub, self.bank, self.timeout, self.say = hub, bank, timeout, say

    def play(self, line: MatLine, seat: Seat) -> None:
        """Do one mat line's hand on its mat and print what the hub made of it."""
        if seat.kind != "mat":
            raise TapError(f"the hub knows {line.mat} as a bag reader, not a mat: give serve "
                           f"--mat {line.mat}, and bind it as a mat (POST /api/tables mats)")
        assert seat.table is not None and seat.seat is not None
        snapshot = self.hub.snapshot(seat.table)
        mat = self.virtual(line.mat)
        uid, what = self.choose(line, snapshot, seat.seat, mat)
        seqs, done = self.hand(line, mat, uid)
        self.say(f"  {line.mat}: {done.format(what)}")
        if not self.acked(mat, seqs):
            self.say(f"  hub: no answer within {self.timeout:g} s (is serve reading "
                     f"{line.mat}? see its --serial or --mqtt, and --mat)")
            return
        for out in self.outcome(snapshot):
            self.say("  " + out)

    def virtual(self, mat: str) -> VirtualMat:
        """The bank's virtual mat ``mat``."""
        from companion.readers.virtual import VirtualMat

        found = self.bank.readers[mat]
        assert isinstance(found, VirtualMat)
        return found

    def choose(self, line: MatLine, snapshot: Snapshot, seat: int,
               mat: VirtualMat) -> tuple[str, str]:
        """The UID the hand takes, and its words."""
        if line.how == "uid":
            return line.what, f"tag {line.what}"
        table = snapshot.table
        words = color_words(self.hub.kinds())
        if line.what.lower() not in words:
            listed = ", ".join(sorted({value for _, value in words.values()}))
            raise TapError(f"'{line.what}' is not a color, nor a tag UID: colors are {listed} "
                           "(in English, French, German or Japanese)")
        color = words[line.what.lower()][1]
        tags, colors = pawn_tags(self.hub.pieces(), str(table.get("game", "")))
        cinemas = table.get("view", {}).get("cinemas") or [{}]
        name = str(table["players"][seat])
        hand = MatHand(line.mat, name, mat.zones, tags, colors,
                       cinemas[seat] if seat < len(cinemas) else {})
        uid = hand.pick(line, color)
        return uid, f"a {color} guest (pawn {tags[uid]})"

    def hand(self, line: MatLine, mat: VirtualMat, uid: str) -> tuple[list[int], str]:
        """Change the mat's zones as the line's hand does: its reports' seqs, and the
        words of what was done (``{}`` for the guest's)."""
        was = mat.where(uid)
        if line.action == "up":
            if was is None:
                raise TapError(f"tag {uid} lies on no zone of {line.mat}: nothing taken up")
            return mat.take_up(uid), f"took {{}} up from {zone_name(was)}"
        assert line.zone is not None
        to = zone_name(line.zone)
        if was is None:
            return [mat.set_down(line.zone, uid)], f"set {{}} down on {to}"
        if was == line.zone:  # lying there already: the mat reports the same state again
            return [mat.set_down(line.zone, uid)], f"set {{}} down again on {to}"
        return mat.move(uid, line.zone), f"carried {{}} from {zone_name(was)} to {to}"

    def acked(self, mat: VirtualMat, seqs: list[int]) -> bool:
        """Wait until the hub has acked every report in ``seqs``; False on timeout."""
        deadline = time.monotonic() + self.timeout
        while any(seq in mat.unacked for seq in seqs):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def outcome(self, snapshot: Snapshot) -> list[str]:
        """What the hub made of the acked reports: the moves recorded, the alerts raised and
        closed, a change that is no move, or no news at all."""
        table_id = str(snapshot.table["id"])
        after: dict[str, Any] = self.hub.get(f"/api/tables/{table_id}")
        if int(after.get("events", 0)) <= snapshot.events:
            return [NO_NEWS]
        lines = self.moves(table_id, snapshot, after)
        lines += [out for alert in after.get("alerts", [])
                  if alert.get("id") not in snapshot.alert_ids for out in describe_alert(alert)]
        lines += [f"hub: alert {alert.get('code')} closed: the mat set right what it said"
                  for alert in closed_alerts(snapshot, after)]
        return lines or [NO_MOVE]

    def moves(self, table_id: str, snapshot: Snapshot, after: dict[str, Any]) -> list[str]:
        """The moves the reports recorded, on one line (none: an empty list)."""
        if snapshot.steps is None:
            return [f"hub: ok: the table's log grew to {after.get('events')} events"]
        steps = self.hub.steps_since(table_id, snapshot.steps)
        if not steps:
            return []
        colors = Pieces(self.hub.pieces(), []).colors(str(after.get("game"))) \
            if self.hub.admin_pin else {}
        return [describe_steps(steps, list(after.get("players", [])), colors)]


def closed_alerts(snapshot: Snapshot, after: dict[str, Any]) -> list[dict[str, Any]]:
    """The alerts open before the reports and closed since (a mat's change can set right
    what one said). The table lists its last :data:`KEPT_ALERTS` open alerts: when that
    many are open, one that went may only have been pushed out, so none is told."""
    now = [a for a in after.get("alerts", []) if "id" in a]
    if len(now) >= KEPT_ALERTS:
        return []
    ids = {int(a["id"]) for a in now}
    return [a for a in snapshot.table.get("alerts", []) if "id" in a and int(a["id"]) not in ids]
