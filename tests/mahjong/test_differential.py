"""Differential test: our shanten and agari against PyPI ``mahjong`` on random hands.

Kinds map onto its 34-index: man 0–8, pin 9–17, honors 27–33 (no bamboo). A hand with
k declared melds is the remaining 13 − 3k / 14 − 3k concealed tiles; PyPI ``mahjong``
treats the missing sets of a short hand as already made, which is our ``melds``.

Both compute exact shanten for the standard form (a wait on a kind held four times does
not count) and the same 칠대작 shanten as our ``quad_as_two_pairs=False`` (seven pairs
of seven different kinds; a quad is one pair), so no mapping is needed. Its kokushi
(13 orphans) is not a Korean hand and is switched off.
"""

from __future__ import annotations

import random

import pytest

from madang.mahjong.hand import is_agari, shanten, shanten_chiitoi, shanten_standard

shanten_module = pytest.importorskip("mahjong.shanten")
agari_module = pytest.importorskip("mahjong.agari")
Shanten = shanten_module.Shanten
Agari = agari_module.Agari

WALL = [k for k in range(25) for _ in range(4)]
N_HANDS = 24_000


def to_34(counts: list[int]) -> list[int]:
    return counts[:18] + [0] * 9 + counts[18:25]


def random_hands(seed: int, n: int) -> list[tuple[list[int], int]]:
    """``n`` hands: half uniform from the 100 tiles, half from a few kinds only (many
    triplets and quads); a quarter with 1–4 melds; 13 and 14 tiles alike."""
    rng = random.Random(seed)
    out: list[tuple[list[int], int]] = []
    for i in range(n):
        melds = rng.randint(1, 4) if i % 4 == 3 else 0
        size = rng.choice((13, 14)) - 3 * melds
        if i % 2:
            kinds = rng.sample(range(25), rng.randint(4, 9))
            pool = [k for k in kinds for _ in range(4)]
            if len(pool) < size:
                pool = WALL
        else:
            pool = WALL
        counts = [0] * 25
        for k in rng.sample(pool, size):
            counts[k] += 1
        out.append((counts, melds))
    return out


def test_against_pypi_mahjong() -> None:
    disagreements: list[str] = []
    checked = {"standard": 0, "chiitoi": 0, "agari": 0}
    for counts, melds in random_hands(20240611, N_HANDS):
        t34 = to_34(counts)
        size = sum(counts)
        ref_std = Shanten.calculate_shanten_for_regular_hand(t34)
        ours_std = shanten_standard(counts, melds)
        checked["standard"] += 1
        if ours_std != ref_std:
            disagreements.append(f"standard {counts} melds={melds}: {ours_std} vs {ref_std}")
        ref_all = Shanten.calculate_shanten(t34, use_chiitoitsu=melds == 0, use_kokushi=False)
        if shanten(counts, melds) != ref_all:
            disagreements.append(f"combined {counts} melds={melds}")
        if melds == 0:
            checked["chiitoi"] += 1
            ref_chi = Shanten.calculate_shanten_for_chiitoitsu_hand(t34)
            if shanten_chiitoi(counts) != ref_chi:
                disagreements.append(f"chiitoi {counts}: {shanten_chiitoi(counts)} vs {ref_chi}")
        if size + 3 * melds == 14:
            checked["agari"] += 1
            ref_agari = Agari.is_agari(t34)
            if is_agari(counts, melds) != ref_agari:
                disagreements.append(f"agari {counts} melds={melds}")
    assert disagreements == [], disagreements[:10]
    assert checked["standard"] == N_HANDS
    assert checked["chiitoi"] > N_HANDS // 2
    assert checked["agari"] > N_HANDS // 3


def test_hands_cover_interesting_cases() -> None:
    """The generator really produces quads, complete hands and ready hands."""
    hands = random_hands(20240611, 4000)
    assert sum(4 in c for c, _ in hands) > 200
    assert sum(shanten(c, m) == -1 for c, m in hands) > 20
    assert sum(shanten(c, m) == 0 for c, m in hands) > 100
