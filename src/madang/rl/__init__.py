"""Reinforcement-learning environments over the game contract (``pip install 'madang[rl]'``).

One implementation serves every registered game whose :class:`~madang.core.game.GameSpec`
names an ``encoding`` (fixed action ids and observation tensors, kept in the game's own
package): PettingZoo AEC and Parallel environments at engine speed (:mod:`madang.rl.aec`,
:mod:`madang.rl.parallel`; :mod:`madang.rl.matgo_v0` and :mod:`madang.rl.mahjong_v0` as
PettingZoo's classic games name them), a Gymnasium single-agent environment with
registered bots as the other seats (:mod:`madang.rl.single`), a Gymnasium vector
environment with action masks and a batched stepping path for throughput
(:mod:`madang.rl.vector`), and OpenSpiel Python games (:mod:`madang.rl.openspiel`).
Importing this package registers ``madang/Matgo-v0``, ``madang/Mahjong-v0`` and
``madang/Gostop-v0`` (``preset=`` picks 고스톱's rules: ``gwangpalgi`` seats four) with
Gymnasium. ``docs/rl/`` documents the encodings and the environments.
"""

from __future__ import annotations

GYM_IDS = {"matgo": "madang/Matgo-v0", "mahjong": "madang/Mahjong-v0", "gostop": "madang/Gostop-v0"}
"""The Gymnasium ids of the games, registered when :mod:`madang.rl` is imported."""

BATCHED = frozenset({"matgo", "mahjong"})
"""The games with a batched stepping path (:class:`~madang.rl.vector.MadangVectorEnv`);
``gymnasium.make_vec`` of another runs copies of its single-agent environment."""


def register_gymnasium() -> None:
    """Register the games with Gymnasium (again: no-op): ``gymnasium.make(id)`` makes a
    :class:`~madang.rl.single.SingleAgentEnv` (keyword arguments pass through, e.g.
    ``opponents``), ``gymnasium.make_vec(id, num_envs=N)`` a
    :class:`~madang.rl.vector.MadangVectorEnv` (its vector entry point). Gymnasium has
    no plugin discovery, so the ids exist once ``madang.rl`` is imported, or when named
    with the module: ``gymnasium.make("madang.rl:madang/Matgo-v0")``."""
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register with
        return
    for game, env_id in GYM_IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="madang.rl.single:SingleAgentEnv",
            vector_entry_point="madang.rl.vector:MadangVectorEnv" if game in BATCHED else None,
            kwargs={"game": game},
            disable_env_checker=False,
        )


register_gymnasium()
