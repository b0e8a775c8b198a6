"""맞고 as the two-seat member of the family's engine: not one payment changed.

The engine was generalised to N seats (issue 28); the digest below was taken from the
two-seat engine before that change (commit 2485fef) over 240 seeded random games, 40 per
Matgo preset, with 나가리 carries — every payment, result and move. Any change to how
맞고 plays or pays changes it.
"""

from __future__ import annotations

import hashlib
import random

from madang.matgo.engine import new_game
from madang.matgo.rules import PRESETS

DIGEST_BEFORE_N_SEATS = "467b7e6e6ffae3cd853ce5cb0c9bdc0a6aaafff8bc3828b302ff2ac2f22a259f"


def test_matgo_plays_and_pays_as_before_the_generalisation() -> None:
    h = hashlib.sha256()
    for name in sorted(PRESETS):
        for i in range(40):
            g = new_game(PRESETS[name], seed=i, dealer=i & 1, carry=1 << (i % 3))
            rng = random.Random(i)
            while not g.over:
                legal = g.legal_actions()
                g.step(legal[rng.randrange(len(legal))])
            assert len(g.hands) == 2 and g.after == ((1,), (0,))
            state = (name, i, g.payments, g.points, g.winner, g.end_reason, g.moves)
            h.update(repr(state).encode())
    assert h.hexdigest() == DIGEST_BEFORE_N_SEATS
