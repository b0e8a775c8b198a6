"""What a table puts at stake: what its points (and a game's other units, a mahjong 판)
are worth, and the most one game can move — capped when the table is made.

A game's contract bounds the points one game can move under a rules object
(:attr:`~madang.core.game.GameSpec.max_points`); times the stake that is the most one
game at the table can move (``max_amount``). A table whose ``max_amount`` is over
:data:`GAME_AMOUNT_CAP` is refused (``stake_too_high``), so every amount fits the 64-bit
columns of the ledger with a wide margin (``docs/server.md``, Stakes).

>>> from madang.core.registry import spec
>>> worth("mahjong", spec("mahjong").rules("default", {"pan_value": 2}), 10)
{'point': 10, 'units': {'pan': {'points': 2, 'amount': 20}}, 'max_points': 402, 'max_amount': 4020}
>>> check_table("matgo", spec("matgo").rules("default"), 1000)["max_amount"]
2359394000
"""

from __future__ import annotations

from typing import Any

from madang.core.registry import spec
from madang.server.wire import WireError

__all__ = ["GAME_AMOUNT_CAP", "check_table", "worth"]

GAME_AMOUNT_CAP = 10**12
"""The most one game at a table may move (every payment together, points × stake) by its
game's bound. A trillion: every rules option at every default stake fits (Matgo with
missions at 1,000 a point is bounded by 1.9 × 10¹⁰), and the ledger's 64-bit columns
(9.2 × 10¹⁸) hold over nine million such games, or one such game after 23 나가리 in a
row have doubled it. Amounts also stay exact in a browser (2⁵³ ≈ 9 × 10¹⁵)."""


def worth(game: str, rules: object, stake: int) -> dict[str, Any]:
    """A table's ``worth`` (its summary): what a point is worth (``point``: the stake),
    each other unit of the game's scoring in points and in money (``units``), and the
    game's bound in points (``max_points``) and in money (``max_amount``) — the last two
    only for a game whose contract bounds its games."""
    g = spec(game)
    out: dict[str, Any] = {"point": stake, "units": {}}
    if g.unit_points is not None:
        out["units"] = {
            name: {"points": points, "amount": points * stake}
            for name, points in g.unit_points(rules).items()
        }
    if g.max_points is not None:
        most = g.max_points(rules)
        out["max_points"] = most
        out["max_amount"] = most * stake
    return out


def check_table(game: str, rules: object, stake: int) -> dict[str, Any]:
    """The :func:`worth` of a table about to be made; a table one of whose games could
    move more than :data:`GAME_AMOUNT_CAP` raises ``stake_too_high`` (nothing is made)."""
    out = worth(game, rules, stake)
    most = out.get("max_amount")
    if most is not None and most > GAME_AMOUNT_CAP:
        raise WireError(
            "stake_too_high",
            f"one game at this table could move up to {most:,} ({out['max_points']:,} "
            f"points at {stake:,} a point); the most a table may risk in one game is "
            f"{GAME_AMOUNT_CAP:,}: lower the stake or the options that multiply the points",
        )
    return out
