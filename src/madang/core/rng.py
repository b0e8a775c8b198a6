"""Seeded randomness: every game's shuffle starts from a ``random.Random`` made here.

>>> make_rng(7).random() == make_rng(7).random()
True
"""

from __future__ import annotations

import random


def make_rng(seed: int | None) -> random.Random:
    """A private ``random.Random``; ``None`` draws a seed from the OS."""
    return random.Random(seed)
