"""The 고스톱 rules options (``gostop.md`` §10) and how they sit beside 맞고's: the family's
values are options here and fixed class values there, never in a Matgo record."""

from __future__ import annotations

import pytest

from madang.core.errors import RuleConfigError
from madang.gostop.rules import PRESETS, GostopRules, preset
from madang.matgo.engine import new_game
from madang.matgo.rules import BonusCards, Gukjin, MatgoRules

OPTIONS_OF_SECTION_10 = [
    "bonus_cards", "first_dealer", "nagari_dealer", "stop_points", "jabbeok",
    "bbeok_steal_from", "bonus_steals_pi", "chongtong", "chongtong_points",
    "three_bbeok_points", "first_bbeok_points", "pibak_max_pi", "pibak_zero_pi", "meong",
    "gukjin", "gobak_multiplier", "nagari_carry", "shodang", "gwang_seller", "yeonsa_ban",
    "gwang_price", "gwang_bonus_counts", "gwang_payers",
]  # fmt: skip


def test_every_option_of_section_10_and_players() -> None:
    names = {f.name for f in GostopRules.option_fields()}
    assert names == {*OPTIONS_OF_SECTION_10, "players"}
    assert GostopRules.from_dict({}) == GostopRules() and GostopRules().changes() == {}
    d = GostopRules().to_dict()
    assert (d["bonus_cards"], d["stop_points"], d["pibak_max_pi"], d["chongtong"]) == (
        "2+2+3", 3, 5, "instant",
    )  # fmt: skip
    assert GostopRules.from_dict(d) == GostopRules()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"missions": True}, "unknown gostop rules option 'missions'"),
        ({"gukjin": "before_score"}, "'gukjin' must be one of 'auto', 'ask'"),
        ({"players": 2}, "'players' must be one of 3, 4"),
        ({"stop_points": 0}, "at least 1"),
        ({"pibak_max_pi": 10}, "at most 9"),
        ({"first_bbeok_points": -1}, "at least 0"),
        ({"gobak_multiplier": 3}, "must be one of 1, 2"),
        ({"gwang_payers": "nobody"}, "'gwang_payers' must be one of"),
    ],
)
def test_bad_options_are_typed_errors(data: dict[str, object], message: str) -> None:
    with pytest.raises(RuleConfigError, match=message):
        GostopRules.from_dict(data)


def test_matgo_records_and_forms_are_unchanged() -> None:
    # the family's values are class attributes of MatgoRules, not options
    assert list(MatgoRules().to_dict()) == [
        "bonus_cards", "jabbeok", "bonus_steals_pi", "first_dealer", "chongtong",
        "pibak_zero_pi", "meong", "gukjin", "missions",
    ]  # fmt: skip
    (bonus,) = [o for o in MatgoRules.describe() if o["name"] == "bonus_cards"]
    assert bonus["values"] == ["2+3", "none", "2+2+2"]
    with pytest.raises(RuleConfigError, match="'bonus_cards' must be one of"):
        MatgoRules(bonus_cards=BonusCards.TWO_TWO_THREE)
    with pytest.raises(RuleConfigError, match="unknown matgo rules option 'players'"):
        MatgoRules.from_dict({"players": 3})
    m = MatgoRules()
    assert (m.players, m.stop_points, m.pibak_max_pi, m.gobak_doubles_share) == (2, 7, 7, True)
    (gk,) = [o for o in GostopRules.describe() if o["name"] == "gukjin"]
    assert gk["values"] == ["auto", "ask"] and Gukjin.BEFORE_SCORE in Gukjin


def test_presets_are_rules_values_that_play() -> None:
    assert preset("default") == GostopRules()
    with pytest.raises(RuleConfigError, match="unknown gostop preset"):
        preset("nope")
    for name, rules in PRESETS.items():
        assert GostopRules.from_dict(rules.to_dict()) == rules, name
        g = new_game(rules, seed=3)
        assert len(g.hands) == rules.players and g.count_cards() == rules.deck_size
