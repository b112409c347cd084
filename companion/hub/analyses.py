"""The analysis of an archived game: run once as a job, with its progress, and kept.

A game whose :class:`~companion.kit.game.GameKind` ``analyzes`` (Popcorn, with its seating
advisor) can have each finished game of the archive judged move by move
(:meth:`~companion.kit.parts.Advisor.analyze`): each player's accuracy and biggest misses.
The first request starts the job in a thread of its own (``POST
/api/archive/<id>/analysis``); anyone may then read how far it has gone (``GET``: the moves
gone through of the record's moves, from the game's progress callback) until it is done and
kept in the hub's file, after which every request reads the kept analysis and nothing is
computed again. Reading and starting need no secret: an analysis judges the Showings'
public moves, which the replay board shows to anyone, with the advisor's own moves beside
them.

Answers: ``{"state": "none"}`` (never started), ``{"state": "running", "done", "total"}``,
``{"state": "done", "analysis": {...}}`` or ``{"state": "failed", "code", "message"}`` (a
record the game could not judge; a new ``POST`` tries again).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, jsonify

from companion.hub.hub import Hub
from companion.kit.game import GameKind
from companion.kit.records import RecordError

log = logging.getLogger("companion.analysis")


@dataclass
class Job:
    """One analysis under way (or failed): how far it has gone, or why it stopped."""

    done: int = 0
    total: int = 0
    failed: dict[str, str] | None = None
    """``{"code", "message"}`` once the game refused the record."""

    def status(self) -> dict[str, Any]:
        """The job as the routes answer it."""
        if self.failed is not None:
            return {"state": "failed", **self.failed}
        return {"state": "running", "done": self.done, "total": self.total}


class AnalysisJobs:
    """The analyses running on a hub (one per game at most), and the kept ones."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.jobs: dict[str, Job] = {}
        """The jobs running or failed, by archived game id (a kept analysis has none)."""
        self.guard = threading.Lock()
        """Held while :attr:`jobs` is read or changed (never while the hub's lock is)."""

    def status(self, game_id: str) -> dict[str, Any]:
        """Where a game's analysis stands (the errors of the archive's
        :meth:`~companion.table.archive.Archive.analysis`: 404, ``NO_ANALYSIS``,
        ``NO_RECORD``)."""
        with self.hub.lock:
            kept = self.hub.archived().analysis(game_id)
        if kept is not None:
            return {"state": "done", "analysis": kept}
        with self.guard:
            job = self.jobs.get(game_id)
            return job.status() if job is not None else {"state": "none"}

    def start(self, game_id: str) -> dict[str, Any]:
        """Start a game's analysis unless it is kept or running; where it stands then."""
        with self.hub.lock:
            game, text, digest = self.hub.archived().analysis_source(game_id)
            kept = self.hub.archive.analysis(game_id)
        if kept is not None:
            return {"state": "done", "analysis": kept}
        with self.guard:
            job = self.jobs.get(game_id)
            if job is not None and job.failed is None:
                return job.status()
            job = self.jobs[game_id] = Job()
        threading.Thread(target=self._run, args=(game_id, game, text, digest, job),
                         name=f"analysis-{game_id}", daemon=True).start()
        return job.status()

    def _run(self, game_id: str, game: GameKind[Any, Any], text: str, digest: str,
             job: Job) -> None:
        def progress(done: int, total: int) -> None:
            with self.guard:
                job.done, job.total = done, total
        try:
            assert game.advisor is not None  # the archive starts only an advisor's
            analysis = game.advisor.analyze(text, progress)
        except RecordError as exc:
            with self.guard:
                job.failed = {"code": exc.code, "message": str(exc)}
            return
        except Exception:  # a bug in a game's analysis never stops the hub
            log.exception("analysis of %s failed", game_id)
            with self.guard:
                job.failed = {"code": "INTERNAL_ERROR", "message": "The analysis failed."}
            return
        if analysis is not None:
            with self.hub.lock:
                self.hub.archive.keep_analysis(game_id, digest, analysis)
        with self.guard:
            if self.jobs.get(game_id) is job:
                del self.jobs[game_id]


def blueprint(hub: Hub) -> Blueprint:
    """The analysis routes of ``hub``'s archive."""
    jobs = AnalysisJobs(hub)
    analyses = Blueprint("analyses", __name__)

    @analyses.get("/api/archive/<game_id>/analysis")
    def status(game_id: str):
        return jsonify(jobs.status(game_id))

    @analyses.post("/api/archive/<game_id>/analysis")
    def start(game_id: str):
        answer = jobs.start(game_id)
        return jsonify(answer), 200 if answer["state"] == "done" else 202

    return analyses
