"""Cards and actions: codes, masks, kinds, and the move notation of ``notation.md``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import InvalidActionError
from madang.matgo import actions as A
from madang.matgo.actions import action_str, parse_action
from madang.matgo.cards import (
    ANIMAL_MASK,
    CODES,
    GWANG_MASK,
    MONTH_MASK,
    NUM_CARDS,
    PI_MASK,
    RIBBON_MASK,
    SAME_AS,
    SSANGPI_MASK,
    Kind,
    card_code,
    codes_of,
    format_cards,
    iter_mask,
    mask_of,
    month_of,
    parse_card,
    parse_cards,
    pi_value,
)

MONTH_CODES = [c for c in CODES if not c.startswith("b")]


def test_the_48_month_cards_of_notation() -> None:
    expected = (
        "01g 01r 01p1 01p2 02a 02r 02p1 02p2 03g 03r 03p1 03p2 04a 04r 04p1 04p2 "
        "05a 05r 05p1 05p2 06a 06r 06p1 06p2 07a 07r 07p1 07p2 08g 08a 08p1 08p2 "
        "09a 09r 09p1 09p2 10a 10r 10p1 10p2 11g 11d 11p1 11p2 12g 12a 12r 12d"
    )
    assert expected.split() == MONTH_CODES
    assert [c for c in CODES if c.startswith("b")] == ["b2", "b3", "b2x", "b2y"]


@pytest.mark.parametrize(
    ("mask", "codes"),
    [
        pytest.param(GWANG_MASK, "01g 03g 08g 11g 12g", id="gwang-5"),
        pytest.param(ANIMAL_MASK, "02a 04a 05a 06a 07a 08a 09a 10a 12a", id="yeol-9"),
        pytest.param(RIBBON_MASK, "01r 02r 03r 04r 05r 06r 07r 09r 10r 12r", id="tti-10"),
        pytest.param(SSANGPI_MASK & mask_of(range(48)), "11d 12d", id="ssangpi-2"),
    ],
)
def test_kind_masks(mask: int, codes: str) -> None:
    assert format_cards(mask) == codes


def test_totals_of_matgo_md_section_1() -> None:
    month = mask_of(range(48))
    assert (PI_MASK & month).bit_count() == 22
    assert pi_value(month) == 22 + 2 * 2
    for m in range(1, 13):
        assert (MONTH_MASK[m]).bit_count() == 4
        assert all(month_of(c) == m for c in iter_mask(MONTH_MASK[m]))


@pytest.mark.parametrize(
    ("code", "kind", "month"),
    [
        ("01g", Kind.GWANG, 1),
        ("12g", Kind.GWANG, 12),
        ("09a", Kind.ANIMAL, 9),
        ("12r", Kind.RIBBON, 12),
        ("11d", Kind.SSANGPI, 11),
        ("07p2", Kind.PI, 7),
        ("b3", Kind.BONUS, 0),
        ("b2y", Kind.BONUS, 0),
    ],
)
def test_card_kind_and_month(code: str, kind: Kind, month: int) -> None:
    from madang.matgo.cards import KINDS

    c = parse_card(code)
    assert KINDS[c] is kind
    assert month_of(c) == month
    assert card_code(c) == code


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        ("01p1", 1),
        ("11d 12d", 4),
        ("b2 b3", 5),
        ("b2 b2x b2y", 6),
        ("09a 01p1", 1),
        ("01g 01r 02a", 0),
    ],
)
def test_pi_value(cards: str, value: int) -> None:
    assert pi_value(mask_of(parse_cards(cards))) == value


def test_pi_value_gukjin_as_pi() -> None:
    m = mask_of(parse_cards("09a 01p1"))
    assert pi_value(m, gukjin_as_pi=True) == 3


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("05p1", "05p2", True),
        ("11p1", "11p2", True),
        ("11p1", "11d", False),
        ("05a", "05p1", False),
        ("12a", "12r", False),
    ],
)
def test_interchangeable(a: str, b: str, same: bool) -> None:
    assert bool(SAME_AS[parse_card(a)] & mask_of([parse_card(b)])) is same


@pytest.mark.parametrize("bad", ["", "13g", "01x", "1g", "01P1", "b4", "01g ", None, 5])
def test_parse_card_rejects(bad: object) -> None:
    with pytest.raises(InvalidActionError):
        parse_card(bad)  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(CODES), unique=True))
@settings(max_examples=200, deadline=None)
def test_cards_round_trip(codes: list[str]) -> None:
    ids = parse_cards(codes)
    assert [card_code(c) for c in ids] == codes
    m = mask_of(ids)
    assert sorted(codes_of(m), key=CODES.index) == sorted(codes, key=CODES.index)
    assert parse_cards(format_cards(m)) == sorted(ids)
    assert mask_of(parse_cards(" ".join(codes))) == m


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("play 08g", A.PLAY + parse_card("08g")),
        ("play b3", A.PLAY + parse_card("b3")),
        ("play 08g shake", A.SHAKE + parse_card("08g")),
        ("bomb 08", A.BOMB + 7),
        ("bomb 12", A.BOMB + 11),
        ("flip", A.FLIP),
        ("pick 03r", A.PICK + parse_card("03r")),
        ("go", A.GO),
        ("stop", A.STOP),
        ("gukjin animal", A.GUKJIN_ANIMAL),
        ("gukjin pi", A.GUKJIN_PI),
        ("chongtong stop", A.CHONGTONG_STOP),
        ("chongtong play", A.CHONGTONG_PLAY),
    ],
    ids=lambda x: x if isinstance(x, str) else str(x),
)
def test_notation_table(text: str, action: int) -> None:
    assert parse_action(text) == action
    assert action_str(action) == text


@pytest.mark.parametrize("action", range(A.NUM_ACTIONS))
def test_every_action_id_round_trips(action: int) -> None:
    text = action_str(action)
    assert parse_action(text) == action
    assert " ".join(text.split()) == text


def test_action_ids_are_a_dense_range() -> None:
    texts = {action_str(a) for a in range(A.NUM_ACTIONS)}
    assert len(texts) == A.NUM_ACTIONS == 175
    # 고스톱's five (join, die, 쇼당's three) come after 맞고's, never legal in 맞고
    family = {action_str(a) for a in range(A.NUM_FAMILY_ACTIONS)}
    assert len(family) == A.NUM_FAMILY_ACTIONS == 180
    assert {parse_action(t) for t in family - texts} == set(range(175, 180))


@pytest.mark.parametrize("bad", [-1, A.NUM_FAMILY_ACTIONS, 10_000])
def test_action_str_rejects_unknown_ids(bad: int) -> None:
    with pytest.raises(InvalidActionError):
        action_str(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "play",
        "play 13g",
        "play 08g shook",
        "play 08g shake now",
        "pick",
        "pick 08",
        "bomb 8",
        "bomb 13",
        "bomb 00",
        "bomb aa",
        "bomb 08 09",
        "go now",
        "Go",
        "stop!",
        "gukjin",
        "gukjin ssangpi",
        "chongtong",
        "chongtong go",
        "flip 08g",
        "shake 08g",
        "play\u00a0b9",
    ],
)
def test_malformed_moves(bad: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(bad)


@pytest.mark.parametrize("bad", [None, 5, b"go", ["go"]])
def test_non_string_moves(bad: object) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(bad)  # type: ignore[arg-type]


def test_extra_whitespace_is_tolerated() -> None:
    assert parse_action("  play   08g  shake ") == parse_action("play 08g shake")


@given(st.integers(min_value=0, max_value=A.NUM_ACTIONS - 1))
@settings(max_examples=100, deadline=None)
def test_action_round_trip_property(action: int) -> None:
    assert parse_action(action_str(action)) == action


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=20))
@settings(max_examples=300, deadline=None)
def test_parse_action_never_crashes(text: str) -> None:
    try:
        a = parse_action(text)
    except InvalidActionError:
        return
    assert 0 <= a < A.NUM_FAMILY_ACTIONS
    assert action_str(a) == " ".join(text.split())


def test_bomb_with_superscript_digits_is_invalid() -> None:
    with pytest.raises(InvalidActionError):
        parse_action("bomb \u00b9\u00b2")


@pytest.mark.parametrize(
    "text", ["bomb \uff10\uff18", "bomb \u0660\u0668"], ids=["fullwidth", "arabic"]
)
def test_bomb_with_non_ascii_digits_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_no_card_is_out_of_range() -> None:
    assert len(CODES) == NUM_CARDS == 52
