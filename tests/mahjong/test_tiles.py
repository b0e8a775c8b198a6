"""Tiles, kinds and MPSZ notation (madang.mahjong.tiles)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from madang.core.errors import InvalidActionError
from madang.mahjong.tiles import (
    ALL_TILES,
    BAEK,
    BAL,
    DRAGONS,
    EAST,
    FLOWER_KINDS,
    JUNG,
    NORTH,
    NUM_KINDS,
    SOUTH,
    TERMINALS_AND_HONORS,
    WEST,
    WINDS,
    TileNotationError,
    counts_to_kinds,
    format_tiles,
    is_flower,
    is_honor,
    is_suited,
    is_terminal,
    kind_of,
    number_of,
    parse_tile,
    parse_tiles,
    suit_of,
    tile_name,
    to_counts,
)


def test_constants() -> None:
    assert NUM_KINDS == 25
    assert list(FLOWER_KINDS) == [25, 26, 27, 28]
    assert tuple(range(18, 25)) == (EAST, SOUTH, WEST, NORTH, BAEK, BAL, JUNG)
    assert WINDS == (18, 19, 20, 21)
    assert DRAGONS == (22, 23, 24)
    assert {0, 8, 9, 17, 18, 19, 20, 21, 22, 23, 24} == TERMINALS_AND_HONORS
    assert tuple(range(104)) == ALL_TILES


def test_physical_tiles_make_104_with_four_of_each_kind() -> None:
    kinds = [kind_of(t) for t in ALL_TILES]
    for k in range(NUM_KINDS):
        assert kinds.count(k) == 4
    for k in FLOWER_KINDS:
        assert kinds.count(k) == 1
    assert [kind_of(t) for t in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [kind_of(t) for t in (100, 101, 102, 103)] == [25, 26, 27, 28]


@pytest.mark.parametrize("bad", [-1, 104, 1000])
def test_kind_of_rejects_non_tiles(bad: int) -> None:
    with pytest.raises(InvalidActionError):
        kind_of(bad)


@pytest.mark.parametrize(
    ("name", "kind", "suit", "number", "suited", "honor", "terminal"),
    [
        ("1m", 0, 0, 1, True, False, True),
        ("5m", 4, 0, 5, True, False, False),
        ("9m", 8, 0, 9, True, False, True),
        ("1p", 9, 1, 1, True, False, True),
        ("9p", 17, 1, 9, True, False, True),
        ("1z", 18, 2, 1, False, True, False),
        ("4z", 21, 2, 4, False, True, False),
        ("7z", 24, 2, 7, False, True, False),
        ("1f", 25, 3, 1, False, False, False),
        ("4f", 28, 3, 4, False, False, False),
    ],
    ids=lambda v: str(v),
)
def test_kind_properties(
    name: str, kind: int, suit: int, number: int, suited: bool, honor: bool, terminal: bool
) -> None:
    assert parse_tile(name) == kind
    assert tile_name(kind) == name
    assert suit_of(kind) == suit
    assert number_of(kind) == number
    assert is_suited(kind) is suited
    assert is_honor(kind) is honor
    assert is_terminal(kind) is terminal
    assert is_flower(kind) is (suit == 3)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("123m456p111z", [0, 1, 2, 12, 13, 14, 18, 18, 18]),
        ("1m2p3m", [0, 10, 2]),
        ("  1m 2m\t3m\n", [0, 1, 2]),
        ("7z1f4f", [24, 25, 28]),
        ("99p11m", [17, 17, 0, 0]),
        ("", []),
    ],
    ids=lambda v: repr(v) if isinstance(v, str) else "",
)
def test_parse_tiles(text: str, kinds: list[int]) -> None:
    assert parse_tiles(text) == kinds


@pytest.mark.parametrize(
    "text",
    ["0m", "10m", "12s", "8z", "5f", "m", "12", "1m2", "1x", "1m,2m", "1M", "１m", "z1"],
)
def test_parse_tiles_rejects_malformed(text: str) -> None:
    with pytest.raises(TileNotationError):
        parse_tiles(text)


def test_notation_error_is_an_invalid_action() -> None:
    assert issubclass(TileNotationError, InvalidActionError)


@pytest.mark.parametrize("text", ["", "1m2m", "12m", "1q", "11z"])
def test_parse_tile_needs_exactly_one(text: str) -> None:
    with pytest.raises(TileNotationError):
        parse_tile(text)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TileNotationError):
        parse_tiles(123)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kinds", "text"),
    [
        ([18, 0, 14, 1, 2, 12, 13, 18], "123m456p11z"),
        ([28, 24, 9, 0], "1m1p7z4f"),
        ([], ""),
        ([4, 4, 4, 4], "5555m"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_format_tiles(kinds: list[int], text: str) -> None:
    assert format_tiles(kinds) == text


@pytest.mark.parametrize("bad", [[-1], [29], [0, 100]])
def test_format_rejects_non_kinds(bad: list[int]) -> None:
    with pytest.raises(InvalidActionError):
        format_tiles(bad)


def test_to_counts_skips_flowers() -> None:
    counts = to_counts(parse_tiles("112m7z1f2f"))
    assert len(counts) == NUM_KINDS
    assert counts[0] == 2 and counts[1] == 1 and counts[24] == 1 and sum(counts) == 4
    assert counts_to_kinds(counts) == [0, 0, 1, 24]


kinds_st = st.lists(st.integers(min_value=0, max_value=28), max_size=30)


@given(kinds_st)
def test_parse_format_round_trip(kinds: list[int]) -> None:
    assert parse_tiles(format_tiles(kinds)) == sorted(kinds)


@given(kinds_st)
def test_names_round_trip(kinds: list[int]) -> None:
    text = " ".join(tile_name(k) for k in kinds)
    assert parse_tiles(text) == kinds
    assert format_tiles(parse_tiles(format_tiles(kinds))) == format_tiles(kinds)


@given(st.lists(st.integers(min_value=0, max_value=24), max_size=30))
def test_counts_round_trip(kinds: list[int]) -> None:
    assert counts_to_kinds(to_counts(kinds)) == sorted(kinds)


@given(st.text(alphabet="0123456789mpzfsx ", max_size=12))
def test_parse_either_succeeds_or_raises_notation_error(text: str) -> None:
    try:
        kinds = parse_tiles(text)
    except TileNotationError:
        return
    assert all(0 <= k < 29 for k in kinds)
    assert parse_tiles(format_tiles(kinds)) == sorted(kinds)
