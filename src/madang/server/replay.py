"""The replay viewer's frames: a finished game's record stepped through by the server.

Each frame is the spectator view with every hand shown and the (unredacted) events of
one move; the first frame is the deal.

>>> from madang.matgo.engine import new_game
>>> from madang.matgo.record import export_record
>>> g = new_game(seed=2)
>>> while not g.over:
...     _ = g.step(g.default_action())
>>> fs = frames("matgo", export_record(g))
>>> len(fs) == len(g.moves) + 1, len(fs[0]["view"]["hands"][0])
(True, 10)
"""

from __future__ import annotations

from typing import Any

from madang.core.errors import RecordError


def frames(game: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames of ``record`` (a Matgo or mahjong record)."""
    if game == "matgo":
        return _matgo(record)
    if game == "mahjong":
        return _mahjong(record)
    raise RecordError(f"unknown game {game!r}")


def _matgo(record: dict[str, Any]) -> list[dict[str, Any]]:
    from madang.matgo.actions import parse_action
    from madang.matgo.cards import codes_of
    from madang.matgo.events import event_to_dict
    from madang.matgo.record import load_record
    from madang.matgo.view import view

    state, moves = load_record(record)

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v = view(state, None)
        v["hands"] = [codes_of(state.hands[0]), codes_of(state.hands[1])]
        return {"move": move, "events": [event_to_dict(e) for e in events], "view": v}

    out = [frame(None, list(state.events))]
    for m in moves:
        out.append(frame(m, state.step(parse_action(m))))
    return out


def _mahjong(record: dict[str, Any]) -> list[dict[str, Any]]:
    from madang.mahjong.engine import step
    from madang.mahjong.record import replay
    from madang.mahjong.state import Action
    from madang.mahjong.view import view

    moves = list(record.get("moves", []))
    state = replay({**record, "moves": []})

    def frame(move: str | None, events: list[Any]) -> dict[str, Any]:
        v = view(state, None)
        for s in range(4):
            v["players"][s]["hand"] = view(state, s)["players"][s]["hand"]
        return {"move": move, "events": list(events), "view": v}

    out = [frame(None, list(state.deal_events))]
    for m in moves:
        out.append(frame(m, step(state, Action.parse(m))))
    return out
