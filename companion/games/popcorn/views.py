"""What the dashboard and the phones are shown: the public table, and one player's secrets.

Award cards are private: the public view shows how many each player holds and never which,
and an award draw in progress shows only that it is happening. A player's private view (by
token) adds their awards and the two cards to choose from.
"""

from __future__ import annotations

from typing import Any

from .engine import (
    GUEST_COLORS,
    GameState,
    final_positions,
    movie_price,
    score_game,
    token_ready,
)
from .engine import pawns as P
from .scoresheet import score_to_json
from .tile_looks import tile_name

PRIVATE_MOVES = frozenset({"keep_award", "draw_award"})
"""Moves whose fields would show a player's awards: only the private view lists them."""


def _movie(state: GameState, movie_id: str | None) -> dict[str, Any] | None:
    if movie_id is None:
        return None
    m = state.catalog.movies[movie_id]
    return {"id": m.id, "title": m.title, "color": m.color, "price": m.price,
            "premiers_price": m.premiers_price, "actions": list(m.actions), "bonus": m.bonus,
            "bonus_seats": m.bonus_seats}


def _theater(state: GameState, theater_id: str | None) -> dict[str, Any] | None:
    if theater_id is None:
        return None
    t = state.catalog.theater(theater_id)
    return {"id": t.id, "seats": t.seats, "seat_colors": list(t.seat_colors),
            "seat_actions": list(t.seat_actions), "price": t.price, "default": t.default}


def _count(state: GameState, loc: int) -> dict[str, int]:
    out = dict.fromkeys(GUEST_COLORS, 0)
    for pawn in state.pawns_at(loc):
        out[state.pawn_color[pawn]] += 1
    return out


def _slot(state: GameState, p: int, slot: int) -> dict[str, Any]:
    ps = state.players[p]
    theater = _theater(state, ps.theaters[slot])
    seats = []
    if theater:
        for k in range(theater["seats"]):
            pawn = state.occupant(p, slot, k)
            seats.append(None if pawn is None else {"pawn": pawn, "color": state.pawn_color[pawn]})
    return {"theater": theater, "seats": seats, "movie": _movie(state, ps.movies[slot]),
            "visible": state.visible_actions(p, slot), "used": sorted(ps.used[slot]),
            "covered": ps.covered[slot]}


def _cinema(state: GameState, p: int) -> dict[str, Any]:
    ps = state.players[p]
    show = state.showings[p].to_dict() if state.showings else None
    hand = [{"pawn": i, "color": state.pawn_color[i]} for i in state.pawns_at(P.hand(p))]
    return {
        "name": state.names[p], "money": ps.money, "popcorn": ps.popcorn,
        "audience": ps.audience, "draw": state.draw_value(p), "tokens": ps.tokens,
        "slots": [_slot(state, p, s) for s in range(3)],
        "bag": _count(state, P.bag(p)), "exit": _count(state, P.exit_zone(p)), "hand": hand,
        "archive": list(ps.archive), "awards": len(ps.awards), "showing": show,
        "right_bonus_taken": ps.right_bonus_taken,
    }


