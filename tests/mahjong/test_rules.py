"""MahjongRules: defaults, validation, dict round trips, presets."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from madang.core.errors import RuleConfigError
from madang.mahjong.rules import PRESETS, MahjongRules, preset


def test_defaults_match_notation_table() -> None:
    assert MahjongRules().to_dict() == {
        "min_pan": 0,
        "pan_value": 1,
        "ron_pays": 2,
        "multiple_ron": False,
        "quad_as_two_pairs": False,
        "rounds": 1,
    }


def test_every_field_has_a_docstring_in_source() -> None:
    import inspect

    import madang.mahjong.rules as mod

    source = inspect.getsource(mod.MahjongRules)
    for f in dataclasses.fields(MahjongRules):
        marker = f"    {f.name}: "
        start = source.index(marker)
        after = source[start:].split("\n", 2)[1]
        assert after.strip().startswith('"""'), f.name


@pytest.mark.parametrize(
    "changes",
    [
        {"min_pan": 2},
        {"min_pan": 3},
        {"pan_value": 100},
        {"ron_pays": 1},
        {"multiple_ron": True},
        {"quad_as_two_pairs": True},
        {"rounds": 2},
    ],
    ids=lambda d: "-".join(f"{k}={v}" for k, v in d.items()),
)
def test_every_option_accepts_its_other_values(changes: dict[str, Any]) -> None:
    rules = MahjongRules.from_dict(changes)
    for key, value in changes.items():
        assert getattr(rules, key) == value
    assert MahjongRules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    "bad",
    [
        {"min_pan": 1},
        {"min_pan": 4},
        {"min_pan": -1},
        {"min_pan": "2"},
        {"min_pan": 2.0},
        {"min_pan": True},
        {"pan_value": 0},
        {"pan_value": -3},
        {"pan_value": 1.5},
        {"pan_value": 101},
        {"pan_value": 10**6},
        {"ron_pays": 3},
        {"ron_pays": 0},
        {"multiple_ron": 1},
        {"multiple_ron": "true"},
        {"quad_as_two_pairs": None},
        {"rounds": 3},
        {"rounds": 0},
        {"bogus": 1},
        {"minpan": 2},
    ],
    ids=lambda d: "-".join(f"{k}={v!r}" for k, v in d.items()),
)
def test_bad_values_raise_rule_config_error(bad: dict[str, Any]) -> None:
    with pytest.raises(RuleConfigError):
        MahjongRules.from_dict(bad)


@pytest.mark.parametrize("bad", [[], "default", 3, [("min_pan", 2)]], ids=repr)
def test_rules_must_be_an_object(bad: Any) -> None:
    with pytest.raises(RuleConfigError):
        MahjongRules.from_dict(bad)


def test_none_and_empty_mean_default() -> None:
    assert MahjongRules.from_dict(None) == MahjongRules()
    assert MahjongRules.from_dict({}) == MahjongRules()


def test_frozen_and_replace_validates() -> None:
    rules = MahjongRules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.min_pan = 2  # type: ignore[misc]
    assert rules.replace(min_pan=3).min_pan == 3
    with pytest.raises(RuleConfigError):
        rules.replace(min_pan=5)
    with pytest.raises(RuleConfigError):
        rules.replace(nonsense=1)
    with pytest.raises(RuleConfigError):
        dataclasses.replace(rules, ron_pays=5)


def test_presets() -> None:
    assert preset("default") == MahjongRules()
    assert preset("yangpan").min_pan == 2
    assert preset("sampan").min_pan == 3
    assert preset("east_south").rounds == 2
    for name, rules in PRESETS.items():
        assert isinstance(rules, MahjongRules), name
        assert MahjongRules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RuleConfigError):
        preset("nope")


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "min_pan": st.sampled_from([0, 2, 3]),
            "pan_value": st.integers(1, 100),
            "ron_pays": st.sampled_from([1, 2]),
            "multiple_ron": st.booleans(),
            "quad_as_two_pairs": st.booleans(),
            "rounds": st.sampled_from([1, 2]),
        },
    )
)
def test_round_trip_property(d: dict[str, Any]) -> None:
    rules = MahjongRules.from_dict(d)
    assert MahjongRules.from_dict(rules.to_dict()) == rules
    assert {k: rules.to_dict()[k] for k in d} == d
