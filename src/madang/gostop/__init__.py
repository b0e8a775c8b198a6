"""고스톱 (gostop): Go-Stop for three (and four with 광팔기) on the family's engine.

The turn engine is :mod:`madang.matgo.engine` (one engine for 맞고 and 고스톱: the seat
count and the stop score are rules values, ``gostop.md`` §12); this package holds the
rules options of ``gostop.md`` §10 and their presets, and the records of §11
(:mod:`madang.gostop.record`). The session on the game
contract is :mod:`madang.gostop.game` (not registered among the built-in games yet) and
the ``madang gostop`` commands :mod:`madang.gostop.cli`, the RL encoding
:mod:`madang.gostop.encode` (the bots play it: :mod:`madang.bots.gostop_bots`). Not built
yet (issue 28, later steps): 광팔기 with four seats and 쇼당 in the engine, server and
browser.

>>> from madang.matgo.engine import new_game
>>> game = new_game(GostopRules(), seed=1)
>>> len(game.hands), [h.bit_count() for h in game.hands], game.floor.bit_count() >= 6
(3, [7, 7, 7], True)
"""

from madang.gostop.rules import PRESETS, GostopRules, preset

__all__ = ["PRESETS", "GostopRules", "preset"]