def _task(state: GameState, task: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": task.kind, "player": task.player}
    if task.kind == "award":
        out["drawn"] = len(task.drawn)
    elif task.kind in ("gain", "bonus", "theater"):
        out.update({k: v for k, v in (("color", task.color), ("action", task.action),
                                       ("size", task.size)) if v is not None})
    elif task.kind == "draw_seat" and task.pawn is not None:
        out["pawn"] = task.pawn
    return out


def public_view(state: GameState) -> dict[str, Any]:
    """Everything on the table that every player may see."""
    view = replay_view(state)
    view["legal"] = [m.to_dict() for m in state.legal_moves() if m.kind not in PRIVATE_MOVES]
    view["chance"] = [m.to_dict() for m in state.chance_outcomes()
                      if m.kind not in PRIVATE_MOVES][:200]
    view["zones"] = _zones(state, view["legal"])
    return view


def replay_view(state: GameState) -> dict[str, Any]:
    """The public view as the replay board draws it: everything on the table, without the
    legal moves, the chance outcomes and their pawns' zones (``legal`` and ``chance`` are
    empty lists, ``zones`` an empty object), which only a live screen acts on."""
    view: dict[str, Any] = {
        "round": state.round, "phase": state.phase, "current": state.current,
        "turn": state.current if state.phase == "buying" else None,
        "first_player": state.first_player, "last_round": state.last_round,
        "final_revealed": state.final_revealed, "names": list(state.names),
        "features": [dict(_movie(state, c) or {}, cost=movie_price(state, c))
                     for c in state.features],
        "premiers": [dict(_movie(state, c) or {}, cost=movie_price(state, c))
                     for c in state.premiers],
        "columns": {str(k): [_theater(state, t) for t in v] for k, v in state.columns.items()},
        "deck": {"movies": len(state.movie_pool), "awards": len(state.award_pool)
                 + len(state.award_queue)},
        "reserve": _count(state, P.RESERVE),
        "cinemas": [_cinema(state, p) for p in range(state.n)],
        "board": [{"player": who, "space": space, "ready": token_ready(state, placed)}
                  for who, space, placed in state.board],
        "pending": [_task(state, t) for t in state.tasks],
        "waiting": state.waiting_players(),
        "legal": [], "chance": [], "zones": {},
    }
    if state.is_over:
        view["scores"] = scores(state)
    return view


def _zones(state: GameState, legal: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Where each pawn a legal move names is: ``{pawn: [zone, player]}``, the zone one of
    box, reserve, bag, exit, hand, seat (player null for the box and the reserve). Guests of
    one color in one zone look alike, so the dashboard shows one button for such moves."""
    names = {0: "bag", 1: "exit", 2: "hand"}
    zones: dict[str, list[Any]] = {}
    for move in legal:
        pawn = move.get("pawn")
        if pawn is None or str(pawn) in zones:
            continue
        loc = state.loc[pawn]
        zone = ("seat" if P.is_seat(loc) else "box" if loc == P.BOX
                else "reserve" if loc == P.RESERVE else names[(loc - 10) % 10])
        zones[str(pawn)] = [zone, P.owner(loc)]
    return zones


def private_view(state: GameState, player: int) -> dict[str, Any]:
    """One player's secrets: awards held, and the cards to choose from during a draw."""
    drawn: list[str] = []
    for task in state.tasks:
        if task.kind == "award" and task.player == player:
            drawn = list(task.drawn)
            break
    awards = state.catalog.awards
    return {
        "player": player, "name": state.names[player],
        "awards": [{"id": a, "title": awards[a].title, "condition": awards[a].condition}
                   for a in state.players[player].awards],
        "choose_from": [{"id": a, "title": awards[a].title, "condition": awards[a].condition}
                        for a in drawn],
        "legal": [m.to_dict() for m in state.legal_moves(player) if m.kind in PRIVATE_MOVES],
        "chance": [m.to_dict() for m in state.chance_outcomes(player)
                   if m.kind in PRIVATE_MOVES],
    }


def scores(state: GameState) -> dict[str, Any]:
    """Final scores, in the shape ``popcorn-companion score`` prints."""
    return score_to_json(score_game(state.catalog, final_positions(state)))


def catalog_json(catalog: Any, meanings: dict[str, str]) -> dict[str, Any]:
    """The public card facts the dashboard searches and labels: every movie, theater tile,
    award text, action meaning, the audience track, the advertising board spaces, and the
    color of each pawn id."""
    return {
        "movies": [{"id": m.id, "title": m.title, "color": m.color, "price": m.price,
                    "premiers_price": m.premiers_price, "actions": list(m.actions),
                    "bonus": m.bonus, "bonus_seats": m.bonus_seats}
                   for m in catalog.movies.values()],
        "theaters": [{"id": t.id, "title": tile_name(t), "seats": t.seats,
                      "seat_colors": list(t.seat_colors),
                      "seat_actions": list(t.seat_actions), "price": t.price,
                      "default": t.default} for t in catalog.theaters.values()],
        "awards": [{"id": a.id, "title": a.title, "condition": a.condition}
                   for a in catalog.awards.values()],
        "actions": meanings,
        "audience": [{"index": s.index, "draw": s.draw, "bonus": s.bonus}
                     for s in catalog.audience_track],
        "board": list(catalog.ad_spaces),
        "pawns": list(P.pawn_colors(catalog.box, GUEST_COLORS)),
    }
