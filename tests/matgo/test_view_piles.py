"""The piles of the Matgo view: the board lays captured cards out as the server sorts
them (국진 where it counts for its holder), and shows the server's counts, so the client
holds no 피 values."""

from __future__ import annotations

import random

import pytest

from madang.matgo.cards import CODES, mask_of, pi_value
from madang.matgo.engine import new_game
from madang.matgo.rules import PRESETS
from madang.matgo.view import HELP_KEYS, annotate, view


def _mask(codes: list[str]) -> int:
    return mask_of(CODES.index(c) for c in codes)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_piles_partition_the_captured_cards_and_match_the_counts(preset: str) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        g = new_game(PRESETS[preset], seed=seed)
        while True:
            v = view(g, None)
            assert not set(HELP_KEYS) & set(v)  # knowledge only: the table adds the help
            annotate(v)
            for p in (0, 1):
                piles, prog = v["piles"][p], v["progress"][p]
                laid_out = [c for pile in piles.values() for c in pile]
                assert sorted(laid_out) == sorted(v["captured"][p])
                assert [len(piles[k]) for k in ("gwang", "yeol", "tti")] == [
                    prog["gwang"],
                    prog["yeol"],
                    prog["tti"],
                ]
                as_pi = v["gukjin_as"][p] == "pi"
                assert pi_value(_mask(piles["pi"]), as_pi) == prog["pi"]
                assert ("09a" in piles["pi"]) == as_pi
            if g.over:
                break
            g.step(rng.choice(g.legal_actions()))
