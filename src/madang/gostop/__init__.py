"""고스톱 (gostop): Go-Stop for three (and four with 광팔기) on the family's engine.

The turn engine is :mod:`madang.matgo.engine` (one engine for 맞고 and 고스톱: the seat
count and the stop score are rules values, ``gostop.md`` §12); this package holds the
rules options of ``gostop.md`` §10 and their presets, and the records of §11
(:mod:`madang.gostop.record`). The session on the game
contract is :mod:`madang.gostop.game` (a built-in game of the registry) and
the ``madang gostop`` commands :mod:`madang.gostop.cli`; its RL encoding is
:mod:`madang.gostop.encode` and its bots :mod:`madang.bots.gostop_bots`. The engine
plays four seats with 광팔기 (``players: 4``) and 쇼당 (``shodang``) too.

>>> from madang.matgo.engine import new_game
>>> game = new_game(GostopRules(), seed=1)
>>> len(game.hands), [h.bit_count() for h in game.hands], game.floor.bit_count() >= 6
(3, [7, 7, 7], True)
"""

from madang.gostop.rules import PRESETS, GostopRules, preset

__all__ = ["PRESETS", "GostopRules", "preset"]
