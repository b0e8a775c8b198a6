"""고스톱 (gostop) as a PettingZoo AEC environment, version 0: an agent per seat of the
rules (``player_0`` … ``player_2``; with a 광팔기 preset, ``players: 4``, four agents,
one of which sits each game out), agent ``player_i`` at seat ``i``, masks the legal
moves of the seat asked (the join/die question among them), observations
:class:`~madang.gostop.encode.GostopEncoding` of its view, rewards the payments as they
are made (광값 included; ``docs/rl/gostop.md``).

It plays through the game contract (:class:`~madang.rl.aec.MadangAECEnv`): 고스톱 has
no fast engine path of its own yet. Needs 고스톱 registered
(:func:`madang.core.registry.spec`).
"""

from __future__ import annotations

from typing import Any

from madang.rl.aec import MadangAECEnv, wrapped

__all__ = ["GostopAECEnv", "env", "raw_env"]


class GostopAECEnv(MadangAECEnv):
    """The game contract's environment with an agent per seat of the rules
    (``rules.players``: 3, or 4 with 광팔기) rather than the game's usual three.

    >>> GostopAECEnv("gwangpalgi").possible_agents[-1]
    'player_3'
    """

    def __init__(
        self,
        preset: str | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__("gostop", preset, rules, render_mode)  # an agent a seat of the rules

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. 광값 paid at the deal (``gwangpalgi_last``: 선+3 sells before the
        first move) is rewarded with the first step, as PettingZoo counts rewards from
        the steps; a game over at its deal (총통) keeps its rewards at the reset."""
        super().reset(seed, options)
        assert self.session is not None
        if not self.session.over and self._paid:
            self._paid = 0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)


def raw_env(
    preset: str | None = None,
    rules: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> MadangAECEnv:
    """The environment whose illegal actions raise: ``preset`` names the rules preset
    (the default first), ``rules`` changes some options, ``render_mode`` is None or
    ``"ansi"``."""
    return GostopAECEnv(preset, rules, render_mode)


def env(
    preset: str | None = None,
    rules: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> Any:
    """The environment with PettingZoo's classic wrappers: an illegal action ends the
    game with -1 to its agent (see ``raw_env``)."""
    return wrapped(raw_env(preset, rules, render_mode))
