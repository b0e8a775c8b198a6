"""score_hand: every pattern, every extra, the replacement rules, options and bad input.

Hands are written in MPSZ notation with the winning tile included; unless a row says
otherwise the winner sits South (2z, not the dealer) in the East round (1z).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from madang.core.errors import InvalidActionError, MadangError, RecordError
from madang.mahjong.patterns import BASE, EXTRA, PATTERNS, by_name
from madang.mahjong.rules import MahjongRules
from madang.mahjong.scoring import Meld, ScoreInputError, ScoreSheet, WinContext, score_hand
from madang.mahjong.tiles import parse_tile, parse_tiles


def score(
    hand: str,
    win: str,
    by: str = "ron",
    *,
    seat: str = "2z",
    round_wind: str = "1z",
    melds: tuple[str, ...] = (),
    flowers: int = 0,
    flags: tuple[str, ...] = (),
    rules: dict[str, Any] | None = None,
    pot: int = 0,
) -> ScoreSheet:
    ctx = WinContext(
        by=by,
        win_tile=parse_tile(win),
        seat_wind=parse_tile(seat),
        round_wind=parse_tile(round_wind),
        flowers=flowers,
        flags=frozenset(flags),
        pot=pot,
    )
    return score_hand(
        parse_tiles(hand),
        [Meld.parse(m) for m in melds],
        ctx,
        MahjongRules.from_dict(rules or {}),
    )


# A plain concealed hand: 6m completes 5-7 (a closed wait), one 6m in the hand.
PLAIN = "123m 567m 234p 789p 55p"

# (hand, win, by, options, expected 기본판 {name: 판}, expected 부가판 {name: 판}, points)
# fmt: off
CASES = [
    # ---- 멘젠, 스무, 핑허 and the waits ---------------------------------------------
    pytest.param(PLAIN, "6m", "ron", {}, {"menjen": 1}, {"gensyo": 1}, 1 + 1 + 5,
                 id="menjen-closed-6m-ron"),
    pytest.param(PLAIN, "6m", "tsumo", {}, {"menjen": 1, "seumu": 1}, {"gensyo": 1},
                 2 + 1 + 10, id="seumu-closed-6m-tsumo"),
    pytest.param("123m 456m 234p 789p 55p", "6m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "pingheo": 1}, {"gensyo": 1}, 3 + 1 + 10,
                 id="pingheo-45m-wait36-tsumo"),
    pytest.param("123m 456m 234p 789p 55p", "6m", "ron", {}, {"menjen": 1}, {"gensyo": 1},
                 1 + 1 + 5, id="pingheo-needs-tsumo-45m-ron"),
    pytest.param("123m 456m 234p 789p 55p", "1m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "pingheo": 1}, {"gensyo": 1}, 3 + 1 + 10,
                 id="pingheo-23m-wait14-tsumo"),
    pytest.param("123m 456m 234p 789p 55p", "3m", "tsumo", {}, {"menjen": 1, "seumu": 1},
                 {"gensyo": 1}, 2 + 1 + 10, id="edge-12m-wait3-no-pingheo"),
    pytest.param("789m 456m 234p 789p 55p", "7m", "tsumo", {}, {"menjen": 1, "seumu": 1},
                 {"gensyo": 1}, 2 + 1 + 10, id="edge-89m-wait7-no-pingheo"),
    pytest.param("123m 456m 234p 789p 55p", "5p", "tsumo", {}, {"menjen": 1, "seumu": 1},
                 {"gensyo": 2}, 2 + 2 + 10, id="pair-wait-5p-no-pingheo"),
    pytest.param("34567m 5m 234p 999p 11z", "5m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "pingheo": 1}, {"gensyo": 2}, 3 + 2 + 10,
                 id="pingheo-34567m-wait258-with-triplet-and-wind-pair"),
    pytest.param("234m 456p 678p 55m", "4p", "ron", {"melds": ("pon 8m",)}, {"dangyo": 1},
                 {"gensyo": 1}, 2, id="dangyo-open-hand-pon8m"),
    pytest.param("234m 456p 678p 55m", "4p", "tsumo", {"melds": ("pon 8m",)}, {"dangyo": 1},
                 {"gensyo": 1}, 2, id="open-tsumo-no-seumu-no-base-points"),
    # ---- winds and dragons ----------------------------------------------------------
    pytest.param("123m 456p 789p 222z 55p", "3m", "ron", {},
                 {"menjen": 1, "jagi_barampae": 1}, {"gensyo": 1}, 2 + 1 + 5,
                 id="jagi-barampae-222z-seat2z"),
    pytest.param("123m 456p 789p 111z 55p", "3m", "ron", {"seat": "3z"},
                 {"menjen": 1, "pan_barampae": 1}, {"gensyo": 1}, 2 + 1 + 5,
                 id="pan-barampae-111z-round1z"),
    pytest.param("123m 456p 789p 111z 55p", "3m", "ron", {"seat": "1z"},
                 {"menjen": 1, "jagi_barampae": 1, "pan_barampae": 1}, {"gensyo": 1},
                 3 + 1 + 5, id="double-wind-111z-dealer-east-round"),
    pytest.param("123m 456p 789p 333z 55p", "3m", "ron", {}, {"menjen": 1}, {"gensyo": 1},
                 1 + 1 + 5, id="guest-wind-333z-nothing"),
    pytest.param("123m 456p 555z 666z 99p", "9p", "ron", {}, {"menjen": 1, "gwijokpae": 2},
                 {"gensyo": 2}, 3 + 2 + 5, id="gwijokpae-x2-555z-666z"),
    pytest.param("555z 666z 77z 123m 456p", "7z", "ron", {}, {"menjen": 1, "sosamwon": 6},
                 {"gensyo": 2}, 7 + 2 + 5, id="sosamwon-replaces-gwijokpae"),
    pytest.param("555z 666z 77z 123m 456m", "7z", "ron", {},
                 {"menjen": 1, "sosamwon": 6, "honilsaek": 2}, {"gensyo": 2}, 9 + 2 + 5,
                 id="sosamwon-with-honilsaek"),
    pytest.param("666z 777z 123m 11p", "1p", "ron", {"melds": ("pon 5z",)}, {"daesamwon": 8},
                 {"gensyo": 2}, 8 + 2, id="daesamwon-pon5z-replaces-gwijokpae"),
    pytest.param("555z 666z 777z 123m 11p", "1p", "ron", {},
                 {"menjen": 1, "daesamwon": 8, "sam_angkko": 4}, {"gensyo": 2}, 13 + 2 + 5,
                 id="daesamwon-concealed-with-sam-angkko"),
    pytest.param("111z 222z 333z 44z 123m", "4z", "ron", {},
                 {"menjen": 1, "sosasi": 8, "honilsaek": 2, "sam_angkko": 4}, {"gensyo": 2},
                 15 + 2 + 5, id="sosasi-replaces-seat-and-round-wind"),
    pytest.param("111z 333z 444z 22z 123m", "2z", "ron", {},
                 {"menjen": 1, "sosasi": 8, "honilsaek": 2, "sam_angkko": 4}, {"gensyo": 2},
                 15 + 2 + 5, id="sosasi-seat-wind-is-the-pair"),
    pytest.param("333z 444z 55m", "5m", "ron", {"melds": ("pon 1z", "pon 2z")},
                 {"daesasi": 12, "doldori": 2, "honilsaek": 2}, {"gensyo": 2}, 16 + 2,
                 id="daesasi-with-doldori-replaces-winds"),
    pytest.param("111z 222z 333z 444z 55m", "5m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "daesasi": 12, "sa_angkko": 8, "honilsaek": 2},
                 {"gensyo": 2}, 24 + 2 + 10, id="daesasi-sa-angkko-replaces-doldori"),
    # ---- colours ----------------------------------------------------------------------
    pytest.param("123m 345m 777m 111z 22z", "2z", "ron", {"seat": "3z"},
                 {"menjen": 1, "honilsaek": 2, "pan_barampae": 1}, {"gensyo": 2},
                 4 + 2 + 5, id="honilsaek-man-and-honors"),
    pytest.param("123m 345m 777m 999m 55m", "5m", "ron", {},
                 {"menjen": 1, "cheongilsaek": 8}, {"gensyo": 3}, 9 + 3 + 5,
                 id="cheongilsaek-replaces-honilsaek"),
    pytest.param("111z 222z 555z 666z 33z", "3z", "ron", {},
                 {"menjen": 1, "jailsaek": 12, "jagi_barampae": 1, "pan_barampae": 1,
                  "gwijokpae": 2, "sa_angkko": 8},
                 {"gensyo": 2}, 25 + 2 + 5, id="jailsaek-with-gwijokpae-and-sa-angkko"),
    pytest.param("11223344556677z", "7z", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "childaejak": 4, "jailsaek": 12}, {"gensyo": 2},
                 18 + 2 + 10, id="jailsaek-childaejak-replaces-honnodu-honilsaek"),
    pytest.param("999p 99m", "9m", "ron", {"melds": ("pon 1m", "pon 1z", "pon 5z")},
                 {"honnodu": 8, "doldori": 2, "pan_barampae": 1, "gwijokpae": 1},
                 {"gensyo": 2}, 12 + 2, id="honnodu-open-with-doldori"),
    pytest.param("1199m 1199p 1122z 77z", "7z", "ron", {},
                 {"menjen": 1, "childaejak": 4, "honnodu": 8}, {"gensyo": 2}, 13 + 2 + 5,
                 id="honnodu-childaejak"),
    # ---- sets -------------------------------------------------------------------------
    pytest.param("123m 456m 789m 234p 55p", "1m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "pingheo": 1, "tonggwan": 2}, {"gensyo": 1},
                 5 + 1 + 10, id="tonggwan-123m-456m-789m"),
    pytest.param("123p 456p 789p 234m 55m", "5p", "ron", {}, {"menjen": 1, "tonggwan": 2},
                 {"gensyo": 1}, 3 + 1 + 5, id="tonggwan-pin-ron"),
    pytest.param("222m 88p", "8p", "ron", {"melds": ("pon 5m", "pon 3p", "pon 7p")},
                 {"doldori": 2, "dangyo": 1}, {"gensyo": 2}, 3 + 2,
                 id="doldori-three-pons"),
    pytest.param("111m 999m 111p 456p 77z", "6p", "ron", {},
                 {"menjen": 1, "sam_angkko": 4}, {"gensyo": 1}, 5 + 1 + 5,
                 id="sam-angkko-ron-on-a-run"),
    pytest.param("111222333m 456p 99p", "3m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "sam_angkko": 4}, {"gensyo": 3}, 6 + 3 + 10,
                 id="best-reading-111222333m-triplets-over-runs-tsumo"),
    pytest.param("111222333m 456p 99p", "3m", "ron", {}, {"menjen": 1}, {"gensyo": 3},
                 1 + 3 + 5, id="sam-angkko-lost-when-ron-completes-a-triplet"),
    pytest.param("222m 555m 333p 777p 88p", "8p", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "dangyo": 1, "sa_angkko": 8}, {"gensyo": 2},
                 11 + 2 + 10, id="sa-angkko-tsumo-replaces-sam-angkko-doldori"),
    pytest.param("222m 555m 333p 777p 88p", "8p", "ron", {},
                 {"menjen": 1, "dangyo": 1, "sa_angkko": 8}, {"gensyo": 2}, 10 + 2 + 5,
                 id="sa-angkko-ron-on-pair-wait"),
    pytest.param("222m 555m 333p 777p 88p", "7p", "ron", {},
                 {"menjen": 1, "dangyo": 1, "sam_angkko": 4, "doldori": 2}, {"gensyo": 3},
                 8 + 3 + 5, id="ron-on-shanpon-gives-sam-angkko-and-doldori"),
    pytest.param("222m 555m 333p 88p", "8p", "ron", {"melds": ("ankan 7p",)},
                 {"menjen": 1, "dangyo": 1, "sa_angkko": 8}, {"gensyo": 2}, 10 + 2 + 5,
                 id="ankan-7p-is-concealed"),
    pytest.param("222m 555m 333p 88p", "8p", "ron", {"melds": ("pon 7p",)},
                 {"dangyo": 1, "sam_angkko": 4, "doldori": 2}, {"gensyo": 2}, 7 + 2,
                 id="pon-7p-is-not-concealed"),
    pytest.param("222m 555m 333p 88p", "8p", "ron", {"melds": ("kan 7p",)},
                 {"dangyo": 1, "sam_angkko": 4, "doldori": 2}, {"gensyo": 2}, 7 + 2,
                 id="open-kan-7p-is-not-concealed"),
    # ---- 칠대작 ---------------------------------------------------------------------
    pytest.param("1155m 2288p 3399p 44z", "4z", "ron", {}, {"menjen": 1, "childaejak": 4},
                 {"gensyo": 2}, 5 + 2 + 5, id="childaejak-ron"),
    pytest.param("112233m 445566p 77z", "7z", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "childaejak": 4}, {"gensyo": 2}, 6 + 2 + 10,
                 id="best-reading-childaejak-over-runs"),
    pytest.param("1111m 55m 2288p 33p 44z", "4z", "ron", {"rules": {"quad_as_two_pairs": True}},
                 {"menjen": 1, "childaejak": 4}, {"gensyo": 2}, 5 + 2 + 5,
                 id="childaejak-quad-as-two-pairs"),
    # ---- 구련보등 -------------------------------------------------------------------
    pytest.param("11123455678999m", "5m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "guryeon_bodeung": 24}, {"gensyo": 2}, 26 + 2 + 10,
                 id="guryeon-bodeung-replaces-cheongilsaek"),
    pytest.param("11112345678999m", "1m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "pingheo": 1, "tonggwan": 2, "guryeon_bodeung": 24},
                 {"gensyo": 4}, 29 + 4 + 10, id="guryeon-bodeung-win-1m-read-as-run"),
    pytest.param("11123455678999m", "9m", "tsumo", {},
                 {"menjen": 1, "seumu": 1, "cheongilsaek": 8}, {"gensyo": 3}, 10 + 3 + 10,
                 id="not-guryeon-bodeung-when-13-before-are-not-pure"),
    pytest.param("11123455678999m", "5m", "ron", {},
                 {"menjen": 1, "guryeon_bodeung": 24}, {"gensyo": 2}, 25 + 2 + 5,
                 id="guryeon-bodeung-by-ron"),
    # ---- 부가판 -----------------------------------------------------------------------
    pytest.param(PLAIN, "6m", "ron", {"flowers": 1}, {"menjen": 1}, {"kkot": 1, "gensyo": 1},
                 1 + 2 + 5, id="kkot-1"),
    pytest.param(PLAIN, "6m", "ron", {"flowers": 3}, {"menjen": 1}, {"kkot": 3, "gensyo": 1},
                 1 + 4 + 5, id="kkot-3"),
    pytest.param(PLAIN, "6m", "ron", {"flowers": 4}, {"menjen": 1},
                 {"hwamangwan": 8, "gensyo": 1}, 1 + 9 + 5, id="hwamangwan-replaces-kkot"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("eopeo",)}, {"menjen": 1},
                 {"gensyo": 1, "eopeo": 1}, 1 + 2 + 5, id="eopeo-1"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("bulleo",)}, {"menjen": 1},
                 {"gensyo": 1, "bulleo": 2}, 1 + 3 + 5, id="bulleo-2"),
    pytest.param(PLAIN, "6m", "tsumo", {"flags": ("double_eopeo",)},
                 {"menjen": 1, "seumu": 1}, {"gensyo": 1, "bujibu_eopeo": 5}, 2 + 6 + 10,
                 id="bujibu-eopeo-5"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("double_eopeo", "bulleo")}, {"menjen": 1},
                 {"gensyo": 1, "bujibu_bulleo": 6}, 1 + 7 + 5, id="bujibu-bulleo-6"),
    pytest.param("123m 567m 234p 55p", "6m", "ron", {"melds": ("ankan 9p",), "flags": ("eopeo",)},
                 {"menjen": 1}, {"gensyo": 1, "eopeo": 1}, 1 + 2 + 5, id="eopeo-with-ankan-9p"),
    pytest.param("123m 567m 234p 55p", "6m", "tsumo",
                 {"melds": ("ankan 9p",), "flags": ("kan_draw",)}, {"menjen": 1, "seumu": 1},
                 {"gensyo": 1, "kkang_olla": 5}, 2 + 6 + 10, id="kkang-olla-after-ankan"),
    pytest.param("123m 567m 234p 55p", "6m", "tsumo",
                 {"melds": ("kan 9p",), "flags": ("kan_draw",)}, {},
                 {"gensyo": 1, "kkang_olla": 5}, 6, id="kkang-olla-open-kan-zero-base-pan"),
    pytest.param("123m 567m 234p 55p", "6m", "tsumo",
                 {"melds": ("ankan 9p",), "flags": ("kan_draw", "haitei")},
                 {"menjen": 1, "seumu": 1}, {"gensyo": 1, "kkang_olla": 5, "haitei_olla": 5},
                 2 + 11 + 10, id="kkang-olla-and-haitei-olla-both-count"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("robbed_kan",)}, {"menjen": 1},
                 {"gensyo": 4, "kkang_ssoa": 5}, 1 + 9 + 5, id="kkang-ssoa-gensyo-4"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("haitei",)}, {"menjen": 1},
                 {"gensyo": 1, "haitei_ssoa": 5}, 1 + 6 + 5, id="haitei-ssoa"),
    pytest.param(PLAIN, "6m", "tsumo", {"flags": ("haitei",)}, {"menjen": 1, "seumu": 1},
                 {"gensyo": 1, "haitei_olla": 5}, 2 + 6 + 10, id="haitei-olla"),
    pytest.param(PLAIN, "6m", "tsumo", {"seat": "1z", "flags": ("first_draw",)},
                 {"menjen": 1, "seumu": 1}, {"gensyo": 1, "cheonhwa": 16}, 2 + 17 + 10,
                 id="cheonhwa-dealer-tsumo"),
    pytest.param(PLAIN, "6m", "tsumo", {"seat": "4z", "flags": ("first_draw",)},
                 {"menjen": 1, "seumu": 1}, {"gensyo": 1, "inhwa": 16}, 2 + 17 + 10,
                 id="inhwa-non-dealer-tsumo"),
    pytest.param(PLAIN, "6m", "ron", {"seat": "3z", "flags": ("first_draw",)},
                 {"menjen": 1}, {"gensyo": 1, "jihwa": 16}, 1 + 17 + 5,
                 id="jihwa-non-dealer-ron"),
    pytest.param("123m 567m 234p 66m", "6m", "ron", {"melds": ("pon 5p",)}, {},
                 {"gensyo": 3}, 3, id="gensyo-counts-the-pair-and-the-run"),
    pytest.param("123m 456m 789p 66m", "6m", "ron", {"melds": ("kan 6p",)}, {},
                 {"gensyo": 3}, 3, id="gensyo-3-with-other-kan"),
    pytest.param("123m 456m 234p 55p", "4m", "ron", {"melds": ("pon 4m",)}, {},
                 {"gensyo": 4}, 4, id="gensyo-includes-pon-copies"),
    # ---- options ----------------------------------------------------------------------
    pytest.param(PLAIN, "6m", "ron", {"rules": {"pan_value": 10}}, {"menjen": 1},
                 {"gensyo": 1}, 2 * 10 + 5, id="pan-value-10"),
    pytest.param(PLAIN, "6m", "ron", {"pot": 15}, {"menjen": 1}, {"gensyo": 1}, 7 + 15,
                 id="pot-15"),
    pytest.param(PLAIN, "6m", "tsumo", {"rules": {"min_pan": 2}}, {"menjen": 1, "seumu": 1},
                 {"gensyo": 1}, 2 + 1 + 10, id="yangpan-met-by-menjen-seumu"),
    pytest.param("234m 456p 678p 55m", "4p", "ron", {"melds": ("pon 8m",), "rules": {"min_pan": 0}},
                 {"dangyo": 1}, {"gensyo": 1}, 2, id="mupan-one-pan-open"),
]
# fmt: on


@pytest.mark.parametrize(("hand", "win", "by", "opts", "base", "extra", "points"), CASES)
def test_score_table(
    hand: str,
    win: str,
    by: str,
    opts: dict[str, Any],
    base: dict[str, int],
    extra: dict[str, int],
    points: int,
) -> None:
    sheet = score(hand, win, by, **opts)
    assert sheet.valid, sheet.reason
    assert {i.name: i.pan for i in sheet.base_items} == base
    assert {i.name: i.pan for i in sheet.extra_items} == extra
    assert sheet.base_pan == sum(base.values())
    assert sheet.extra_pan == sum(extra.values())
    assert sheet.points == points
    assert sheet.reason == ""


def test_every_pattern_is_covered_by_the_table() -> None:
    seen: set[str] = set()
    for case in CASES:
        seen |= set(case.values[4]) | set(case.values[5])
    assert seen == {p.name for p in PATTERNS}


def test_item_names_and_order() -> None:
    sheet = score("111z 222z 555z 666z 33z", "3z")
    assert [(i.name_ko, i.name) for i in sheet.base_items] == [
        ("멘젠", "menjen"),
        ("자기 바람패", "jagi_barampae"),
        ("판 바람패", "pan_barampae"),
        ("귀족패", "gwijokpae"),
        ("사앙꼬", "sa_angkko"),
        ("자일색", "jailsaek"),
    ]


# ---- the replacement rules as data (mahjong.md §6) ---------------------------------


@pytest.mark.parametrize(
    ("name", "replaces"),
    [
        ("sa_angkko", {"sam_angkko", "doldori"}),
        ("cheongilsaek", {"honilsaek"}),
        ("jailsaek", {"honnodu", "honilsaek"}),
        ("guryeon_bodeung", {"cheongilsaek"}),
        ("daesasi", {"sosasi", "jagi_barampae", "pan_barampae"}),
        ("sosasi", {"jagi_barampae", "pan_barampae"}),
        ("daesamwon", {"gwijokpae"}),
        ("sosamwon", {"gwijokpae"}),
        ("hwamangwan", {"kkot"}),
        ("bulleo", {"eopeo"}),
        ("bujibu_eopeo", {"eopeo"}),
        ("bujibu_bulleo", {"bujibu_eopeo", "bulleo", "eopeo"}),
    ],
)
def test_replacements_are_table_data(name: str, replaces: set[str]) -> None:
    assert set(by_name(name).replaces) == replaces


def test_no_other_replacements() -> None:
    with_replacements = {p.name for p in PATTERNS if p.replaces}
    assert with_replacements == {
        "sa_angkko",
        "cheongilsaek",
        "jailsaek",
        "guryeon_bodeung",
        "daesasi",
        "sosasi",
        "daesamwon",
        "sosamwon",
        "hwamangwan",
        "bulleo",
        "bujibu_eopeo",
        "bujibu_bulleo",
    }


def test_pattern_table_values() -> None:
    pans = {p.name: p.pan for p in PATTERNS}
    assert pans == {
        "menjen": 1,
        "seumu": 1,
        "pingheo": 1,
        "dangyo": 1,
        "jagi_barampae": 1,
        "pan_barampae": 1,
        "gwijokpae": 1,
        "honilsaek": 2,
        "doldori": 2,
        "tonggwan": 2,
        "childaejak": 4,
        "sam_angkko": 4,
        "sosamwon": 6,
        "daesamwon": 8,
        "sa_angkko": 8,
        "cheongilsaek": 8,
        "honnodu": 8,
        "sosasi": 8,
        "daesasi": 12,
        "jailsaek": 12,
        "guryeon_bodeung": 24,
        "kkot": 1,
        "hwamangwan": 8,
        "gensyo": 1,
        "eopeo": 1,
        "bulleo": 2,
        "bujibu_eopeo": 5,
        "bujibu_bulleo": 6,
        "kkang_olla": 5,
        "kkang_ssoa": 5,
        "haitei_olla": 5,
        "haitei_ssoa": 5,
        "cheonhwa": 16,
        "inhwa": 16,
        "jihwa": 16,
    }
    assert all(p.kind == BASE for p in PATTERNS[:21])
    assert all(p.kind == EXTRA for p in PATTERNS[21:])


# ---- best reading, waits, invalid hands --------------------------------------------


def test_best_reading_reports_its_wait_and_sets() -> None:
    sheet = score("111222333m 456p 99p", "3m", "tsumo")
    assert sheet.wait == "triplet"
    assert sorted(sheet.sets) == sorted(["111m", "222m", "333m", "456p", "99p"])
    chiitoi = score("112233m 445566p 77z", "7z", "tsumo")
    assert chiitoi.wait == "pair" and len(chiitoi.sets) == 7
    run = score("123m 456m 234p 789p 55p", "6m", "tsumo")
    assert run.wait == "two_sided"
    assert score(PLAIN, "6m").wait == "closed"
    assert score("123m 456m 234p 789p 55p", "3m").wait == "edge"


def test_melds_appear_in_sets() -> None:
    sheet = score("222m 555m 333p 88p", "8p", melds=("ankan 7p",))
    assert "ankan 7777p" in sheet.sets


@pytest.mark.parametrize(
    ("hand", "win", "opts"),
    [
        pytest.param("123m 456m 234p 789p 5p 6p", "6p", {}, id="not-a-winning-shape"),
        pytest.param("1111m 55m 2288p 33p 44z", "4z", {}, id="quad-not-two-pairs-by-default"),
        pytest.param("19m 19p 1234567z 11z 9p", "9p", {}, id="thirteen-orphans-not-a-hand"),
    ],
)
def test_non_winning_hands_are_not_valid(hand: str, win: str, opts: dict[str, Any]) -> None:
    sheet = score(hand, win, **opts)
    assert not sheet.valid
    assert (sheet.base_pan, sheet.extra_pan, sheet.points) == (0, 0, 0)
    assert sheet.base_items == () and sheet.extra_items == ()
    assert "not a winning hand" in sheet.reason


@pytest.mark.parametrize(
    ("hand", "win", "by", "opts"),
    [
        pytest.param(PLAIN, "6m", "ron", {"rules": {"min_pan": 2}}, id="yangpan-1-pan-fails"),
        pytest.param(PLAIN, "6m", "tsumo", {"rules": {"min_pan": 3}}, id="sampan-2-pan-fails"),
        pytest.param(
            PLAIN,
            "6m",
            "ron",
            {"rules": {"min_pan": 2}, "flowers": 4},
            id="flowers-do-not-count-towards-minimum",
        ),
        pytest.param(
            PLAIN,
            "6m",
            "ron",
            {"rules": {"min_pan": 2}, "flags": ("bulleo",)},
            id="bulleo-does-not-count-towards-minimum",
        ),
        pytest.param(
            PLAIN,
            "6m",
            "ron",
            {"rules": {"min_pan": 2}, "pot": 50},
            id="pot-does-not-count-towards-minimum",
        ),
    ],
)
def test_table_minimum_counts_base_pan_only(
    hand: str, win: str, by: str, opts: dict[str, Any]
) -> None:
    sheet = score(hand, win, by, **opts)
    assert not sheet.valid
    assert (sheet.base_pan, sheet.extra_pan, sheet.points, sheet.pot) == (0, 0, 0, 0)
    assert "below the table minimum" in sheet.reason
    assert sheet.payments(1, None if by == "tsumo" else 0) == []


@pytest.mark.parametrize("min_pan", [0, 2, 3])
def test_table_minimum_boundary(min_pan: int) -> None:
    # menjen + seumu = exactly 2 기본판
    sheet = score(PLAIN, "6m", "tsumo", rules={"min_pan": min_pan})
    assert sheet.valid == (min_pan <= 2)


# ---- payments ----------------------------------------------------------------------


def test_payments_ron_pays_double_by_default() -> None:
    sheet = score(PLAIN, "6m", "ron")
    assert sheet.points == 7
    assert sheet.payments(winner_seat=1, discarder_seat=3) == [(3, 1, 14)]


def test_payments_ron_pays_once_option() -> None:
    sheet = score(PLAIN, "6m", "ron", rules={"ron_pays": 1})
    assert sheet.payments(1, 0) == [(0, 1, 7)]


def test_payments_tsumo_each_other_seat_pays() -> None:
    sheet = score(PLAIN, "6m", "tsumo", rules={"ron_pays": 1})
    assert sheet.points == 13
    assert sheet.payments(2, None) == [(0, 2, 13), (1, 2, 13), (3, 2, 13)]


def test_payments_pot_is_part_of_the_points() -> None:
    sheet = score(PLAIN, "6m", "ron", pot=10)
    assert sheet.payments(0, 1) == [(1, 0, 34)]


@pytest.mark.parametrize(
    ("by", "winner", "discarder"),
    [("ron", 1, None), ("tsumo", 1, 2), ("ron", 1, 1), ("ron", 4, 1), ("ron", 1, 7)],
)
def test_payments_bad_seats(by: str, winner: int, discarder: int | None) -> None:
    sheet = score(PLAIN, "6m", by)
    with pytest.raises(InvalidActionError):
        sheet.payments(winner, discarder)


# ---- bad input ---------------------------------------------------------------------

# fmt: off
BAD = [
    pytest.param("123m 567m 234p 789p 5p", "6m", "ron", {}, id="13-tiles"),
    pytest.param("123m 567m 234p 789p 555p", "6m", "ron", {}, id="15-tiles"),
    pytest.param(PLAIN, "6m", "ron", {"melds": ("pon 1z",)}, id="meld-makes-17"),
    pytest.param(PLAIN, "4m", "ron", {}, id="win-tile-not-in-hand"),
    pytest.param("11m 234m 567p 888p", "2m", "ron", {"melds": ("pon 1m",)}, id="fifth-1m-with-pon"),
    pytest.param("11111m 234m 567p 88p", "2m", "ron", {}, id="fifth-copy-concealed"),
    pytest.param("1m 234m 567p 88p", "2m", "ron", {"melds": ("ankan 1m", "pon 1m")},
                 id="ankan-and-pon-same-tile"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("kan_draw",)}, id="kan-draw-needs-tsumo"),
    pytest.param(PLAIN, "6m", "tsumo", {"flags": ("kan_draw",)}, id="kan-draw-needs-a-kan"),
    pytest.param("123m 567m 234p 55p", "6m", "tsumo",
                 {"melds": ("pon 9p",), "flags": ("kan_draw",)}, id="kan-draw-pon-is-no-kan"),
    pytest.param(PLAIN, "6m", "tsumo", {"flags": ("robbed_kan",)}, id="robbed-kan-needs-ron"),
    pytest.param("123m 566m 234p 789p 55p", "6m", "ron", {"flags": ("robbed_kan",)},
                 id="robbed-kan-but-two-copies"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("eopeo", "bulleo")}, id="eopeo-with-bulleo"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("eopeo", "double_eopeo")},
                 id="eopeo-with-double-eopeo"),
    pytest.param("234m 456p 678p 55m", "4p", "ron", {"melds": ("pon 8m",), "flags": ("eopeo",)},
                 id="eopeo-needs-concealed-hand"),
    pytest.param("234m 456p 678p 55m", "4p", "ron", {"melds": ("kan 8m",), "flags": ("bulleo",)},
                 id="bulleo-needs-concealed-hand"),
    pytest.param(PLAIN, "6m", "ron", {"seat": "1z", "flags": ("first_draw",)},
                 id="first-draw-dealer-ron"),
    pytest.param("123m 567m 234p 55p", "6m", "tsumo",
                 {"melds": ("ankan 9p",), "flags": ("first_draw",)}, id="first-draw-with-meld"),
    pytest.param(PLAIN, "6m", "tsumo", {"flags": ("first_draw", "haitei")},
                 id="first-draw-with-haitei"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("first_draw", "eopeo")},
                 id="first-draw-with-eopeo"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("haitei", "robbed_kan")},
                 id="haitei-with-robbed-kan"),
    pytest.param(PLAIN, "6m", "ron", {"flags": ("riichi",)}, id="unknown-flag"),
    pytest.param(PLAIN, "6m", "ron", {"flowers": 5}, id="flowers-5"),
    pytest.param(PLAIN, "6m", "ron", {"flowers": -1}, id="flowers-negative"),
    pytest.param(PLAIN, "6m", "ron", {"pot": -5}, id="pot-negative"),
    pytest.param(PLAIN, "6m", "ron", {"seat": "5z"}, id="seat-not-a-wind"),
    pytest.param(PLAIN, "6m", "ron", {"round_wind": "3m"}, id="round-not-a-wind"),
    pytest.param(PLAIN, "6m", "pass", {}, id="by-unknown"),
]
# fmt: on


@pytest.mark.parametrize(("hand", "win", "by", "opts"), BAD)
def test_bad_input_raises(hand: str, win: str, by: str, opts: dict[str, Any]) -> None:
    with pytest.raises((RecordError, InvalidActionError)):
        score(hand, win, by, **opts)


def test_flower_in_concealed_hand_is_bad_input() -> None:
    ctx = WinContext(by="ron", win_tile=parse_tile("6m"), seat_wind=19, round_wind=18)
    with pytest.raises(ScoreInputError):
        score_hand([*parse_tiles(PLAIN)[:-1], 25], [], ctx, MahjongRules())


@pytest.mark.parametrize(
    "text", ["chi 5z", "pon", "pon 5z6z", "pon 55z", "kan 333p", "5z", "ankan 1f", "pon 0m"]
)
def test_bad_meld_text(text: str) -> None:
    with pytest.raises(InvalidActionError):
        Meld.parse(text)


@pytest.mark.parametrize(
    ("text", "kind", "tile"),
    [
        ("pon 5z", "pon", 22),
        ("kan 3333p", "kan", 11),
        ("ankan 1z", "ankan", 18),
        ("pon 555z", "pon", 22),
    ],
)
def test_meld_text(text: str, kind: str, tile: int) -> None:
    meld = Meld.parse(text)
    assert (meld.kind, meld.tile) == (kind, tile)
    assert Meld.parse(meld.text()) == meld


def test_order_and_grouping_do_not_matter() -> None:
    a = score("123m 567m 234p 789p 55p", "6m", "tsumo")
    b = score("5p7m2p1m6m5p9p3m3p7p4p2m5m8p", "6m", "tsumo")
    assert a == b


# ---- properties --------------------------------------------------------------------

_SET = st.one_of(
    st.tuples(st.just("pung"), st.integers(0, 24)),
    st.tuples(st.just("chow"), st.sampled_from([b + i for b in (0, 9) for i in range(7)])),
)


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    sets = draw(st.lists(_SET, min_size=4, max_size=4))
    pair = draw(st.integers(0, 24))
    kinds = [pair, pair]
    for kind, k in sets:
        kinds += [k, k, k] if kind == "pung" else [k, k + 1, k + 2]
    counts = [kinds.count(k) for k in range(25)]
    if max(counts) > 4:
        kinds = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]
    perm = draw(st.permutations(kinds))
    win = draw(st.sampled_from(kinds))
    return list(perm), win


@settings(max_examples=150, deadline=None)
@given(
    winning_hands(),
    st.sampled_from([19, 20, 21, 18]),
    st.integers(0, 4),
    st.integers(1, 5),
    st.integers(0, 20),
)
def test_properties_of_any_four_sets_and_a_pair(
    hand: tuple[list[int], int], seat: int, flowers: int, pan_value: int, pot: int
) -> None:
    kinds, win = hand
    sheets = {}
    for by in ("ron", "tsumo"):
        ctx = WinContext(
            by=by, win_tile=win, seat_wind=seat, round_wind=18, flowers=flowers, pot=pot
        )
        sheet = score_hand(kinds, [], ctx, MahjongRules(pan_value=pan_value))
        assert sheet.valid  # 무판: every complete hand wins
        assert (
            sheet.points
            == (sheet.base_pan + sheet.extra_pan) * pan_value + (10 if by == "tsumo" else 5) + pot
        )
        assert sheet.base_pan == sum(i.pan for i in sheet.base_items)
        assert any(i.name == "menjen" for i in sheet.base_items)
        gensyo = next(i.pan for i in sheet.extra_items if i.name == "gensyo")
        assert gensyo == kinds.count(win)
        for min_pan in (2, 3):
            strict = score_hand(kinds, [], ctx, MahjongRules(min_pan=min_pan))
            assert strict.valid == (sheet.base_pan >= min_pan)
        sheets[by] = sheet
    # winning by 올라 never scores fewer 기본판 than by 쏘아
    assert sheets["tsumo"].base_pan >= sheets["ron"].base_pan + 1


def test_errors_are_madang_errors() -> None:
    assert issubclass(ScoreInputError, RecordError)
    assert issubclass(ScoreInputError, MadangError)


@st.composite
def hands_with_melds(draw: st.DrawFn) -> tuple[list[int], list[Meld], int]:
    sets = draw(st.lists(_SET, min_size=4, max_size=4))
    pair = draw(st.integers(0, 24))
    kinds = [pair, pair]
    melds: list[Meld] = []
    for kind, k in sets:
        if kind == "chow":
            kinds += [k, k + 1, k + 2]
        elif draw(st.booleans()):
            melds.append(Meld(draw(st.sampled_from(["pon", "kan", "ankan"])), k))
        else:
            kinds += [k, k, k]
    total = [kinds.count(k) + sum(m.size for m in melds if m.tile == k) for k in range(25)]
    if max(total) > 4:
        kinds, melds = [0, 0, 0, 1, 1, 1, 2, 2], [Meld("pon", 5), Meld("ankan", 20)]
    win = draw(st.sampled_from(kinds))
    return draw(st.permutations(kinds)), melds, win


@settings(max_examples=150, deadline=None)
@given(hands_with_melds(), st.sampled_from(["ron", "tsumo"]))
def test_properties_with_melds(hand: tuple[list[int], list[Meld], int], by: str) -> None:
    concealed, melds, win = hand
    ctx = WinContext(by=by, win_tile=win, seat_wind=20, round_wind=18)
    sheet = score_hand(concealed, melds, ctx, MahjongRules())
    assert sheet.valid
    open_hand = any(m.kind != "ankan" for m in melds)
    names = {i.name for i in sheet.base_items}
    assert ("menjen" in names) == (not open_hand)
    assert sheet.base_points == (0 if open_hand else 10 if by == "tsumo" else 5)
    gensyo = next(i.pan for i in sheet.extra_items if i.name == "gensyo")
    assert gensyo == concealed.count(win) + sum(m.size for m in melds if m.tile == win)
    assert sum(1 for s in sheet.sets if s.split()[0] in ("pon", "kan", "ankan")) == len(melds)
