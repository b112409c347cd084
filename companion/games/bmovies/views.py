"""What a B Movies table shows: the tablet's public view and each phone's private view.

The public view is everything the players would see on the real table: whose turn it is,
the pitch's number of Title cards, who has put a vote card face down (never which), the
votes once revealed, how many tokens each player has in front of them and how many are left
in the bucket, and the made movies. It never carries a vote before the reveal, a token's
value, or a studio before the Final Cut; ``tests/bmovies/test_bm_privacy.py`` checks every route
and push. A phone's private view adds that player's own secrets.
"""

from __future__ import annotations

from typing import Any

from .engine import State, final_cut


def public_view(state: State, names: list[str]) -> dict[str, Any]:
    """The tablet's view: see the module docstring for what it leaves out."""
    voted = set(state.voted())
    view: dict[str, Any] = {
        "game": "b-movies", "variant": state.variant, "phase": state.phase,
        "round": state.round, "rounds": state.rounds, "clapboards": state.clapboards,
        "first_player": state.first_player, "screenwriter": state.screenwriter,
        "names": list(names),
        "players": [_player(state, seat, names[seat], seat in voted)
                    for seat in range(state.n)],
        "producers": list(state.producers()) if state.phase in ("vote", "draw") else [],
        "pitch": _pitch(state.pitch), "reveal": _reveal(state.reveal),
        "bucket": sum(state.bucket),
        "history": [_turn(turn) for turn in state.history],
        "final_cut": named(final_cut(state).to_dict(), names) if state.is_over else None,
        "waiting": list(state.waiting_players()),
        "pitch_sizes": list(range(state.facts.pitch_min, state.facts.pitch_max + 1)),
        "studio_count": state.facts.studios,
    }
    return view


def _player(state: State, seat: int, name: str, voted: bool) -> dict[str, Any]:
    return {"seat": seat, "name": name, "tokens": len(state.piles[seat]),
            "owed": state.owed[seat], "voted": voted,
            "has_yes_bang": "yes!" in state.hands[seat],
            "movies": [{"cards": m.cards, "title": m.title} for m in state.movies[seat]]}


def _pitch(pitch: Any) -> dict[str, Any] | None:
    return None if pitch is None else {"cards": pitch.cards, "title": pitch.title}


def _reveal(reveal: Any) -> dict[str, Any] | None:
    if reveal is None:
        return None
    return {"votes": {str(s): v for s, v in sorted(reveal.votes.items())},
            "yes": reveal.yes, "no": reveal.no, "made": reveal.made,
            "draws": {str(s): n for s, n in sorted(reveal.draws.items())}}


def _turn(turn: Any) -> dict[str, Any]:
    """A finished turn as the table saw it (its votes were revealed); what each producer
    drew is counted, never valued."""
    done = turn.to_dict()
    return {key: done[key] for key in ("round", "screenwriter", "cards", "title", "votes",
                                       "yes", "no", "made", "draws", "received")}


def private_view(state: State, seat: int, names: list[str]) -> dict[str, Any]:
    """A player's phone: their vote cards, their vote before the reveal, their token pile,
    what they still owe to draw, and their studio (Hidden Team)."""
    pile = sorted(state.piles[seat])
    voting = state.phase == "vote" and seat in state.producers()
    return {"game": "b-movies", "seat": seat, "name": names[seat],
            "vote_cards": list(state.hands[seat]), "voting": voting,
            "my_vote": state.votes.get(seat) if state.phase == "vote" else None,
            "tokens": pile, "token_total": sum(pile), "owed": state.owed[seat],
            "token_values": list(state.facts.values),
            "studio": None if state.studios is None else state.studios[seat],
            "screenwriter": state.screenwriter == seat}


def named(cut: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The Final Cut's JSON with each player's name beside their seat."""
    for player in cut["players"]:
        player["name"] = names[player["seat"]]
    return cut
