"""맞고 (matgo) as a PettingZoo AEC environment, version 0 (``docs/rl/matgo.md``).

>>> from madang.rl import matgo_v0
>>> env = matgo_v0.env()
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

from typing import Any

from madang.rl.aec import MadangAECEnv, wrapped

__all__ = ["env", "raw_env"]


def raw_env(
    preset: str | None = None, rules: dict[str, Any] | None = None, render_mode: str | None = None
) -> MadangAECEnv:
    """The environment without wrappers: preset names the rules preset (the default
    first), ``rules`` changes some options, ``render_mode`` is None or ``"ansi"``."""
    return MadangAECEnv("matgo", preset, rules, render_mode)


def env(
    preset: str | None = None, rules: dict[str, Any] | None = None, render_mode: str | None = None
) -> Any:
    """The environment with PettingZoo's classic wrappers (see :func:`raw_env`)."""
    return wrapped(raw_env(preset, rules, render_mode))
