"""Shanten speed: madang against PyPI ``mahjong`` and ``xiangting``, side by side.

Random 13- and 14-tile hands from the 104-tile set (man, pin, honors; a quarter with
1–2 declared melds, whose tiles are left out of the hand). Prints calls per second for:

* ``madang shanten(counts, melds)``: the checked call on a count list;
* ``madang shanten_keys(km, kp, kz, melds)``: the unchecked call on precomputed suit
  keys (what an engine or a bot that updates keys incrementally uses);
* PyPI ``mahjong`` ``Shanten.calculate_shanten`` (kokushi off) on its 34-index;
* ``xiangting.calculate_replacement_number`` (its number is shanten + 1).

The external libraries are optional: each is skipped with a note when not importable.
Run on one core: ``taskset -c 0 python3 benchmarks/mahjong_shanten.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from madang.mahjong.hand import shanten, shanten_keys, suit_keys

WALL = [k for k in range(25) for _ in range(4)]


def make_hands(n: int, seed: int = 1) -> list[tuple[list[int], int]]:
    """``n`` random (counts, melds) hands."""
    rng = random.Random(seed)
    hands: list[tuple[list[int], int]] = []
    for i in range(n):
        melds = rng.randint(1, 2) if i % 4 == 3 else 0
        counts = [0] * 25
        for k in rng.sample(WALL, rng.choice((13, 14)) - 3 * melds):
            counts[k] += 1
        hands.append((counts, melds))
    return hands


def _rate(run: Callable[[], None], calls: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return calls / best


def bench_ours(hands: Sequence[tuple[list[int], int]], repeat: int) -> dict[str, float]:
    keyed = [(*suit_keys(c), m) for c, m in hands]

    def plain() -> None:
        for c, m in hands:
            shanten(c, m)

    def keys() -> None:
        for a, b, z, m in keyed:
            shanten_keys(a, b, z, m)

    kms = [k[0] for k in keyed]
    kps = [k[1] for k in keyed]
    kzs = [k[2] for k in keyed]
    mls = [k[3] for k in keyed]

    def keys_map() -> None:
        for _ in map(shanten_keys, kms, kps, kzs, mls):
            pass

    n = len(hands)
    return {
        "madang shanten(counts, melds)": _rate(plain, n, repeat),
        "madang shanten_keys(...) loop": _rate(keys, n, repeat),
        "madang shanten_keys(...) map": _rate(keys_map, n, repeat),
    }


def _to_34(counts: list[int]) -> list[int]:
    return counts[:18] + [0] * 9 + counts[18:25]


def bench_pypi(hands: Sequence[tuple[list[int], int]], repeat: int) -> dict[str, float] | str:
    try:
        from mahjong.shanten import Shanten
    except ImportError as e:
        return f"PyPI mahjong not importable ({e})"
    t34 = [_to_34(c) for c, _ in hands]
    calc: Any = Shanten.calculate_shanten

    def run() -> None:
        for t in t34:
            calc(t, use_kokushi=False)

    return {"PyPI mahjong Shanten.calculate_shanten": _rate(run, len(t34), repeat)}


def bench_xiangting(hands: Sequence[tuple[list[int], int]], repeat: int) -> dict[str, float] | str:
    try:
        import xiangting
    except ImportError as e:
        return f"xiangting not importable ({e})"
    t34 = [_to_34(c) for c, _ in hands]
    calc: Any = xiangting.calculate_replacement_number
    four: Any = xiangting.PlayerCount.FOUR

    def run() -> None:
        for t in t34:
            calc(t, four)

    return {"xiangting calculate_replacement_number": _rate(run, len(t34), repeat)}


def check_agreement(hands: Sequence[tuple[list[int], int]]) -> str:
    """Count disagreements with PyPI mahjong on the benchmark hands (a sanity line)."""
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return "agreement with PyPI mahjong: not checked"
    bad = 0
    for c, m in hands:
        ref = Shanten.calculate_shanten(_to_34(c), use_chiitoitsu=m == 0, use_kokushi=False)
        bad += ref != shanten(c, m)
    return f"agreement with PyPI mahjong: {len(hands) - bad}/{len(hands)} hands"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per library."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per library")
    parser.add_argument("--ext-hands", type=int, default=2_000, help="hands for PyPI mahjong")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    hands = make_hands(args.hands, args.seed)
    print(f"shanten calls per second ({args.hands} hands, best of {args.repeat}):")
    results: dict[str, float] = {}
    results.update(bench_ours(hands, args.repeat))
    for outcome in (
        bench_pypi(hands[: args.ext_hands], min(args.repeat, 3)),
        bench_xiangting(hands, args.repeat),
    ):
        if isinstance(outcome, str):
            print(f"  skipped: {outcome}")
        else:
            results.update(outcome)
    width = max(len(name) for name in results)
    for name, rate in results.items():
        print(f"  {name:<{width}}  {rate:>12,.0f} /s")
    print(check_agreement(hands[: args.ext_hands]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
