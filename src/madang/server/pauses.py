"""How long a mahjong offer's pause lasts (``docs/server.md``, Claims).

After every discard (and 가깡) the room pauses before play goes on, and a seat that was
not asked to claim must not learn from the pause whether anyone was. An offer that asks
no person (nobody, or bots only, whose answers are held) lasts exactly ``claim_seconds``;
one that asks a person lasts until every person asked has answered (``claim_seconds`` at
least, ``claim_decision_seconds`` at most). At a table with two or more people an offer
that asks no person draws, with the chance ``claim_decoy_rate``, a decoy: a length taken
from this table's own offers that asked a person, so that an observer sees the same
distribution of pauses whether or not a person could claim.

>>> import random
>>> from madang.server.config import ServerConfig
>>> p = ClaimPauses(ServerConfig(claim_seconds=0.5, claim_decoy_rate=1.0), random.Random(1))
>>> p.decoy(people=1) is None  # one person and bots: no decoys
True
>>> p.asked(2.0)
>>> p.decoy(people=2)
2.0
"""

from __future__ import annotations

import random
from collections import deque

from madang.server.config import ServerConfig

__all__ = ["ClaimPauses"]

POOL = 64
"""How many of the latest pauses that asked a person the decoys are drawn from."""

_SHARED: deque[float] = deque(maxlen=4 * POOL)
"""The same across the process's tables: a new table's decoys until it has its own."""


class ClaimPauses:
    """The decoys of one table's offers, drawn from the lengths of its offers that asked
    a person (:meth:`asked`)."""

    def __init__(self, config: ServerConfig, rng: random.Random) -> None:
        self.config = config
        self.rng = rng
        self.lengths: deque[float] = deque(maxlen=POOL)

    def decoy(self, *, people: int) -> float | None:
        """The length of a decoy pause for an offer that asks no person at a table of
        ``people`` people, or None: the uniform pause (``claim_seconds``).

        The lengths come from this table's latest offers that asked a person; before it
        has any, from the process's other tables; before any, uniformly between the
        uniform pause and the decision time."""
        cfg = self.config
        if people < 2 or self.rng.random() >= cfg.claim_decoy_rate:
            return None
        pool = self.lengths or _SHARED
        if pool:
            return max(cfg.claim_seconds, self.rng.choice(pool))
        longest = max(cfg.claim_seconds, cfg.claim_decision_seconds)
        return self.rng.uniform(cfg.claim_seconds, longest)

    def asked(self, length: float) -> None:
        """An offer that asked a person lasted ``length`` seconds."""
        self.lengths.append(length)
        _SHARED.append(length)
