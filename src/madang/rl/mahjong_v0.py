"""마작 (mahjong, Korean 104 tiles) as a PettingZoo AEC environment, version 0
(``docs/rl/mahjong.md``).

>>> from madang.rl import mahjong_v0
>>> env = mahjong_v0.env()
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

from typing import Any

from madang.rl.aec import env_functions
from madang.rl.parallel import MadangParallelEnv

__all__ = ["env", "parallel_env", "raw_env"]

raw_env, env = env_functions("mahjong")


def parallel_env(
    preset: str | None = None,
    rules: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> MadangParallelEnv:
    """The game as a PettingZoo Parallel environment (:mod:`madang.rl.parallel`: only
    the acting agents act; an illegal action ends the game with -1 to its agent)."""
    return MadangParallelEnv("mahjong", preset, rules, render_mode, illegal_reward=-1)
