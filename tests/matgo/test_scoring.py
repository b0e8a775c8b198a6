"""Scoring: every 족보 row of ``matgo.md`` §6 and every multiplier of §8."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import RecordError
from madang.matgo.cards import CODES, mask_of, parse_cards
from madang.matgo.rules import MatgoRules, Meong
from madang.matgo.scoring import (
    MISSIONS,
    PATTERNS,
    GukjinMode,
    Mission,
    best_jokbo_points,
    flat_sheet,
    jokbo_items,
    jokbo_points,
    pi_count,
    settle,
    settle_points,
)

TEN_PI = "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1 05p2"  # 피 10: 1 point


def _m(codes: str) -> int:
    return mask_of(parse_cards(codes))


# ------------------------------------------------------------------ §6 족보


@pytest.mark.parametrize(
    ("pile", "items"),
    [
        # 광
        ("01g 03g", {}),
        ("01g 03g 08g", {"gwang": 3}),
        ("01g 03g 12g", {"gwang": 2}),
        ("01g 03g 08g 11g", {"gwang": 4}),
        ("01g 03g 08g 12g", {"gwang": 4}),
        ("01g 03g 08g 11g 12g", {"gwang": 15}),
        # 열끗
        ("05a 06a 07a 10a", {}),
        ("05a 06a 07a 10a 12a", {"yeol": 1}),
        ("05a 06a 07a 09a 10a 12a", {"yeol": 2}),
        ("02a 04a 05a 06a 07a 08a 09a 10a 12a", {"yeol": 5, "godori": 5}),
        # 고도리
        ("02a 04a 08a", {"godori": 5}),
        ("02a 04a 05a", {}),
        # 띠
        ("04r 05r 06r 09r", {}),
        ("01r 04r 06r 10r 12r", {"tti": 1}),
        ("01r 02r 04r 05r 06r 09r 12r", {"tti": 3}),
        # 단
        ("01r 02r 03r", {"hongdan": 3}),
        ("06r 09r 10r", {"cheongdan": 3}),
        ("04r 05r 07r", {"chodan": 3}),
        ("04r 05r 12r", {}),
        ("01r 02r 03r 04r 05r 07r", {"tti": 2, "hongdan": 3, "chodan": 3}),
        (
            "01r 02r 03r 04r 05r 06r 07r 09r 10r 12r",
            {"tti": 6, "hongdan": 3, "cheongdan": 3, "chodan": 3},
        ),
        # 피
        ("01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 05p1", {}),
        (TEN_PI, {"pi": 1}),
        (TEN_PI + " 06p1", {"pi": 2}),
        ("01p1 01p2 02p1 02p2 03p1 03p2 11d 12d", {"pi": 1}),
        ("01p1 01p2 02p1 02p2 03p1 b3", {"pi": 0}),
        ("01p1 01p2 02p1 02p2 03p1 03p2 04p1 b3", {"pi": 1}),
        ("11d 12d b2 b3 01p1", {"pi": 1}),
        # categories add up
        ("01g 03g 08g 02a 04a 08a", {"gwang": 3, "godori": 5}),
        ("01g 03g 08g 01r 02r 03r " + TEN_PI, {"gwang": 3, "hongdan": 3, "pi": 1}),
    ],
    ids=lambda x: x if isinstance(x, str) else ",".join(f"{k}{v}" for k, v in x.items()),
)
def test_jokbo_table(pile: str, items: dict[str, int]) -> None:
    m = _m(pile)
    want = {k: v for k, v in items.items() if v}
    assert {i.name: i.points for i in jokbo_items(m)} == want
    assert jokbo_points(m) == sum(want.values())


@pytest.mark.parametrize(
    ("pile", "as_animal", "as_pi"),
    [
        ("09a 02a 04a 05a 06a", 1, 0),  # 5 열끗, or 4 and 피 2
        ("09a " + "01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2", 0, 1),  # 피 8 + 2 = 10
        ("09a 02a 04a 08a", 5, 5),  # 고도리 either way
    ],
    ids=["yeol", "pi", "godori"],
)
def test_gukjin_both_ways(pile: str, as_animal: int, as_pi: int) -> None:
    m = _m(pile)
    assert jokbo_points(m, False) == as_animal
    assert jokbo_points(m, True) == as_pi
    assert best_jokbo_points(m) == max(as_animal, as_pi)
    assert pi_count(m, True) == pi_count(m) + 2


def test_patterns_table_is_declarative() -> None:
    assert [p.name for p in PATTERNS] == [
        "gwang", "yeol", "godori", "tti", "hongdan", "cheongdan", "chodan", "pi",
    ]  # fmt: skip
    for p in PATTERNS:
        assert p.name_ko and p.gloss
        assert p.points(0, False) == 0


# ------------------------------------------------------------------ §8 multipliers


def _names(s: Any) -> list[str]:
    return [m.name for m in s.multipliers]


@pytest.mark.parametrize(
    ("winner", "loser", "kw", "base", "points", "mults"),
    [
        pytest.param(TEN_PI, "06p1", {}, 1, 2, ["pibak"], id="pibak-loser-1"),
        pytest.param(TEN_PI, "06p1 06p2 07p1 07p2 08p1 08p2 09p1", {}, 1, 2, ["pibak"],
                     id="pibak-loser-7"),
        pytest.param(TEN_PI, "06p1 06p2 07p1 07p2 08p1 08p2 09p1 09p2", {}, 1, 1, [],
                     id="no-pibak-loser-8"),
        pytest.param(TEN_PI, "06p1 06p2 07p1 07p2 08p1 08p2 11d", {}, 1, 1, [],
                     id="no-pibak-loser-8-with-ssangpi"),
        pytest.param(TEN_PI, "12g", {}, 1, 1, [], id="no-pibak-loser-0-default"),
        pytest.param(TEN_PI, "12g", {"rules": MatgoRules(pibak_zero_pi=True)}, 1, 2, ["pibak"],
                     id="pibak-loser-0-option"),
        pytest.param("01g 03g 08g 02a 04a 08a", "06p1", {}, 8, 16, ["gwangbak"],
                     id="no-pibak-without-pi-score-gwangbak"),
        pytest.param("01g 03g 08g", "11p1 12g", {}, 3, 3, [], id="no-gwangbak-loser-has-gwang"),
        pytest.param("01g 03g 08g", "11p1", {}, 3, 6, ["gwangbak"], id="gwangbak"),
        pytest.param("01g 03g 12g", "11p1", {}, 2, 4, ["gwangbak"], id="gwangbak-bigwang"),
        pytest.param("02a 04a 05a 06a 07a 08a 10a", "11p1", {}, 8, 16, ["meongtta"],
                     id="meongtta-7"),
        pytest.param("02a 04a 05a 06a 07a 08a", "11p1", {}, 7, 7, [], id="no-meongtta-6"),
        pytest.param("02a 04a 05a 06a 07a 08a 10a", "12a",
                     {"rules": MatgoRules(meong=Meong.MEONGBAK)}, 8, 8, [],
                     id="no-meongbak-loser-has-yeol"),
        pytest.param("02a 04a 05a 06a 07a 08a 10a", "11p1",
                     {"rules": MatgoRules(meong=Meong.MEONGBAK)}, 8, 16, ["meongbak"],
                     id="meongbak"),
        pytest.param("01g 03g 08g 11g", "12g", {"loser_went_go": True}, 4, 8, ["gobak"],
                     id="gobak"),
        pytest.param("01g 03g 08g 11g", "12g", {"go": 1}, 5, 5, [], id="go-1"),
        pytest.param("01g 03g 08g 11g", "12g", {"go": 2}, 6, 6, [], id="go-2"),
        pytest.param("01g 03g 08g 11g", "12g", {"go": 3}, 7, 14, ["go"], id="go-3-x2"),
        pytest.param("01g 03g 08g 11g", "12g", {"go": 4}, 8, 32, ["go"], id="go-4-x4"),
        pytest.param("01g 03g 08g 11g", "12g", {"go": 5}, 9, 72, ["go"], id="go-5-x8"),
        pytest.param("01g 03g 08g 11g", "12g", {"shakes": 1}, 4, 8, ["heundeulgi"],
                     id="shake-1"),
        pytest.param("01g 03g 08g 11g", "12g", {"shakes": 2}, 4, 16, ["heundeulgi"],
                     id="shake-2"),
        pytest.param("01g 03g 08g 11g", "12g", {"shakes": 3}, 4, 32, ["heundeulgi"],
                     id="shake-3"),
        pytest.param("01g 03g 08g 11g", "12g", {"carry": 2}, 4, 8, ["nagari_carry"],
                     id="carry-2"),
        pytest.param("01g 03g 08g 11g", "12g", {"carry": 4}, 4, 16, ["nagari_carry"],
                     id="carry-4"),
        pytest.param("01g 03g 08g 11g " + TEN_PI, "06p1", {"go": 3, "shakes": 1,
                     "loser_went_go": True, "carry": 2}, 8, 8 * 2 * 2 * 2 * 2 * 2 * 2,
                     ["go", "heundeulgi", "pibak", "gwangbak", "gobak", "nagari_carry"],
                     id="everything"),
    ],
)  # fmt: skip
def test_settlement_table(
    winner: str, loser: str, kw: dict[str, Any], base: int, points: int, mults: list[str]
) -> None:
    s = settle(_m(winner), _m(loser), **kw)
    assert s.base == base
    assert _names(s) == mults
    assert s.points == points
    assert s.go == kw.get("go", 0)
    d = s.to_dict()
    assert d["points"] == points and d["base"] == base and d["jokbo"] == s.jokbo


def test_four_go_example_of_matgo_md() -> None:
    # "4고 pays (족보 points + 4) x4"
    s = settle(_m("01g 03g 08g 11g 01r 02r 03r"), _m("12g 06p1 06p2 07p1 07p2 08p1 08p2 09p1 09p2"),
               go=4)  # fmt: skip
    assert s.jokbo == 7 and s.points == (7 + 4) * 4


# ------------------------------------------------------------------ 국진 at settlement


@pytest.mark.parametrize(
    ("winner", "loser", "mode", "points", "counted"),
    [
        # winner maximises: 피 8 + 국진 = 10 (1) and 피박 (loser 피 1): 2 > 0
        pytest.param("09a 01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 01g 03g 08g", "06p1 11g",
                     GukjinMode.BEST, (3 + 1) * 2, "pi", id="winner-best-pi"),
        pytest.param("09a 01p1 01p2 02p1 02p2 03p1 03p2 04p1 04p2 01g 03g 08g", "06p1 11g",
                     GukjinMode.ANIMAL, 3, "animal", id="winner-animal"),
        pytest.param("09a 02a 04a 05a 06a 07a 08a 01g 03g 08g 12g", "06p1 11g",
                     GukjinMode.BEST, (4 + 3 + 5) * 2, "animal", id="winner-best-meongtta"),
        pytest.param("09a 02a 04a 05a 06a 07a 08a 01g 03g 08g 12g", "06p1 11g",
                     GukjinMode.PI, (4 + 2 + 5), "pi", id="winner-pi-no-meongtta"),
    ],
)  # fmt: skip
def test_gukjin_winner_maximises(
    winner: str, loser: str, mode: GukjinMode, points: int, counted: str
) -> None:
    s = settle(_m(winner), _m(loser), winner_gukjin=mode, loser_gukjin=mode)
    assert s.points == points
    assert s.gukjin == {"winner": counted}


@pytest.mark.parametrize(
    ("loser", "mode", "points", "counted"),
    [
        # loser 피 6; 국진 as 쌍피 makes 8: no 피박
        pytest.param("09a 06p1 06p2 07p1 07p2 08p1 08p2", GukjinMode.BEST, 1, "pi",
                     id="loser-best-escapes-pibak"),
        pytest.param("09a 06p1 06p2 07p1 07p2 08p1 08p2", GukjinMode.ANIMAL, 2, "animal",
                     id="loser-animal-pibak"),
        pytest.param("09a 06p1 06p2 07p1 07p2 08p1 08p2", GukjinMode.PI, 1, "pi",
                     id="loser-pi"),
        # loser with 피 0: as 쌍피 it would be 피 2, 피박; as 열끗 피 0, no 피박
        pytest.param("09a 12g", GukjinMode.BEST, 1, "animal", id="loser-best-stays-at-zero"),
        pytest.param("09a 12g", GukjinMode.PI, 2, "pi", id="loser-pi-pibak"),
    ],
)  # fmt: skip
def test_gukjin_loser_minimises(loser: str, mode: GukjinMode, points: int, counted: str) -> None:
    s = settle(_m(TEN_PI), _m(loser), winner_gukjin=mode, loser_gukjin=mode)
    assert s.points == points
    assert s.gukjin == {"loser": counted}


def test_gukjin_loser_minimises_meongbak() -> None:
    rules = MatgoRules(meong=Meong.MEONGBAK)
    winner = _m("02a 04a 05a 06a 07a 08a 10a")  # 8 points, 7 열끗
    # the loser's only 열끗 is the 국진: counted as 열끗 there is no 멍박
    s = settle(winner, _m("09a 01p1 01p2 02p1"), rules=rules)
    assert s.points == 8 and s.gukjin == {"loser": "animal"}
    s = settle(winner, _m("09a 01p1 01p2 02p1"), rules=rules, loser_gukjin=GukjinMode.PI)
    assert s.points == 16


# ------------------------------------------------------------------ flat wins, errors


def test_flat_sheet() -> None:
    s = flat_sheet("sam_ppeok", "3뻑", 7, 1)
    assert s.points == 7 and s.multipliers == ()
    s = flat_sheet("chongtong", "총통", 10, 4)
    assert s.points == 40 and [m.name for m in s.multipliers] == ["nagari_carry"]


@pytest.mark.parametrize("kw", [{"go": -1}, {"shakes": -1}, {"carry": 0}], ids=repr)
def test_settle_rejects_bad_numbers(kw: dict[str, Any]) -> None:
    with pytest.raises(RecordError):
        settle(_m(TEN_PI), 0, **kw)
    with pytest.raises(RecordError):
        settle_points(_m(TEN_PI), 0, **kw)


# ------------------------------------------------------------------ properties

MONTH_IDS = list(range(48))
piles = st.lists(st.sampled_from(list(range(50))), unique=True, max_size=30).map(mask_of)


@given(piles, st.booleans())
@settings(max_examples=400, deadline=None)
def test_jokbo_points_is_the_sum_of_items(pile: int, gukjin_pi: bool) -> None:
    items = jokbo_items(pile, gukjin_pi)
    assert jokbo_points(pile, gukjin_pi) == sum(i.points for i in items)
    assert all(i.points > 0 for i in items)
    assert best_jokbo_points(pile) == max(jokbo_points(pile, False), jokbo_points(pile, True))


@given(piles, st.integers(0, (1 << 50) - 1))
@settings(max_examples=200, deadline=None)
def test_jokbo_is_monotone(pile: int, extra: int) -> None:
    """Capturing more never lowers the 족보 points (국진 fixed either way)."""
    for gp in (False, True):
        assert jokbo_points(pile | extra, gp) >= jokbo_points(pile, gp)


@st.composite
def two_piles(draw: st.DrawFn) -> tuple[int, int]:
    cards = draw(st.permutations(list(range(50))))
    a = draw(st.integers(0, 30))
    b = draw(st.integers(0, 20))
    return mask_of(cards[:a]), mask_of(cards[a : a + b])


@given(
    two_piles(),
    st.integers(0, 5),
    st.integers(0, 3),
    st.booleans(),
    st.sampled_from([1, 2, 4]),
    st.sampled_from(list(GukjinMode)),
)
@settings(max_examples=300, deadline=None)
def test_settle_properties(
    piles2: tuple[int, int], go: int, shakes: int, went: bool, carry: int, mode: GukjinMode
) -> None:
    w, lo = piles2
    s = settle(w, lo, go=go, shakes=shakes, loser_went_go=went, carry=carry,
               winner_gukjin=mode, loser_gukjin=mode)  # fmt: skip
    assert s.base == s.jokbo + go
    product = 1
    for m in s.multipliers:
        assert m.factor >= 2
        product *= m.factor
    assert s.points == s.base * product
    assert s.points >= 0
    if mode is GukjinMode.BEST:
        fixed = [
            settle(w, lo, go=go, shakes=shakes, loser_went_go=went, carry=carry,
                   winner_gukjin=GukjinMode(x), loser_gukjin=GukjinMode(x)).points
            for x in ("animal", "pi")
        ]  # fmt: skip
        assert min(fixed) <= s.points <= max(fixed)


@given(
    two_piles(),
    st.integers(0, 5),
    st.integers(0, 3),
    st.booleans(),
    st.sampled_from([1, 2, 4]),
    st.sampled_from(list(GukjinMode)),
    st.sampled_from(list(GukjinMode)),
    st.sampled_from([None, *MISSIONS]),
    st.sampled_from([MatgoRules(), MatgoRules(pibak_zero_pi=True, meong=Meong.MEONGBAK)]),
)
@settings(max_examples=500, deadline=None)
def test_settle_points_is_the_sheets_points(
    piles2: tuple[int, int],
    go: int,
    shakes: int,
    went: bool,
    carry: int,
    w_mode: GukjinMode,
    l_mode: GukjinMode,
    mission: Mission | None,
    rules: MatgoRules,
) -> None:
    w, lo = piles2
    kw: dict[str, Any] = dict(go=go, shakes=shakes, loser_went_go=went, carry=carry,
                              rules=rules, winner_gukjin=w_mode, loser_gukjin=l_mode,
                              mission=mission)  # fmt: skip
    assert settle_points(w, lo, **kw) == settle(w, lo, **kw).points
    assert settle_points(lo, w, **kw) == settle(lo, w, **kw).points


def test_card_codes_cover_the_property_range() -> None:
    assert CODES[49] == "b3"
