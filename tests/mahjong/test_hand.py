"""Hand analysis (madang.mahjong.hand): shanten, agari, waits, ukeire, decompositions."""

from __future__ import annotations

import importlib.util
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import InvalidActionError
from madang.mahjong import _tables
from madang.mahjong.hand import (
    KIND_STEP,
    KIND_SUIT,
    Decomposition,
    chiitoi_pairs,
    counts_keys,
    decompositions,
    is_agari,
    ready_waits,
    shanten,
    shanten_chiitoi,
    shanten_keys,
    shanten_standard,
    suit_keys,
    ukeire,
    waits,
)
from madang.mahjong.tiles import format_tiles, parse_tile, parse_tiles, to_counts


def C(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


# --------------------------------------------------------------------------- shanten tables

# hand, melds, standard, 칠대작 (None with melds), combined
SHANTEN = [
    ("123456789m1135p", 0, 0, 5, 0),
    ("11123456789999m", 0, -1, 4, -1),
    ("1112345678999m", 0, 0, 4, 0),
    ("1234567m123p45p7z", 0, 1, 6, 1),
    ("11223344556677z", 0, 3, -1, -1),
    ("1122m3344p55667z", 0, 3, 0, 0),
    ("19m19p1234567z555m", 0, 6, 5, 5),
    ("13579m13579p1357z", 0, 4, 6, 4),
    ("1111m3355p112233z", 0, 2, 1, 1),
    # exact shanten: a wait on a kind the hand holds four of does not count
    ("123m456m789m1111p", 0, 1, 5, 1),
    ("1111222233334m", 0, 0, 6, 0),
    ("1122m", 3, 0, None, 0),
    ("1112m", 3, 0, None, 0),
    ("5z", 4, 0, None, 0),
    ("55z", 4, -1, None, -1),
    ("5555z", 3, 1, None, 1),
    ("13m57p", 3, 1, None, 1),
    ("123m456p77z", 2, -1, None, -1),
    ("123m456p7z", 2, 0, None, 0),
]


@pytest.mark.parametrize(
    ("hand", "melds", "std", "chi", "best"),
    SHANTEN,
    ids=[f"{h}+{m}melds" if m else h for h, m, *_ in SHANTEN],
)
def test_shanten_table(hand: str, melds: int, std: int, chi: int | None, best: int) -> None:
    counts = C(hand)
    assert shanten_standard(counts, melds) == std
    if chi is not None:
        assert shanten_chiitoi(counts) == chi
    assert shanten(counts, melds) == best
    assert shanten(tuple(counts), melds) == best
    assert shanten_keys(*suit_keys(counts), melds) == best


@pytest.mark.parametrize(
    ("hand", "default", "quad"),
    [
        ("1111223344556m", 2, 0),
        ("11112222334455m", 3, -1),
        ("1111m3355p112233z", 1, -1),
        ("1122334455667m", 0, 0),
    ],
    ids=lambda v: str(v),
)
def test_chiitoi_quad_option(hand: str, default: int, quad: int) -> None:
    counts = C(hand)
    assert shanten_chiitoi(counts) == default
    assert shanten_chiitoi(counts, quad_as_two_pairs=True) == quad
    assert shanten(counts, quad_as_two_pairs=True) <= shanten(counts)


# --------------------------------------------------------------------------- agari


@pytest.mark.parametrize(
    ("hand", "melds", "agari", "agari_quad"),
    [
        ("11123456789999m", 0, True, True),
        ("123m456p789m11z555z", 0, True, True),
        ("11223344556677z", 0, True, True),
        ("1111m3355p112233z", 0, False, True),
        ("11112222333344m", 0, True, True),  # 123 123 123 123 44
        ("12345678m12345p9p", 0, False, False),
        ("55z", 4, True, True),
        ("56z", 4, False, False),
        ("1133m55p77z", 2, False, False),  # seven pairs needs a concealed hand
        ("11m", 4, True, True),
    ],
    ids=lambda v: str(v),
)
def test_is_agari(hand: str, melds: int, agari: bool, agari_quad: bool) -> None:
    counts = C(hand)
    assert is_agari(counts, melds) is agari
    assert is_agari(counts, melds, quad_as_two_pairs=True) is agari_quad


# --------------------------------------------------------------------------- waits


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("1112345678999m", 0, "123456789m"),
        ("1113m234p567p789p", 0, "23m"),
        ("1111m234p567p789p", 0, ""),  # only 1m would complete it: all four held
        ("2345m", 3, "25m"),
        ("1112m", 3, "23m"),
        ("1122m3344p55667z", 0, "7z"),  # 칠대작 tanki
        ("1122m3344p1z5566z", 0, "1z"),
        ("5z", 4, "5z"),
        ("1235m", 3, "5m"),
        ("13m456p789p11z555z", 0, "2m"),
        ("45m456p789p11z555z", 0, "36m"),
        ("12m456p789p11z555z", 0, "3m"),
        ("456p789p11z22z555z", 0, "12z"),
        ("12345678m12459p", 0, ""),
    ],
    ids=lambda v: str(v),
)
def test_waits(hand: str, melds: int, expected: str) -> None:
    assert waits(C(hand), melds) == parse_tiles(expected)


