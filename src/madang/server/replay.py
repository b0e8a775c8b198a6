"""The replay viewer's frames: a finished game's record stepped through by its game.

Each frame is the spectator view with every hand shown and the (unredacted) events of
one move; the first frame is the deal (:attr:`madang.core.game.GameSpec.frames`).

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

from madang.core.errors import RecordError, RuleConfigError
from madang.core.registry import spec


def frames(game: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames of ``record``, a finished game of ``game``."""
    try:
        game_spec = spec(game)
    except RuleConfigError:
        raise RecordError(f"unknown game {game!r}") from None
    return game_spec.frames(record)
