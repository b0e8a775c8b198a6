"""Helpers of the crafted-wall tests: play moves by their notation, list a seat's options."""

from __future__ import annotations

from madang.mahjong.engine import legal_actions, step
from madang.mahjong.state import Action, HandState


def play(st: HandState, *moves: str) -> HandState:
    """Apply ``moves`` (``"0 discard 3m"`` …) in order; return the state."""
    for m in moves:
        step(st, Action.parse(m))
    return st


def options(st: HandState, seat: int) -> list[str]:
    """``seat``'s legal actions in notation."""
    return [str(a) for a in legal_actions(st, seat)]