def test_waits_chiitoi_quad_option() -> None:
    counts = C("1111m3344p55667z")
    assert waits(counts) == []
    assert waits(counts, quad_as_two_pairs=True) == [parse_tile("7z")]


def test_waits_never_include_a_kind_held_four_times() -> None:
    counts = C("1111m234p567p789p")
    assert shanten(counts) == 1
    assert waits(counts) == []
    assert waits(C("111m234p567p789p5z")) == [parse_tile("5z")]


# --------------------------------------------------------------------------- ukeire


def test_ukeire_counts_unseen_copies() -> None:
    counts = C("1234567m123p45p7z")
    assert ukeire(counts) == {0: 3, 3: 3, 6: 3, 11: 3, 14: 4, 24: 3}
    visible = [0] * 25
    visible[14] = 3  # three 6p seen
    visible[24] = 2  # two 7z seen
    assert ukeire(counts, visible=visible) == {0: 3, 3: 3, 6: 3, 11: 3, 14: 1, 24: 1}


def test_ukeire_of_a_tenpai_hand_is_its_waits() -> None:
    counts = C("1112345678999m")
    assert sorted(ukeire(counts)) == waits(counts)
    assert ukeire(counts)[0] == 1  # three 1m in hand


@pytest.mark.parametrize(
    "visible",
    [[0] * 24, [5] + [0] * 24, [-1] + [0] * 24, [2] + [0] * 24],
    ids=["short", "five", "negative", "more_than_exist"],
)
def test_ukeire_rejects_bad_visible(visible: list[int]) -> None:
    with pytest.raises(InvalidActionError):
        ukeire(C("1112345678999m"), visible=visible)  # 1m: three held + two seen


# --------------------------------------------------------------------------- decompositions


def _strs(hand: str) -> list[str]:
    return [str(d) for d in decompositions(C(hand))]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("111222333m55z", ["55z 111m 222m 333m", "55z 123m 123m 123m"]),
        (
            "11122233344455m",
            [
                "22m 111m 234m 345m 345m",
                "55m 111m 222m 333m 444m",
                "55m 111m 234m 234m 234m",
                "55m 123m 123m 123m 444m",
            ],
        ),
        ("11123456789999m", ["11m 123m 456m 789m 999m"]),
        (
            "11112222333344m",
            ["11m 123m 123m 234m 234m", "44m 123m 111m 222m 333m", "44m 123m 123m 123m 123m"],
        ),
        ("22334455m", ["22m 345m 345m", "55m 234m 234m"]),
        ("123m456p11z555z", ["11z 123m 456p 555z"]),
        ("11223344556677z", []),
        ("77z", ["77z"]),
        ("111z", []),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_decompositions(hand: str, expected: list[str]) -> None:
    if sum(C(hand)) % 3 != 2:
        with pytest.raises(InvalidActionError):
            decompositions(C(hand))
        return
    assert _strs(hand) == expected


