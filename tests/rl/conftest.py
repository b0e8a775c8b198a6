"""Bots that RL tests register (``ismcts``, ``learned:PATH``) are forgotten after each
test, so that other tests and doctests see each game's own bots only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _forget_rl_bots() -> Iterator[None]:
    yield
    from madang.bots import base

    for bots in base._BOTS.values():
        for name in [n for n in bots if n == "ismcts" or n.startswith("learned:")]:
            del bots[name]
