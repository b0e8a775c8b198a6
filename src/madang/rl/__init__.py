"""Reinforcement-learning environments over the game contract (``pip install 'madang[rl]'``).

One implementation serves every registered game whose :class:`~madang.core.game.GameSpec`
names an ``encoding`` (fixed action ids and observation tensors, kept in the game's own
package): PettingZoo AEC environments (:mod:`madang.rl.aec`; :mod:`madang.rl.matgo_v0`
and :mod:`madang.rl.mahjong_v0` as PettingZoo's classic games name them), a Gymnasium
single-agent wrapper with registered bots as the other seats (:mod:`madang.rl.single`),
a batched stepping path for throughput (:mod:`madang.rl.vector`) and OpenSpiel Python
games (:mod:`madang.rl.openspiel`). ``docs/rl/`` documents the encodings.
"""