def test_decomposition_fields() -> None:
    (d,) = decompositions(C("123m456p11z555z"))
    assert d == Decomposition(pair=18, sets=(("chow", 0), ("chow", 12), ("pung", 22)))


@pytest.mark.parametrize(
    ("hand", "quad", "expected"),
    [
        ("1122m3344p556677z", False, "1122m3344p556677z"),
        ("1111m3344p556677z", False, None),
        ("1111m3344p556677z", True, "1111m3344p556677z"),
        ("1122m3344p55667z", False, None),  # 13 tiles
        ("1122m3344p555677z", False, None),
    ],
    ids=lambda v: str(v),
)
def test_chiitoi_pairs(hand: str, quad: bool, expected: str | None) -> None:
    got = chiitoi_pairs(C(hand), quad_as_two_pairs=quad)
    if expected is None:
        assert got is None
    else:
        assert got is not None
        assert format_tiles(list(got) * 2) == expected


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("counts", "melds"),
    [
        ([5] + [1] * 9 + [0] * 15, 0),  # a fifth copy
        ([-1] + [1] * 14 + [0] * 10, 0),
        ([1] * 24, 0),  # 24 entries
        ([1] * 26, 0),
        ([1] * 12 + [0] * 13, 0),  # 12 tiles
        ([1] * 15 + [0] * 10, 0),
        ([1] * 13 + [0] * 12, 1),
        ([1] * 13 + [0] * 12, -1),
        ([1] * 13 + [0] * 12, 5),
        ([1] * 4 + [0] * 21, True),
        ([1.0] * 13 + [0] * 12, 0),
        # a count above 4 and a negative one whose base-5 keys cancel out
        ([5, -1, -5, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] + [0] * 8, 0),
    ],
    ids=[
        "fifth",
        "negative",
        "short",
        "long",
        "12tiles",
        "15tiles",
        "13tiles_1meld",
        "melds-1",
        "melds5",
        "bool_melds",
        "floats",
        "cancelling",
    ],
)
def test_bad_input_raises(counts: list[int], melds: int) -> None:
    with pytest.raises(InvalidActionError):
        shanten(counts, melds)
    with pytest.raises(InvalidActionError):
        shanten_standard(counts, melds)


def test_other_functions_check_sizes() -> None:
    with pytest.raises(InvalidActionError):
        is_agari(C("1112345678999m"))  # 13 tiles
    with pytest.raises(InvalidActionError):
        waits(C("11123456789999m"))  # 14 tiles
    with pytest.raises(InvalidActionError):
        ukeire(C("11123456789999m"))
    with pytest.raises(InvalidActionError):
        shanten_chiitoi(C("1122m"))
    with pytest.raises(InvalidActionError):
        suit_keys([0] * 24 + [5])


# --------------------------------------------------------------------------- properties

WALL = tuple(k for k in range(25) for _ in range(4))


def hands(size: int) -> st.SearchStrategy[list[int]]:
    return st.permutations(WALL).map(lambda p: to_counts(p[:size]))


