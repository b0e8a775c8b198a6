"""맞고 (matgo) as a PettingZoo AEC environment, version 0 (``docs/rl/matgo.md``).

>>> from madang.rl import matgo_v0
>>> env = matgo_v0.env()
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

from madang.rl.aec import env_functions

__all__ = ["env", "raw_env"]

raw_env, env = env_functions("matgo")
