"""The most 기본판 any mahjong hand can score: an exhaustive check of ``MAX_BASE_PAN``.

Every reading a winning hand can have is enumerated — four sets (triplets of the 25
kinds, runs of the two suits) and a pair, no kind more than four times, and every set
of seven pairs (a kind twice only with ``quad_as_two_pairs``) — each with the most a
reading can get from its circumstances: concealed (멘젠) and self-drawn (올라), every
triplet concealed (앙꼬), a two-sided wait when it has a run, 구련보등 when its tiles
allow it, and the seat and round winds that pay most. The patterns only ever add 판 for
those circumstances (none needs an open hand or a 쏘아), so the largest 기본판 found is
the largest any hand can score. It must equal
:data:`madang.mahjong.scoring.MAX_BASE_PAN` (the server's bound on what one hand can
move, ``docs/server.md``, uses it); ``tests/mahjong/test_scoring_bounds.py`` checks
that a hand reaches it.

Run: ``python3 benchmarks/mahjong_max_pan.py`` (about a minute on one core).
"""

from __future__ import annotations

import itertools
import time

from madang.mahjong.patterns import Reading, evaluate
from madang.mahjong.scoring import MAX_BASE_PAN
from madang.mahjong.tiles import EAST, NUM_KINDS, WINDS

_RUNS = [low for base in (0, 9) for low in range(base, base + 7)]
_SETS = [("pung", k) for k in range(NUM_KINDS)] + [("run", low) for low in _RUNS]


def _nine_gates(counts: list[int]) -> bool:
    for base in (0, 9):
        for win in range(base, base + 9):
            if counts[win] and all(
                counts[k] - (k == win)
                == ((3 if k in (base, base + 8) else 1) if base <= k <= base + 8 else 0)
                for k in range(NUM_KINDS)
            ):
                return True
    return False


def _base_pan(reading: Reading) -> int:
    return sum(item.pan for item in evaluate(reading)[0])


def best_four_sets() -> tuple[int, Reading | None]:
    best, witness = -1, None
    for sets in itertools.combinations_with_replacement(_SETS, 4):
        counts = [0] * NUM_KINDS
        for kind, k in sets:
            if kind == "pung":
                counts[k] += 3
            else:
                for j in range(3):
                    counts[k + j] += 1
        if max(counts) > 4:
            continue
        pungs = tuple(k for kind, k in sets if kind == "pung")
        if len(set(pungs)) < len(pungs):
            continue
        runs = tuple(k for kind, k in sets if kind == "run")
        winds = [w for w in WINDS if w in pungs] or [EAST]
        for pair in range(NUM_KINDS):
            if counts[pair] + 2 > 4:
                continue
            full = list(counts)
            full[pair] += 2
            present = sum(1 << k for k in range(NUM_KINDS) if full[k])
            nine = _nine_gates(full)
            for seat, rnd in itertools.product(winds, winds):
                r = Reading(
                    triplets=pungs, concealed_triplets=len(pungs), chows=runs, pair=pair,
                    pairs=(), present=present, menjen=True, tsumo=True, two_sided=bool(runs),
                    nine_gates=nine, seat_wind=seat, round_wind=rnd, win_copies=0, flowers=0,
                    flags=frozenset(),
                )  # fmt: skip
                pan = _base_pan(r)
                if pan > best:
                    best, witness = pan, r
    return best, witness


def best_seven_pairs() -> int:
    best = -1
    for size in range(4, 8):  # seven pairs of 4 to 7 kinds (a kind twice: a quad)
        for kinds in itertools.combinations(range(NUM_KINDS), size):
            pairs = kinds + kinds[: 7 - size]
            r = Reading(
                triplets=(), concealed_triplets=0, chows=(), pair=-1, pairs=pairs,
                present=sum(1 << k for k in kinds), menjen=True, tsumo=True,
                two_sided=False, nine_gates=False, seat_wind=EAST, round_wind=EAST,
                win_copies=0, flowers=0, flags=frozenset(),
            )  # fmt: skip
            best = max(best, _base_pan(r))
    return best


def main() -> None:
    t = time.perf_counter()
    four, witness = best_four_sets()
    seven = best_seven_pairs()
    print(f"four sets and a pair: {four} 기본판 ({witness})")
    print(f"seven pairs: {seven} 기본판")
    print(f"MAX_BASE_PAN = {MAX_BASE_PAN}; found {max(four, seven)}")
    print(f"{time.perf_counter() - t:.0f} s")
    if max(four, seven) != MAX_BASE_PAN:
        raise SystemExit("MAX_BASE_PAN is not the largest 기본판")


if __name__ == "__main__":
    main()