def _near_complete(draw: st.DrawFn) -> tuple[list[int], int]:
    """A hand built from sets and a pair (often tenpai or complete), minus 3 per meld."""
    melds = draw(st.integers(min_value=0, max_value=4))
    counts = [0] * 25
    blocks = draw(st.lists(st.integers(min_value=0, max_value=40), min_size=5, max_size=5))
    for i, b in enumerate(blocks):
        if i < melds:
            continue
        if i == 4:
            counts[b % 25] += 2
        elif b < 25:
            counts[b] += 3
        else:
            start = (b - 25) % 14
            k = start + (start // 7) * 2  # 0-6 man, 9-15 pin
            for j in range(3):
                counts[k + j] += 1
    if max(counts) > 4:
        counts = to_counts(WALL[: 14 - 3 * melds])
    drop = draw(st.integers(min_value=0, max_value=24))
    for j in range(25):
        if counts[(drop + j) % 25]:
            counts[(drop + j) % 25] -= 1
            break
    return counts, melds


near_complete = st.composite(_near_complete)()


@settings(max_examples=150, deadline=None)
@given(hands(14))
def test_shanten_minus_one_iff_agari(counts: list[int]) -> None:
    assert (shanten(counts) == -1) is is_agari(counts)
    assert (shanten_standard(counts) == -1) is bool(decompositions(counts))


@settings(max_examples=300, deadline=None)
@given(near_complete)
def test_waits_complete_the_hand(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    w = waits(counts, melds)
    assert ready_waits(counts, melds, False) == w  # the unchecked path, the same waits
    assert bool(w) is (shanten(counts, melds) == 0)
    for k in range(25):
        if counts[k] == 4:
            assert k not in w
            continue
        counts[k] += 1
        assert is_agari(counts, melds) is (k in w)
        if k in w and melds == 0 and chiitoi_pairs(counts) is None:
            assert decompositions(counts)
        counts[k] -= 1


@settings(max_examples=150, deadline=None)
@given(hands(13))
def test_ukeire_kinds_lower_shanten(counts: list[int]) -> None:
    now = shanten(counts)
    uk = ukeire(counts)
    for k in range(25):
        if counts[k] == 4:
            assert k not in uk
            continue
        counts[k] += 1
        assert (shanten(counts) < now) is (k in uk)
        assert shanten(counts) >= now - 1
        counts[k] -= 1


@settings(max_examples=150, deadline=None)
@given(hands(14))
def test_decompositions_are_valid_and_distinct(counts: list[int]) -> None:
    ds = decompositions(counts)
    assert len({(d.pair, tuple(sorted(d.sets))) for d in ds}) == len(ds)
    for d in ds:
        used: Counter[int] = Counter({d.pair: 2})
        for name, k in d.sets:
            if name == "pung":
                used[k] += 3
            else:
                assert k < 18 and k % 9 <= 6
                used.update([k, k + 1, k + 2])
        assert [used[k] for k in range(25)] == counts


@settings(max_examples=100, deadline=None)
@given(hands(13))
def test_suit_keys_step_incrementally(counts: list[int]) -> None:
    keys = list(suit_keys(counts))
    assert counts_keys(counts) == counts_keys(tuple(counts)) == tuple(keys)
    for k in range(25):
        if counts[k] < 4:
            counts[k] += 1
            keys[KIND_SUIT[k]] += KIND_STEP[k]
            assert tuple(keys) == suit_keys(counts)
            assert shanten_keys(keys[0], keys[1], keys[2]) == shanten(counts)
            counts[k] -= 1
            keys[KIND_SUIT[k]] -= KIND_STEP[k]


# --------------------------------------------------------------------------- tables


@pytest.mark.skipif(importlib.util.find_spec("numpy") is None, reason="needs numpy")
def test_generated_tables_are_up_to_date() -> None:
    from madang.mahjong import _tablegen
    from madang.mahjong.hand import _unblob

    fresh = _tablegen.build()
    for name in ("SUIT", "HONOR", "MP", "FIN"):
        assert _unblob(getattr(_tables, name)) == fresh[name], name
    assert list(_tables.SUIT_PROFILES) == fresh["SUIT_PROFILES"]
    assert list(_tables.HONOR_PROFILES) == fresh["HONOR_PROFILES"]
    assert fresh["N_COMBINED"] == _tables.N_COMBINED


def test_table_sizes() -> None:
    assert (_tables.N_SUIT_PROFILES, _tables.N_HONOR_PROFILES) == (126, 55)
    profiles = _tables.SUIT_PROFILES
    assert len(profiles) == len(set(profiles)) == 126
    # the empty suit needs 3 tiles per set and 2 for the pair
    empty = suit_keys([0] * 25)[0]
    from madang.mahjong.hand import _SUIT

    assert profiles[_SUIT[empty]] == (0, 2, 3, 5, 6, 8, 9, 11, 12, 14)
