"""고스톱 (gostop) as a PettingZoo AEC environment, version 0: three agents
(``player_0`` … ``player_2``, agent ``player_i`` at seat ``i``), masks the legal moves of
the seat asked, observations :class:`~madang.gostop.encode.GostopEncoding` of its view,
rewards the payments as they are made (``docs/rl/gostop.md``).

It plays through the game contract (:class:`~madang.rl.aec.MadangAECEnv`): 고스톱 has
no fast engine path of its own yet. Needs 고스톱 registered
(:func:`madang.core.registry.spec`).
"""

from __future__ import annotations

from typing import Any

from madang.rl.aec import MadangAECEnv, wrapped

__all__ = ["env", "raw_env"]


def raw_env(
    preset: str | None = None,
    rules: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> MadangAECEnv:
    """The environment whose illegal actions raise: ``preset`` names the rules preset
    (the default first), ``rules`` changes some options, ``render_mode`` is None or
    ``"ansi"``."""
    return MadangAECEnv("gostop", preset, rules, render_mode)


def env(
    preset: str | None = None,
    rules: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> Any:
    """The environment with PettingZoo's classic wrappers: an illegal action ends the
    game with -1 to its agent (see ``raw_env``)."""
    return wrapped(raw_env(preset, rules, render_mode))
